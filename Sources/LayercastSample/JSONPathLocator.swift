/// Names the place in a JSON text where a byte offset falls, as a document path such as
/// `root.animations[0].toValue`: parse errors (1e400, a stray character) can then say which
/// field they are in, like every other sample error.
enum JSONPathLocator {
    private enum Frame {
        case object(key: String?)
        case array(index: Int)
    }

    /// The path of the innermost value open at `offset` (bytes), or nil at the top level.
    static func path(in text: String, at offset: Int) -> String? {
        let bytes = Array(text.utf8.prefix(max(0, offset)))
        var stack: [Frame] = []
        var i = 0
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "{"): stack.append(.object(key: nil))
            case UInt8(ascii: "["): stack.append(.array(index: 0))
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = stack.popLast()
            case UInt8(ascii: ","):
                switch stack.last {
                case .object: stack[stack.count - 1] = .object(key: nil)
                case .array(let index): stack[stack.count - 1] = .array(index: index + 1)
                case nil: break
                }
            case UInt8(ascii: "\""):
                var j = i + 1
                var raw: [UInt8] = []
                while j < bytes.count, bytes[j] != UInt8(ascii: "\"") {
                    if bytes[j] == UInt8(ascii: "\\") { j += 1 }
                    if j < bytes.count { raw.append(bytes[j]) }
                    j += 1
                }
                if case .object(nil) = stack.last, isKey(bytes, after: j) {
                    stack[stack.count - 1] = .object(key: String(decoding: raw, as: UTF8.self))
                }
                i = j
            default: break
            }
            i += 1
        }
        var path = ""
        for frame in stack {
            switch frame {
            case .object(let key?): path += path.isEmpty ? key : ".\(key)"
            case .object(nil): break
            case .array(let index): path += "[\(index)]"
            }
        }
        if path.hasPrefix("[") { path = "input" + path }
        return path.isEmpty ? nil : path
    }

    /// Whether the string ending at `end` is followed by a colon (so it is a key).
    private static func isKey(_ bytes: [UInt8], after end: Int) -> Bool {
        var k = end + 1
        while k < bytes.count, bytes[k] == UInt8(ascii: " ") || bytes[k] == UInt8(ascii: "\n")
            || bytes[k] == UInt8(ascii: "\t") || bytes[k] == UInt8(ascii: "\r") { k += 1 }
        return k >= bytes.count || bytes[k] == UInt8(ascii: ":")
    }
}
