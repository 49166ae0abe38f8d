/// One Redis reply (RESP2), copied out of hiredis.
public enum RedisReply: Equatable, Sendable {
    case string([UInt8])
    case status(String)
    case integer(Int)
    case array([RedisReply])
    case null
    case error(String)

    /// The reply as text, for a bulk string or a status; nil otherwise.
    public var text: String? {
        switch self {
        case .string(let bytes): String(decoding: bytes, as: UTF8.self)
        case .status(let text): text
        default: nil
        }
    }

    /// Whether it is an error reply.
    public var isError: Bool {
        if case .error = self { return true }
        return false
    }
}
