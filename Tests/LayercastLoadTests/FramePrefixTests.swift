import LayercastJSON
import LayercastWire
import Testing
@testable import LayercastLoad

@Suite struct FramePrefixTests {
    func prefix(_ text: String) -> FramePrefix? {
        Array(text.utf8).withUnsafeBytes { FramePrefix($0) }
    }

    @Test func readsTheServersFramesWithoutParsingThem() {
        // What the server's encoder writes (protocol.md's radar example).
        let encoder = FrameEncoder()
        let full = encoder.full(DisplayList(items: []), number: 96, time: 3.189298).text(headroom: 0).string
        #expect(prefix(full) == FramePrefix(number: 96, time: 3.189298, full: true))
        let delta = encoder.delta(FrameDelta.from(DisplayList(), to: DisplayList()), number: 97, time: 3.2).text(headroom: 0).string
        #expect(prefix(delta) == FramePrefix(number: 97, time: 3.2, full: false))
        #expect(prefix(#"{"type":"frame","n":96,"t":3.189298,"full":true,"items":[]}"#).map { [$0.number, Int($0.time * 1e6), $0.full ? 1 : 0] }
            == [96, 3_189_298, 1])
        #expect(prefix(#"{"type":"frame","n":0,"t":0,"full":false,"set":[]}"#) == FramePrefix(number: 0, time: 0, full: false))
        #expect(prefix(#"{"type":"frame","n":12,"t":1e3,"full":false}"#)?.time == 1000)
    }

    @Test func readsADeltasFirstFrame() {
        let encoder = FrameEncoder()
        let keepalive = encoder.delta(FrameDelta(), number: 130, time: 4.3, base: 97).text(headroom: 0).string
        #expect(keepalive == #"{"type":"frame","n":130,"t":4.3,"full":false,"b":97}"#)
        #expect(prefix(keepalive) == FramePrefix(number: 130, time: 4.3, full: false, base: 97))
        #expect(prefix(#"{"type":"frame","n":130,"t":4.3,"full":false,"b":97,"set":[]}"#)?.base == 97)
        #expect(prefix(#"{"type":"frame","n":130,"t":4.3,"full":false,"set":[]}"#)?.base == 129, "no b: n - 1")
        #expect(prefix(#"{"type":"frame","n":130,"t":4.3,"full":true,"items":[]}"#)?.base == nil)
        for text in [#"{"type":"frame","n":130,"t":4.3,"full":false,"b":130}"#, #"{"type":"frame","n":130,"t":4.3,"full":false,"b":-1}"#,
                     #"{"type":"frame","n":130,"t":4.3,"full":false,"b":1.5}"#] {
            #expect(prefix(text) == nil, "\(text): a b that is not a frame below n is left to the parser")
        }
    }

    @Test func anythingElseIsLeftToTheParser() {
        for text in [#"{"type":"welcome","n":1}"#, #"{"n":1,"type":"frame","t":0,"full":true}"#,
                     #"{"type":"frame","n":1.5,"t":0,"full":true}"#, #"{"type":"frame","n":1,"t":nan,"full":true}"#,
                     #"{"type":"frame","n":1,"t":0,"full":yes}"#, #"{"type":"frame","n":1,"t":0"#,
                     #"{"type":"frame","n":"#, "", #"{"type":"frame","n":123456789012345678901234567890,"t":0,"full":true}"#] {
            #expect(prefix(text) == nil, "\(text)")
        }
    }
}
