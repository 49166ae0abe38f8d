/// An HTTP API refusal: the status, a stable code (`ErrorCode`, shared with the WebSocket's
/// `error`) and a message for the person calling; answered as `{"error": code, "message": message}`.
public struct APIError: Error, Sendable {
    public let status: UInt32
    public let code: ErrorCode
    public let message: String

    public init(_ status: UInt32, _ code: ErrorCode, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }
}
