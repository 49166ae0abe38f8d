import LayercastHub

/// A POST request whose body is still arriving: where it goes, its credentials, when its head
/// arrived (monotonic seconds, for `--body-timeout`), and the body so far (dropped once past `maxBody`).
struct PendingPost {
    let path: String
    let authorization: String?
    let startedAt: Double
    var body: [UInt8] = []
    var oversize = false

    /// The largest request body read, in bytes.
    static let maxBody = Hub.maxCommandBody

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !oversize else { return }
        if body.count + bytes.count > Self.maxBody {
            oversize = true
            body = []
        } else {
            body.append(contentsOf: bytes)
        }
    }
}
