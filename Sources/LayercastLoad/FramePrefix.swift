/// What a frame's text starts with (protocol.md, "frame": `{"type":"frame","n":N,"t":T,"full":B`,
/// in that order): read straight from the bytes, so that a client which needs no display list
/// reads a frame without parsing it.
struct FramePrefix: Equatable {
    let number: Int
    let time: Double
    let full: Bool

    private static let start = Array(#"{"type":"frame","n":"#.utf8)
    private static let time = Array(#","t":"#.utf8)
    private static let full = Array(#","full":"#.utf8)

    init(number: Int, time: Double, full: Bool) {
        self.number = number
        self.time = time
        self.full = full
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
        /// The bytes up to the next `,` (at most 24), as a number's text.
        func token() -> String? {
            let begin = at
            while at < bytes.count, bytes[at] != UInt8(ascii: ","), at - begin <= 24 { at += 1 }
            guard at > begin, at < bytes.count, at - begin <= 24 else { return nil }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[begin..<at]), as: UTF8.self)
        }
        guard expect(Self.start), let n = token().flatMap({ Int($0) }), expect(Self.time),
              let t = token().flatMap({ Double($0) }), t.isFinite, expect(Self.full) else { return nil }
        if expect(Array("true".utf8)) {
            full = true
        } else if expect(Array("false".utf8)) {
            full = false
        } else {
            return nil
        }
        number = n
        time = t
    }
}
