internal import CJansson

/// JSON text that jansson wrote (with `json_dump_callback`) into memory this object owns, after
/// `headroom` bytes left free for a transport's header, such as libwebsockets' LWS_PRE.
public final class JSONText {
    /// Bytes before the text; they are the caller's to write.
    public let headroom: Int
    /// Length of the text in bytes (there is no NUL terminator).
    public let count: Int
    private let storage: UnsafeMutableRawPointer

    /// Dumps `json` (borrowed) with jansson `flags`; traps if jansson fails (out of memory, or a
    /// value it cannot write).
    init(dumping json: UnsafeMutablePointer<json_t>, flags: Int, headroom: Int) {
        var sink = Sink(headroom: headroom)
        let status = json_dump_callback(json, { chunk, size, sink in
            guard let chunk, let sink else { return -1 }
            sink.assumingMemoryBound(to: Sink.self).pointee.append(chunk, size)
            return 0
        }, &sink, flags)
        guard status == 0 else { fatalError("LayercastJSON: jansson could not write a value") }
        self.headroom = headroom
        count = sink.used - headroom
        storage = sink.storage
    }

    /// A copy of `text`, JSON written elsewhere (a frame relayed from another node), after
    /// `headroom` free bytes.
    public init(copying text: UnsafeRawBufferPointer, headroom: Int) {
        self.headroom = headroom
        count = text.count
        storage = .allocate(byteCount: headroom + max(text.count, 1), alignment: 16)
        if let base = text.baseAddress { (storage + headroom).copyMemory(from: base, byteCount: text.count) }
    }

    deinit { storage.deallocate() }

    /// Calls `body` with the text's bytes; the `headroom` bytes before them may be written too.
    public func withText<R>(_ body: (UnsafeMutableBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) {
            try body(UnsafeMutableBufferPointer(start: (storage + headroom).assumingMemoryBound(to: UInt8.self), count: count))
        }
    }

    /// The text as a `String`.
    public var string: String { withText { String(decoding: $0, as: UTF8.self) } }

    /// A growing buffer the dump callback appends to, starting after the headroom.
    private struct Sink {
        var storage: UnsafeMutableRawPointer
        var used: Int
        var capacity: Int

        init(headroom: Int) {
            capacity = headroom + 1024
            storage = .allocate(byteCount: capacity, alignment: 16)
            used = headroom
        }

        mutating func append(_ chunk: UnsafePointer<CChar>, _ size: Int) {
            if used + size > capacity {
                capacity = max(capacity * 2, used + size)
                let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
                grown.copyMemory(from: storage, byteCount: used)
                storage.deallocate()
                storage = grown
            }
            (storage + used).copyMemory(from: chunk, byteCount: size)
            used += size
        }
    }
}
