import Foundation
import LayercastWire

extension Server {
    /// Answers 408 and closes every POST whose body has not arrived whole within
    /// `--body-timeout` seconds of its head, however slowly it trickles (checked each tick).
    func expireSlowBodies(now: Double) {
        guard !posting.isEmpty else { return }
        let limit = configuration.bodyTimeoutSeconds
        for wsi in posting {
            guard let connection = connections[wsi], let post = connection.pendingPost, now - post.startedAt > limit else { continue }
            connection.pendingPost = nil
            posting.remove(wsi)
            refuseRequest(wsi, RequestRefusal(status: 408, reason: .bodyTimeout,
                                       message: "the request body did not arrive within \(Int(limit)) s"))
        }
    }
}
