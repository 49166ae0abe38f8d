import LayercastEngine

/// The machine's monotonic clock, the one `Server` gives its hub (`HubTransport.clock`): the time
/// base of the hub, and of the transport's own deadlines and tick.
let monotonicClock = MonotonicClock()
