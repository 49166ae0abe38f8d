import LayercastEngine

/// The machine's monotonic clock, which the load tool's processes all read alike: the time base of
/// a run's schedule (the workers are sent its start on it) and of every measurement.
let monotonicClock = MonotonicClock()
