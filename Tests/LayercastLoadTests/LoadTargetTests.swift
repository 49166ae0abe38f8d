import LayercastLoad
import Testing

@Suite struct LoadTargetTests {
    @Test func loopbackURLsAreAccepted() throws {
        #expect(try LoadTarget(url: "ws://127.0.0.1:8080") == LoadTarget(url: "ws://127.0.0.1:8080/ws?scene=radar"))
        let target = try LoadTarget(url: "http://localhost:9000/")
        #expect(target.host == "localhost")
        #expect(target.port == 9000)
        #expect(try LoadTarget(url: "ws://[::1]:81").host == "::1")
        #expect(try LoadTarget(url: "ws://127.1.2.3").port == 80)
    }

    @Test(arguments: ["ws://10.0.0.5:8080", "ws://example.com", "ws://128.0.0.1:80", "ws://127.0.0.1.evil.com:80", "ws://[::2]:80"])
    func otherHostsAreRefused(url: String) {
        #expect(throws: LoadError.self) { try LoadTarget(url: url) }
    }

    @Test func aNamedRemoteHostIsAllowedExactly() throws {
        #expect(try LoadTarget(url: "ws://10.0.0.5:8080", allowedRemote: ["10.0.0.5"]).host == "10.0.0.5")
        #expect(throws: LoadError.self) { try LoadTarget(url: "ws://10.0.0.6:8080", allowedRemote: ["10.0.0.5"]) }
    }

    @Test(arguments: ["wss://127.0.0.1", "127.0.0.1:8080", "ws://127.0.0.1:0", "ws://127.0.0.1:70000", "ws://:80", "ws://user@127.0.0.1"])
    func malformedURLsAreRefused(url: String) {
        #expect(throws: LoadError.self) { try LoadTarget(url: url) }
    }
}
