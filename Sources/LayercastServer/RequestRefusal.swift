import LayercastJSON
import LayercastSceneAPI
import LayercastWire

/// Why a request is answered with an error and its connection closed before any handler sees
/// it: the status, the `/metrics` reason and a one-line explanation for the body.
struct RequestRefusal: Error, Equatable {
    let status: Int
    /// The answer's `error` and the `reason` label of `layercast_http_refused_total`.
    let reason: ErrorCode
    let message: String

    static func badRequest(_ reason: ErrorCode, _ message: String) -> RequestRefusal {
        RequestRefusal(status: 400, reason: reason, message: message)
    }

    /// The whole HTTP/1.1 answer: status line, `headers` (the service's security headers),
    /// `Allow` on a 405, `Connection: close`, and the body the API's errors have,
    /// `{"error":"<reason>","message":"…"}`.
    func response(headers: [(name: String, value: String)]) -> [UInt8] {
        let body = JSONValue.object(["error": .string(reason.rawValue), "message": .string(message)]).serialized() + "\n"
        var text = "HTTP/1.1 \(status) \(Self.titles[status] ?? "Error")\r\n"
        for header in headers { text += "\(header.name): \(header.value)\r\n" }
        if status == 405 { text += "allow: \(RequestFraming.allowedMethods.joined(separator: ", "))\r\n" }
        text += "content-type: application/json\r\ncontent-length: \(body.utf8.count)\r\nconnection: close\r\n\r\n"
        return Array((text + body).utf8)
    }

    private static let titles = [400: "Bad Request", 405: "Method Not Allowed", 408: "Request Timeout",
                                 431: "Request Header Fields Too Large"]
}
