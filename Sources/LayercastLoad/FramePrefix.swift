import LayercastJSON

/// What a frame's text starts with (protocol.md, "frame": `{"type":"frame","n":N,"t":T,"full":B`,
/// in that order, then a delta's `"b":B` when it has one): read straight from the bytes, so that a
/// client which needs no display list reads a frame without parsing it.
struct FramePrefix: Equatable {
    let number: Int
    let time: Double
    let full: Bool
    /// A delta's first frame (`b`, or `number - 1` without it); nil for a full frame.
    let base: Int?

    private static let start = Array(#"{"type":"frame","n":"#.utf8)
    private static let time = Array(#","t":"#.utf8)
    private static let full = Array(#","full":"#.utf8)
    private static let base = Array(#","b":"#.utf8)

    init(number: Int, time: Double, full: Bool, base: Int? = nil) {
        self.number = number
        self.time = time
        self.full = full
        self.base = full ? nil : base ?? number - 1
    }

    /// A parsed delta's first frame: its `b`, or `number - 1` without it; nil when `b` is not a
    /// frame number below `number`.
    static func base(of message: JSONValue, number: Int) -> Int? {
        guard let b = message["b"] else { return number - 1 }
        guard let base = b.intValue, base >= 0, base < number else { return nil }
        return base
    }

    /// Nil when `bytes` do not start that way (another message, or another writer's member
    /// order): then the message is to be parsed whole.
    init?(_ bytes: UnsafeRawBufferPointer) {
        var at = 0
        func expect(_ literal: [UInt8]) -> Bool {
            guard bytes.count - at >= literal.count else { return false }
            for (offset, byte) in literal.enumerated() where bytes[at + offset] != byte { return false }
            at += literal.count
            return true
        }
        /// The bytes up to the next `,` or `}` (at most 24), as a number's text.
        func token() -> String? {
            let begin = at
            while at < bytes.count, bytes[at] != UInt8(ascii: ","), bytes[at] != UInt8(ascii: "}"), at - begin <= 24 { at += 1 }
            guard at > begin, at < bytes.count, at - begin <= 24 else { return nil }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[begin..<at]), as: UTF8.self)
        }
        guard expect(Self.start), let n = token().flatMap({ Int($0) }), expect(Self.time),
              let t = token().flatMap({ Double($0) }), t.isFinite, expect(Self.full) else { return nil }
        if expect(Array("true".utf8)) {
            full = true
            base = nil
        } else if expect(Array("false".utf8)) {
            full = false
            if expect(Self.base) {
                guard let b = token().flatMap({ Int($0) }), b >= 0, b < n else { return nil }
                base = b
            } else {
                base = n - 1
            }
        } else {
            return nil
        }
        number = n
        time = t
    }
}
