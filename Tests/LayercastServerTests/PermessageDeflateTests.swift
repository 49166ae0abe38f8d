import CZlib
import Testing
@testable import LayercastServer

@Suite struct PermessageDeflateTests {
    /// The bytes of a header written before a payload.
    func headerBytes(length: Int, compressed: Bool) -> [UInt8] {
        let header = FrameHeader(textLength: length, compressed: compressed)
        var buffer = [UInt8](repeating: 0, count: 10)
        buffer.withUnsafeMutableBufferPointer { header.write(before: $0.baseAddress! + 10) }
        return Array(buffer.suffix(header.count))
    }

    @Test func headersFollowRFC6455LengthForms() {
        #expect(headerBytes(length: 0, compressed: false) == [0x81, 0])
        #expect(headerBytes(length: 125, compressed: false) == [0x81, 125])
        #expect(headerBytes(length: 126, compressed: true) == [0xC1, 126, 0, 126])
        #expect(headerBytes(length: 65535, compressed: false) == [0x81, 126, 0xFF, 0xFF])
        #expect(headerBytes(length: 65536, compressed: false) == [0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0])
        #expect(headerBytes(length: 0x1_0203_0405, compressed: true) == [0xC1, 127, 0, 0, 0, 1, 2, 3, 4, 5])
    }

    /// Inflates a permessage-deflate payload as a receiver does (RFC 7692 §7.2.2): the payload,
    /// then 00 00 FF FF, into a fresh raw inflater.
    func inflated(_ payload: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard layercast_inflate_init(&stream, -15) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var input = payload + [0, 0, 0xFF, 0xFF]
        var output = [UInt8](repeating: 0, count: 1 << 20)
        let status = input.withUnsafeMutableBufferPointer { inp in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = inp.baseAddress
                stream.avail_in = uInt(inp.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return inflate(&stream, Z_SYNC_FLUSH)
            }
        }
        guard status == Z_OK, stream.avail_in == 0 else { return nil }
        return Array(output.prefix(Int(stream.total_out)))
    }

    @Test func eachMessageInflatesOnItsOwn() throws {
        let deflater = MessageDeflater()
        let first = Array(#"{"type":"frame","n":1,"t":0.033,"full":false,"set":[{"id":3,"m":[1,0,0,1,12.5,40]}]}"#.utf8)
        let second = Array(String(repeating: #"{"id":7,"o":0.5},"#, count: 200).utf8)
        let a = try #require(first.withUnsafeBytes { deflater.frame($0) })
        let b = try #require(second.withUnsafeBytes { deflater.frame($0) })
        // RSV1 and FIN set, text opcode; the second needs the 16-bit length form only if it is long.
        #expect(a[0] == 0xC1 && b[0] == 0xC1)
        #expect(Int(a[1]) == a.count - 2)
        // Each inflates with a fresh inflater: no message depends on the one before.
        #expect(inflated(Array(a.dropFirst(2))) == first)
        #expect(inflated(Array(b.dropFirst(b[1] == 126 ? 4 : 2))) == second)
        #expect(b.count < second.count / 10, "200 repeats of one item compress well: \(b.count) bytes")
        // The same text compresses to the same bytes every time (one frame for every client).
        #expect(second.withUnsafeBytes { deflater.frame($0) } == b)
    }

    @Test func evenATinyMessageIsCompressedButAnEmptyOneIsNot() throws {
        let deflater = MessageDeflater()
        let tiny = try #require(Array("{}".utf8).withUnsafeBytes { deflater.frame($0) })
        #expect(tiny[0] == 0xC1 && tiny.count > 2 + 2, "2 bytes of text take more compressed: \(tiny)")
        #expect(inflated(Array(tiny.dropFirst(2))) == Array("{}".utf8))
        #expect([UInt8]().withUnsafeBytes { deflater.frame($0) } == nil)
    }

    @Test func offersAreTakenUnlessTheyLimitTheServersWindow() {
        #expect(DeflateNegotiation.acceptsOffer("permessage-deflate; client_max_window_bits"))
        #expect(DeflateNegotiation.acceptsOffer("permessage-deflate"))
        #expect(DeflateNegotiation.acceptsOffer("x-webkit-deflate-frame, permessage-deflate; client_no_context_takeover"))
        #expect(!DeflateNegotiation.acceptsOffer("permessage-deflate; server_max_window_bits=10"))
        #expect(!DeflateNegotiation.acceptsOffer("permessage-deflate; server_max_window_bits=10, permessage-deflate"),
                "lws takes the first offer")
        #expect(!DeflateNegotiation.acceptsOffer("x-webkit-deflate-frame"))
    }

    @Test func answersAlwaysDeclareNoContextTakeover() {
        #expect(DeflateNegotiation.completedAnswer("Sec-WebSocket-Extensions: permessage-deflate")
            == "Sec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover; client_no_context_takeover")
        #expect(DeflateNegotiation.completedAnswer("Sec-WebSocket-Extensions: permessage-deflate; client_no_context_takeover")
            == "Sec-WebSocket-Extensions: permessage-deflate; client_no_context_takeover; server_no_context_takeover",
                "a parameter the offer named (and lws echoed) is not repeated")
        #expect(DeflateNegotiation.completedAnswer("Sec-WebSocket-Protocol: layercast.v1") == nil)
        #expect(DeflateNegotiation.completedAnswer("Sec-WebSocket-Extensions: x-other") == nil)
    }
}
