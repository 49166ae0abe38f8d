/// The cluster's timing (docs/cluster.md, "Placement and leases" and "Failover"): how long a
/// lease lasts and how often each thing is done, in seconds; every constant of leases,
/// heartbeats, failover, reports and the link's timer and backoff is here.
///
/// The failover bound: an origin that dies stops its heartbeat, whose key is gone at most
/// `heartbeatExpiry` later; a relay with clients tries to take the room from `silence` after its
/// last frame, and again every `period`, and its first acquisition after the key is gone wins.
/// So a room has a new origin within `heartbeatExpiry + period` of its origin's death (0.6 s),
/// whatever is left of the room's `lease`.
public struct ClusterTiming: Sendable {
    /// A room's lease lives this long unless its origin renews it from its hub's thread (or its
    /// origin's heartbeat lapses first: then the lease is taken at once). So an origin whose
    /// process runs but whose hub thread hangs loses its rooms within this.
    public var lease = 2.0
    /// An origin renews its leases this often.
    public var renewal = 0.5
    /// A node's heartbeat key lives this long; the node's link sets it again at every tick of its
    /// timer (`period`), from the link's own thread. A node not heard of for this long (its
    /// process dead or stopped, or cut off from Redis) is dead, and the leases it holds may be
    /// taken; a busy hub thread does not stop the heartbeat.
    public var heartbeatExpiry = 0.5
    /// A relaying node with clients that has had no frame for this long tries to take the room,
    /// and again every `period` while the silence lasts.
    public var silence = 0.25
    /// After (re)connecting to Redis, a node waits this long before taking rooms over, so that
    /// origins renew their leases first.
    public var reconnectGrace = 1.0
    /// Each node rewrites its report and its entry in each of its rooms' audience this often, and
    /// an origin reads its rooms' audiences as often (`NodeReports`).
    public var report = 1.0
    /// A report or an audience entry older than this is from a node that is gone (and is
    /// deleted); the reports' and audiences' keys expire this long after their last write.
    public var reportExpiry = 2.5
    /// An origin publishes a room's frames this long after a node last asked or reported clients.
    public var publishing = 3.5
    /// A relay asks a room's origin for a full frame at most this often.
    public var fullFrameRequests = 0.2
    /// The link's timer: the link beats and the node looks at its leases and rooms this often (so
    /// a silent room's lease is tried again this often).
    public var period = 0.1
    /// The link's first wait before connecting to Redis again, doubled at each failure up to
    /// `maximumBackoff`.
    public var backoff = 0.1
    public var maximumBackoff = 1.0

    public init() {}
}
