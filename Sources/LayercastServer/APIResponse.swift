import LayercastJSON
import LayercastSceneAPI
import LayercastWire

/// A route's whole answer: status, content type and body. An error answer keeps its code, which
/// `layercast_api_errors_total` counts when it is written.
struct APIResponse: Equatable {
    let status: UInt32
    let contentType: String
    let body: String
    /// The code of an error answer; nil for any other.
    let error: ErrorCode?

    /// A JSON document with `status`.
    static func json(_ document: JSONValue, status: UInt32 = 200) -> APIResponse {
        APIResponse(status: status, contentType: "application/json", body: document.serialized() + "\n", error: nil)
    }

    /// An API error as `{"error": code, "message": message}`.
    static func error(_ error: APIError) -> APIResponse {
        let document: JSONValue = ["error": .string(error.code.rawValue), "message": .string(error.message)]
        return APIResponse(status: error.status, contentType: "application/json", body: document.serialized() + "\n",
                           error: error.code)
    }

    /// Plain text (or another `type`) with `status`.
    static func text(_ body: String, status: UInt32 = 200, type: String = "text/plain; charset=utf-8") -> APIResponse {
        APIResponse(status: status, contentType: type, body: body, error: nil)
    }

    /// The document with `status`, or the error.
    init(_ result: Result<JSONValue, APIError>, status: UInt32 = 200) {
        switch result {
        case .success(let document): self = .json(document, status: status)
        case .failure(let error): self = .error(error)
        }
    }

    private init(status: UInt32, contentType: String, body: String, error: ErrorCode?) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.error = error
    }
}
