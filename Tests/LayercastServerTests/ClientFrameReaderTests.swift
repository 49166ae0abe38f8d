import Foundation
import Testing
@testable import LayercastServer

/// `ClientFrameReader` on frames built here as RFC 6455 §5.2 lays them out, fed whole and one byte
/// at a time; and `MessageInflater` on what zlib's own deflate makes.
@Suite struct ClientFrameReaderTests {
    /// What the reader said, with payloads copied out.
    enum Said: Equatable {
        case data([UInt8], first: Bool, last: Bool, text: Bool, compressed: Bool)
        case ping([UInt8]), pong, close([UInt8]), violation(Int32, String)
    }

    /// A masked client frame: FIN, RSV bits (0x40 = RSV1), opcode, payload.
    static func frame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, rsv: UInt8 = 0, masked: Bool = true,
                      key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | rsv | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        switch payload.count {
        case ..<126: bytes.append(maskBit | UInt8(payload.count))
        case ..<65536: bytes += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: bytes += [maskBit | 127] + (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        guard masked else { return bytes + payload }
        return bytes + key + payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
    }

    func read(_ stream: [UInt8], deflate: Bool = false, byteByByte: Bool = false) -> [Said] {
        var reader = ClientFrameReader(deflate: deflate)
        var said: [Said] = []
        var bytes = stream
        bytes.withUnsafeMutableBytes { all in
            let pieces = byteByByte ? all.indices.map { $0..<($0 + 1) } : [all.indices]
            for piece in pieces {
                reader.read(UnsafeMutableRawBufferPointer(rebasing: all[piece])) { event in
                    switch event {
                    case .data(let chunk, let first, let last, let text, let compressed):
                        said.append(.data(Array(chunk), first: first, last: last, text: text, compressed: compressed))
                    case .ping(let payload): said.append(.ping(payload))
                    case .pong: said.append(.pong)
                    case .close(let payload): said.append(.close(payload))
                    case .violation(let code, let reason, _): said.append(.violation(code, reason))
                    }
                }
            }
        }
        return said
    }

    /// Data events merged per message, as the hub would gather them: (bytes, text).
    func messages(_ said: [Said]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for case .data(let bytes, let first, _, _, _) in said {
            if first { out.append([]) }
            out[out.count - 1] += bytes
        }
        return out
    }

    @Test func rfcExampleMaskedHelloIsUnmasked() {
        // RFC 6455 §5.7: a single-frame masked text message "Hello".
        let said = read([0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
        #expect(said == [.data(Array("Hello".utf8), first: true, last: true, text: true, compressed: false)])
    }

    @Test func lengthsOf7_16And64BitsAreRead() {
        for size in [0, 125, 126, 65535, 65536] {
            let payload = (0..<size).map { UInt8($0 % 251) }
            #expect(messages(read(Self.frame(0x1, payload))) == [payload], "\(size) bytes")
        }
    }

    @Test func fragmentsInterleavedWithControlFramesMakeOneMessage() {
        let stream = Self.frame(0x1, Array("Hel".utf8), fin: false) + Self.frame(0x9, [1, 2])
            + Self.frame(0x0, Array("lo".utf8), fin: false) + Self.frame(0xA, []) + Self.frame(0x0, [])
        for byteByByte in [false, true] {
            let said = read(stream, byteByByte: byteByByte)
            #expect(messages(said) == [Array("Hello".utf8)])
            #expect(said.contains(.ping([1, 2])) && said.contains(.pong))
            #expect(said.last == .data([], first: false, last: true, text: true, compressed: false))
        }
    }

    @Test func aBurstOfPingsIsReadPingByPing() {
        let stream = (0..<10).flatMap { Self.frame(0x9, Array("ping \($0)".utf8)) }
        #expect(read(stream) == (0..<10).map { .ping(Array("ping \($0)".utf8)) })
    }

    @Test func aCloseEndsTheReading() {
        let stream = Self.frame(0x8, [0x03, 0xE8, 0x62]) + Self.frame(0x1, Array("late".utf8))
        #expect(read(stream) == [.close([0x03, 0xE8, 0x62])])
    }

    @Test(arguments: [
        ("unmasked", frame(0x1, [0x41], masked: false), "unmasked"),
        ("RSV2", frame(0x1, [0x41], rsv: 0x20), "rsv_bits"),
        ("RSV3", frame(0x1, [0x41], rsv: 0x10), "rsv_bits"),
        ("RSV1 without deflate", frame(0x1, [0x41], rsv: 0x40), "rsv_bits"),
        ("reserved data opcode 3", frame(0x3, []), "opcode"),
        ("reserved control opcode B", frame(0xB, []), "opcode"),
        ("fragmented ping", frame(0x9, [], fin: false), "control_frame"),
        ("ping of 126 bytes", frame(0x9, [UInt8](repeating: 0, count: 126)), "control_frame"),
        ("continuation of nothing", frame(0x0, [0x41]), "continuation"),
        ("text inside a text", frame(0x1, [0x41], fin: false) + frame(0x1, [0x42]), "continuation"),
        ("64-bit length with its top bit", [0x81, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0], "length"),
    ] as [(String, [UInt8], String)])
    func aBrokenRuleFailsWith1002AndEndsTheReading(_ name: String, _ stream: [UInt8], _ reason: String) {
        let said = read(stream + Self.frame(0x9, [7]))
        #expect(said.last == .violation(1002, reason), "\(name)")
        #expect(!said.contains(.ping([7])), "\(name): read on after the violation")
    }

    @Test func rsv1MarksACompressedMessageOnlyWithDeflate() {
        let stream = Self.frame(0x1, [1, 2], fin: false, rsv: 0x40) + Self.frame(0x0, [3])
        #expect(read(stream, deflate: true) == [.data([1, 2], first: true, last: false, text: true, compressed: true),
                                                 .data([3], first: false, last: true, text: true, compressed: true)])
        #expect(read(Self.frame(0x0, [3], rsv: 0x40), deflate: true).last == .violation(1002, "rsv_bits"))
    }

    // MARK: MessageInflater

    /// `text` as permessage-deflate sends it: raw DEFLATE, flushed, its 00 00 FF FF taken off.
    static func deflated(_ text: [UInt8], level: Int32 = 6) -> [UInt8] {
        MessageDeflater(level: level).frame(text.withUnsafeBytes { $0 }).map { frame in
            let headerLength = frame[1] & 0x7F == 126 ? 4 : frame[1] & 0x7F == 127 ? 10 : 2
            return Array(frame[headerLength...])
        } ?? []
    }

    func inflate(_ inflater: MessageInflater, _ pieces: [[UInt8]]) -> [UInt8]? {
        var out: [UInt8] = []
        for (index, piece) in pieces.enumerated() {
            let ok = piece.withUnsafeBytes { inflater.inflate($0, last: index == pieces.count - 1) { out += $0 } }
            if !ok { return nil }
        }
        return out
    }

    @Test func inflatesWhatDeflateMadeInAnyPieces() {
        let text = Array(String(repeating: #"{"type":"tap","x":207.5,"y":368,"viewTime":12.3,"id":41}"#, count: 20).utf8)
        let compressed = Self.deflated(text)
        let inflater = MessageInflater(limit: 4096)
        #expect(inflate(inflater, [compressed]) == text)
        #expect(inflate(inflater, compressed.map { [$0] }) == text, "one byte at a time, the same inflater again")
    }

    @Test func stopsMakingOutputPastTheLimitAndStartsAfreshAfterIt() {
        let big = [UInt8](repeating: 0x61, count: 100_000)
        let inflater = MessageInflater(limit: 4096)
        let out = inflate(inflater, [Self.deflated(big)])
        // It stops once past the limit, having made at most one more piece of its 16 KiB output buffer.
        #expect(out != nil && out!.count > 4096 && out!.count <= 4096 + 16 * 1024)
        let small = Array(#"{"type":"ping","id":1}"#.utf8)
        #expect(inflate(inflater, [Self.deflated(small)]) == small)
    }

    @Test func bytesThatAreNotDeflateFail() {
        #expect(inflate(MessageInflater(limit: 4096), [[0xFF, 0xFF, 0xFF, 0xFF]]) == nil)
    }
}
