/// What a `ClusterNode` needs of its link to Redis (`ClusterLink`; a test's fake link without
/// Redis): requests handed over, events collected, and when Redis last confirmed the heartbeat.
protocol ClusterNodeLink: AnyObject {
    /// Starts the link's I/O.
    func start()
    /// Sends what is queued, then stops the link's I/O.
    func stop()
    /// Hands requests to the link, to be sent in order.
    func send(_ requests: [ClusterLink.Request])
    /// Takes the events waiting for the node (`ClusterNode.handleEvents`), oldest first.
    func takeEvents() -> [ClusterLink.Event]
    /// When the newest heartbeat Redis confirmed was sent, on the node's clock.
    var beatConfirmedAt: Double { get }
}

extension ClusterLink: ClusterNodeLink {
    /// Stops, waiting for the link's thread at most a second.
    func stop() { stop(wait: 1) }
}
