/// An HTTP API refusal: the status, a stable code (`ErrorCode`, shared with the WebSocket's
/// `error`) and a message for the person calling; answered as `{"error": code, "message": message}`.
public struct APIError: Error, Sendable {
    /// The HTTP status answered (400, 404, 503 …).
    public let status: UInt32
    /// The stable code, the answer's `error`.
    public let code: ErrorCode
    /// What was wrong, for the person calling.
    public let message: String

    /// A refusal answered with `status`, `code` and `message`.
    public init(_ status: UInt32, _ code: ErrorCode, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }
}
