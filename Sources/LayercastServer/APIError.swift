/// An HTTP API refusal: the status, a stable code and a message for the person calling.
struct APIError: Error {
    let status: UInt32
    let code: String
    let message: String

    init(_ status: UInt32, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }
}
