/// The cluster's counters of `/metrics` (docs/cluster.md, "What an operator sees").
struct ClusterMetrics {
    var framesPublished = 0
    var framesRelayed = 0
    /// Relayed deltas that did not follow the room's newest frame (a full frame was asked for).
    var frameGaps = 0
    var inputsForwarded = 0
    var inputsResolved = 0
    /// Rooms this node became origin of or started relaying from a new origin.
    var placementChanges = 0
    var redisErrors = 0
    var redisReconnects = 0

    /// The Prometheus text, with the gauges of rooms this node is origin of and relays.
    func render(originRooms: Int, relayedRooms: Int, connected: Bool) -> String {
        let lines: [(String, String, String, Int)] = [
            ("layercast_cluster_connected", "gauge", "1 while the node reaches Redis", connected ? 1 : 0),
            ("layercast_cluster_origin_rooms", "gauge", "Rooms this node is origin of", originRooms),
            ("layercast_cluster_relayed_rooms", "gauge", "Rooms this node relays from another origin", relayedRooms),
            ("layercast_cluster_frames_published_total", "counter", "Frames published for other nodes", framesPublished),
            ("layercast_cluster_frames_relayed_total", "counter", "Frames received from origins and applied", framesRelayed),
            ("layercast_cluster_frame_gaps_total", "counter", "Relayed deltas that did not follow (a full frame was asked for)", frameGaps),
            ("layercast_cluster_inputs_forwarded_total", "counter", "Client input sent to another node's room", inputsForwarded),
            ("layercast_cluster_inputs_resolved_total", "counter", "Input from other nodes resolved here", inputsResolved),
            ("layercast_cluster_placement_changes_total", "counter", "Rooms placed here or moved to a new origin", placementChanges),
            ("layercast_cluster_redis_errors_total", "counter", "Redis connections lost or refused, and error replies", redisErrors),
            ("layercast_cluster_redis_reconnects_total", "counter", "Connections to Redis made again after a loss", redisReconnects),
        ]
        return lines.map { "# HELP \($0.0) \($0.2)\n# TYPE \($0.0) \($0.1)\n\($0.0) \($0.3)\n" }.joined()
    }
}
