import LayercastSceneAPI
import LayercastScenes
import Testing

/// The rain declares its own refusal codes (Rain/ErrorCode+Rain.swift); they keep the wire strings
/// they had in the shared list (ErrorCodeTests pins the shared ones), and none is a shared code.
@Suite struct RainErrorCodeTests {
    @Test func theRainsCodesKeepTheirWireStrings() {
        #expect(ErrorCode.rainRunning.rawValue == "rain_running")
        #expect(ErrorCode.noRain.rawValue == "no_rain")
        let shared = Set(ErrorCode.webSocket + ErrorCode.api + ErrorCode.request)
        #expect(shared.isDisjoint(with: [.rainRunning, .noRain]))
    }
}
