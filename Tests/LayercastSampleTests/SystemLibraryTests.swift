import CLibWebSockets
import Testing

/// The libwebsockets shim builds and exposes LWS_PRE, which Swift cannot import as a macro.
@Suite struct SystemLibraryTests {
    @Test func lwsPreMatchesTheHeader() {
        // lws-write.h: LWS_PRE = _LWS_PAD(4 + 10 + 2) = 16 rounded up to the 8-byte pad on 64-bit.
        #expect(layercast_lws_pre == 16)
    }
}
