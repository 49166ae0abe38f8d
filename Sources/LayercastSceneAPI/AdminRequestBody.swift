import LayercastJSON

/// The JSON body of an admin request: an object (or nothing) whose members are all optional
/// and must be among the route's `fields`; refusals are 400 `bad_json` or `bad_field`.
public enum AdminRequestBody {
    /// The body as a field reader rooted at `path`, or nil for an empty (all-whitespace) body.
    public static func read(_ body: [UInt8], path: String, fields: Set<String>) throws(APIError) -> FieldReader? {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return nil }
        let value: JSONValue
        switch body.withUnsafeBytes({ bytes in Result { () throws(JSONParseError) in try JSONValue.parse(bytes: bytes) } }) {
        case .success(let parsed): value = parsed
        case .failure(let error): throw APIError(400, .badJSON, "body is not JSON: \(error.message)")
        }
        guard case .object(let object) = value else { throw APIError(400, .badJSON, "body must be a JSON object") }
        if let unknown = object.keys.sorted().first(where: { !fields.contains($0) }) {
            throw APIError(400, .badField, "unknown field \(FieldReader.quoted(unknown)); fields are \(fields.sorted().joined(separator: ", "))")
        }
        return FieldReader(value, path: path)
    }
}
