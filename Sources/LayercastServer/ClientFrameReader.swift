/// A client's WebSocket frames read from its raw bytes as RFC 6455 §5 has them, with the rules
/// a server enforces: every frame masked (§5.1), RSV bits only as negotiated (§5.2; RSV1 on the
/// first frame of a compressed message, RFC 7692 §6), no reserved opcode, control frames whole
/// and at most 125 bytes (§5.5), continuations only inside a message and no message inside
/// another (§5.4), 64-bit lengths below 2⁶³. Payloads are unmasked in place and handed on as
/// they arrive; a message is not gathered here. A broken rule ends the reading with a
/// `violation`; after it, or after a close frame, the rest of the stream is ignored.
struct ClientFrameReader {
    /// What the bytes said, in order.
    enum Event {
        /// Payload bytes of a data message, unmasked (still compressed when `compressed`): `first`
        /// on the message's first bytes, `last` on its last (the final frame's end). A message or
        /// a final frame with no payload gives an empty buffer.
        case data(UnsafeMutableRawBufferPointer, first: Bool, last: Bool, text: Bool, compressed: Bool)
        case ping([UInt8])
        case pong
        case close([UInt8])
        /// The connection must fail with `code` (1002); `reason` is the `/metrics` label.
        case violation(code: Int32, reason: String, message: String)
    }

    /// Whether permessage-deflate was negotiated (RSV1 may then mark a compressed message).
    let deflate: Bool

    private var header: [UInt8] = []
    private var headerNeeded = 2
    private var opcode: UInt8 = 0
    private var final = false
    private var mask: [UInt8] = [0, 0, 0, 0]
    private var maskIndex = 0
    private var remaining: UInt64 = 0
    private var inPayload = false
    private var control: [UInt8] = []
    /// The data message in progress: its kind, and whether its first bytes have been handed on.
    private var inMessage = false
    private var messageText = false
    private var messageCompressed = false
    private var messageStarted = false
    /// A violation or a close frame was read: nothing more is.
    private(set) var ended = false

    init(deflate: Bool) {
        self.deflate = deflate
        header.reserveCapacity(14)
    }

    /// Reads `bytes` (unmasking them in place), calling `handle` for each event.
    mutating func read(_ bytes: UnsafeMutableRawBufferPointer, _ handle: (Event) -> Void) {
        var at = 0
        while at < bytes.count, !ended {
            if inPayload {
                let take = Int(min(UInt64(bytes.count - at), remaining))
                let chunk = UnsafeMutableRawBufferPointer(rebasing: bytes[at..<(at + take)])
                unmask(chunk)
                at += take
                remaining -= UInt64(take)
                payload(chunk, frameEnds: remaining == 0, handle)
                continue
            }
            header.append(bytes[at])
            at += 1
            if header.count == 2, let problem = checkFirstBytes() {
                end(problem, handle)
            } else if header.count == headerNeeded {
                frameStarts(handle)
            }
        }
    }

    /// The header's first two bytes are in: their rules, and how long the header is.
    private mutating func checkFirstBytes() -> Event? {
        let first = header[0], second = header[1]
        opcode = first & 0x0F
        final = first & 0x80 != 0
        let isControl = opcode & 0x08 != 0
        if first & 0x30 != 0 { return Self.protocolError("rsv_bits", "RSV2 and RSV3 must be clear") }
        if first & 0x40 != 0, !deflate || isControl || opcode == 0 {
            return Self.protocolError("rsv_bits", "RSV1 marks only the first frame of a compressed message")
        }
        switch opcode {
        case 0x0: if !inMessage { return Self.protocolError("continuation", "a continuation frame with no message to continue") }
        case 0x1, 0x2: if inMessage { return Self.protocolError("continuation", "a new message inside an unfinished one") }
        case 0x8, 0x9, 0xA: break
        default: return Self.protocolError("opcode", "opcode \(opcode) is reserved")
        }
        if second & 0x80 == 0 { return Self.protocolError("unmasked", "client frames must be masked") }
        let length = second & 0x7F
        if isControl, !final || length > 125 {
            return Self.protocolError("control_frame", "a control frame must be one frame of at most 125 bytes")
        }
        headerNeeded = 2 + (length == 126 ? 2 : length == 127 ? 8 : 0) + 4
        return nil
    }

    /// The whole header is in: the frame's payload begins.
    private mutating func frameStarts(_ handle: (Event) -> Void) {
        let lengthBytes = headerNeeded - 6
        var length = UInt64(header[1] & 0x7F)
        if lengthBytes > 0 {
            length = header[2..<(2 + lengthBytes)].reduce(0) { $0 << 8 | UInt64($1) }
            if length >> 63 != 0 { return end(Self.protocolError("length", "a frame length must be below 2^63"), handle) }
        }
        let key = header.count - 4
        for index in 0..<4 { mask[index] = header[key + index] }
        maskIndex = 0
        remaining = length
        if opcode == 0x1 || opcode == 0x2 {
            inMessage = true
            messageText = opcode == 0x1
            messageCompressed = header[0] & 0x40 != 0
            messageStarted = false
        }
        header.removeAll(keepingCapacity: true)
        headerNeeded = 2
        inPayload = true
        control.removeAll(keepingCapacity: true)
        if length == 0 { payload(UnsafeMutableRawBufferPointer(start: nil, count: 0), frameEnds: true, handle) }
    }

    /// Payload bytes of the current frame, unmasked; `frameEnds` with its last.
    private mutating func payload(_ chunk: UnsafeMutableRawBufferPointer, frameEnds: Bool, _ handle: (Event) -> Void) {
        if frameEnds { inPayload = false }
        guard opcode & 0x08 != 0 else {
            let last = frameEnds && final
            if chunk.isEmpty, !last, messageStarted { return }
            handle(.data(chunk, first: !messageStarted, last: last, text: messageText, compressed: messageCompressed))
            messageStarted = true
            if last { inMessage = false }
            return
        }
        control.append(contentsOf: chunk)
        guard frameEnds else { return }
        switch opcode {
        case 0x8:
            ended = true
            handle(.close(control))
        case 0x9: handle(.ping(control))
        default: handle(.pong)
        }
    }

    private mutating func unmask(_ chunk: UnsafeMutableRawBufferPointer) {
        var index = maskIndex
        for offset in chunk.indices {
            chunk[offset] ^= mask[index]
            index = (index + 1) & 3
        }
        maskIndex = index
    }

    private mutating func end(_ violation: Event, _ handle: (Event) -> Void) {
        ended = true
        handle(violation)
    }

    private static func protocolError(_ reason: String, _ message: String) -> Event {
        .violation(code: 1002, reason: reason, message: message)
    }
}
