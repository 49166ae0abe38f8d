import Layercast
import Testing

// The types the scene API's public requirements name are reachable from `import Layercast` alone
// (issue 39): a controller's refused tap (`SceneController.admitTap` → `ProtocolError`) and an
// admin command's body (`AdminRequestBody.read` → `FieldReader`).

/// A rule as a controller's `admitTap` would write it.
private func refuseFastTaps(by player: String) -> ProtocolError? {
    ProtocolError(.rateLimited, "\(player) taps too fast")
}

@Test func aRefusedTapIsAProtocolErrorWithItsCode() {
    let refusal = refuseFastTaps(by: "p-1")
    #expect(refusal?.code == .rateLimited)
    #expect(refusal?.description == "rate_limited: p-1 taps too fast")
}

@Test func aCommandBodyIsReadAsFields() throws {
    let fields: FieldReader? = try AdminRequestBody.read(Array(#"{"speed":2}"#.utf8), path: "body", fields: ["speed"])
    #expect(try fields?.member("speed").number() == 2)
}
