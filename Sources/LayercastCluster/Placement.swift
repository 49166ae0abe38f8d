/// Which node a room goes to (docs/cluster.md, "Placement and leases"): the holder of its lease
/// runs its scene, every other node with clients in it relays it from there; and a relay that
/// hears a room's frames from another node than the origin it knows follows that node.
enum Placement: Equatable {
    /// This node holds the lease: it runs the room's scene.
    case here
    /// Another node holds it: this node relays its frames.
    case relayed(from: String)

    /// Where a room whose lease `holder` holds goes, seen from `node`.
    init(holder: String, node: String) {
        self = holder == node ? .here : .relayed(from: holder)
    }

    /// Where a room relayed from `known` goes when `node` hears its frames or events from
    /// `sender`: to the sender, when it is a new origin (a takeover this node missed); nil when
    /// nothing changes.
    static func following(_ sender: String, relayedFrom known: String?, node: String) -> Placement? {
        guard sender != node, let known, known != sender else { return nil }
        return .relayed(from: sender)
    }
}
