import Foundation
import LayercastWire

extension Server {
    /// Answers 408 and closes every POST whose body has not arrived whole within
    /// `--body-timeout` seconds of its head, however slowly it trickles (checked each tick).
    func expireSlowBodies(now: Double) {
        guard !pendingPosts.isEmpty else { return }
        let limit = configuration.bodyTimeoutSeconds
        for (wsi, post) in pendingPosts where now - post.startedAt > limit {
            pendingPosts[wsi] = nil
            refuseRequest(wsi, RequestRefusal(status: 408, reason: .bodyTimeout,
                                       message: "the request body did not arrive within \(Int(limit)) s"))
        }
    }
}
