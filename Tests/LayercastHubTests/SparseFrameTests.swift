import Foundation
@testable import LayercastHub
import LayercastJSON
import Testing

/// protocol.md, "frame" (`sparse`): a tick that changed nothing is sent to nobody, but as a
/// keepalive once a second; the next change goes as a delta from the last frame the client has.
/// The rain without rains (`rain-every 0`) is a still scene; the radar changes every tick.
@Suite struct SparseFrameTests {
    @Test func aStillRoomSendsAKeepaliveASecondAndNothingElse() throws {
        let h = HubHarness()
        let client = h.join(["scene": "rain", "role": "spectator"])
        let first = try #require(h.messages(client).of("frame").first)
        #expect(first["full"]?.boolValue == true)
        var frames: [JSONValue] = []
        for _ in 0..<(3 * h.hub.fps) {
            h.tick()
            frames += h.messages(client).of("frame")
        }
        // 3 s of ticks: one keepalive a second, each an empty delta from the full frame's number.
        #expect(frames.count == 3)
        let start = try #require(first["n"]?.intValue)
        for (index, frame) in frames.enumerated() {
            #expect(frame.objectValue?.keys.sorted() == ["b", "full", "n", "t", "type"], "\(frame)")
            #expect(frame["b"]?.intValue == start, "every tick since the full frame held its list")
            #expect(frame["n"]?.intValue == start + (index + 1) * h.hub.fps)
        }
        #expect(h.hub.metrics.fullFramesEncoded == 1)
    }

    @Test func aChangeAfterQuietTicksIsADeltaFromTheLastFrameSent() throws {
        let h = HubHarness()
        let watcher = h.join(["scene": "rain", "role": "spectator"])
        let full = try #require(h.messages(watcher).of("frame").first)
        h.tick(5)
        #expect(h.messages(watcher).of("frame").isEmpty, "5 still ticks: nothing")
        guard case .success = h.command("rain") else { Issue.record("no rain started"); return }
        var frames: [JSONValue] = []
        var ticks = 5
        while frames.count < 3, ticks < 5 + 10 * h.hub.fps {
            h.tick()
            ticks += 1
            frames += h.messages(watcher).of("frame")
        }
        let change = try #require(frames.first)
        #expect(change["full"]?.boolValue == false)
        #expect(change["b"]?.intValue == full["n"]?.intValue, "applies from the full frame the client holds")
        #expect((change["set"] ?? change["add"] ?? change["remove"]) != nil, "it carries the change")
        // The countdown changes its label once a second: each change applies from the one before.
        for (earlier, later) in zip(frames, frames.dropFirst()) {
            let n = try #require(later["n"]?.intValue)
            #expect((later["b"]?.intValue ?? n - 1) == earlier["n"]?.intValue)
            #expect(n - (earlier["n"]?.intValue ?? 0) == h.hub.fps, "one change a second")
        }
    }

    @Test func aRoomThatChangesEveryTickSendsEveryTickWithoutB() {
        let h = HubHarness()
        let client = h.join(["scene": "radar", "role": "spectator"])
        _ = h.messages(client)
        var frames: [JSONValue] = []
        for _ in 0..<10 {
            h.tick()
            frames += h.messages(client).of("frame")
        }
        #expect(frames.count == 10)
        #expect(frames.allSatisfy { $0["b"] == nil && $0["full"]?.boolValue == false })
    }

    @Test func aClientThatMissedAChangeGetsTheNewestInFull() throws {
        let h = HubHarness()
        let slow = h.join(["scene": "radar", "role": "spectator"])
        _ = h.messages(slow)
        h.tick(3)  // three changes, never read
        let frames = h.messages(slow).of("frame")
        #expect(frames.map { $0["full"]?.boolValue } == [true])
    }
}
