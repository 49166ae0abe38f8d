@testable import LayercastCluster

/// A cluster node's link to Redis played by a test (`ClusterNodeTests`): it keeps what the node
/// hands it, and the node takes the events the test posts. No Redis, no thread.
final class FakeClusterLink: ClusterNodeLink {
    private(set) var started = false
    private(set) var stopped = false
    /// What the node handed over since the test last took it, oldest first.
    private(set) var requests: [ClusterLink.Request] = []
    /// When the newest heartbeat Redis confirmed was sent, as the test says.
    var beatConfirmedAt: Double
    private var events: [ClusterLink.Event] = []

    init(beatConfirmedAt: Double) { self.beatConfirmedAt = beatConfirmedAt }

    func start() { started = true }
    func stop() { stopped = true }
    func send(_ requests: [ClusterLink.Request]) { self.requests += requests }

    func takeEvents() -> [ClusterLink.Event] {
        defer { events.removeAll() }
        return events
    }

    /// Posts `events` for the node's next `handleEvents()`.
    func post(_ events: ClusterLink.Event...) { self.events += events }

    /// Takes the requests handed over so far.
    func take() -> [ClusterLink.Request] {
        defer { requests.removeAll() }
        return requests
    }

    /// Takes the requests handed over so far; returns the commands among them: the arguments of
    /// each, as text, with its tag.
    func takeCommands() -> [(arguments: [String], tag: Int)] {
        take().compactMap { request in
            guard case .command(let arguments, let tag) = request else { return nil }
            return (arguments.map { String(decoding: $0, as: UTF8.self) }, tag)
        }
    }

    /// Takes the requests handed over so far; returns the messages published among them, read
    /// back, with their channels.
    func takePublished() throws -> [(channel: String, message: ClusterMessage)] {
        try take().compactMap { request in
            guard case .publish(let channel, let payload) = request else { return nil }
            return (channel, try ClusterMessage(payload, onRoomChannel: ClusterKeys.room(ofChannel: channel) != nil))
        }
    }
}
