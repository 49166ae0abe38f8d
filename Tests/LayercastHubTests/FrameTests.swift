@testable import LayercastHub
import LayercastJSON
import Testing

/// Frames through the hub: numbered one per tick, deltas only to a client that has the frame
/// before, a slow client skipping to the newest, and a stalled one dropped.
@Suite struct FrameTests {
    @Test func aClientReadingEveryTickGetsDeltasInOrder() throws {
        let h = HubHarness()
        let client = h.join(["scene": "radar", "role": "spectator"])
        var frames = h.messages(client).of("frame")
        for _ in 0..<20 {
            h.tick()
            #expect(h.transport.awake == [client])  // each tick wakes the room's clients
            frames += h.messages(client).of("frame")
        }
        #expect(frames.map { $0["n"]?.intValue } == Array(0...20))
        #expect(frames.map { $0["full"]?.boolValue } == [true] + Array(repeating: false, count: 20))
        #expect(h.hub.metrics.fullFramesEncoded == 1)
    }

    @Test func theTickWritesAClientThatTakesAMessageAtOnceAndWakesOnlyTheOthers() throws {
        let h = HubHarness()
        let atOnce = h.join(["scene": "radar", "role": "spectator"])
        let other = h.join(["scene": "radar", "role": "spectator"])
        _ = h.read(atOnce)
        _ = h.read(other)
        h.transport.takesAtOnce = [atOnce]
        for tick in 1...3 {
            h.tick()
            #expect(h.transport.awake == [other])  // the tick wrote `atOnce` itself
            let written = h.messages(atOnce).of("frame")
            #expect(written.map { $0["n"]?.intValue } == [tick])
            #expect(written.map { $0["full"]?.boolValue } == [false])  // it had the frame before: a delta
            #expect(h.messages(other).of("frame").map { $0["n"]?.intValue } == [tick])
        }
        // Once it cannot take a message at once, it is woken like the others and misses nothing.
        h.transport.takesAtOnce = []
        h.tick()
        #expect(h.transport.awake == [atOnce, other])
        #expect(h.messages(atOnce).of("frame").map { $0["n"]?.intValue } == [4])
    }

    @Test func aSlowClientSkipsToTheNewestFrameInFull() throws {
        let h = HubHarness()
        let fast = h.join(["scene": "radar", "role": "spectator"])
        let slow = h.join(["scene": "radar", "role": "spectator"])
        _ = h.read(fast)
        _ = h.read(slow)
        var received: [(n: Int, full: Bool)] = []
        for tick in 1...30 {
            h.tick()
            _ = h.read(fast)
            if tick % 7 == 0 {  // the slow one takes a message every seventh tick only
                received += h.messages(slow).of("frame").map { ($0["n"]!.intValue!, $0["full"]!.boolValue!) }
            }
        }
        #expect(received.map(\.n) == [7, 14, 21, 28])
        #expect(received.allSatisfy { $0.full })
        #expect(h.hub.metrics.framesSkipped == 4 * 6)  // four reads, each past the six frames since the last
        // Never a delta that does not apply: a delta's frame follows the one before it.
        h.tick()
        #expect(h.messages(slow).of("frame").map { $0["full"]?.boolValue } == [true])
        h.tick()
        #expect(h.messages(slow).of("frame").map { $0["full"]?.boolValue } == [false])
    }

    @Test func aStalledClientIsDroppedAndTheOthersKeepTheirFrames() throws {
        let h = HubHarness { $0.stallTimeoutSeconds = 1 }
        let stalled = h.join(["scene": "radar", "role": "spectator"])
        let reader = h.join(["scene": "radar", "role": "spectator"])
        _ = h.read(stalled)
        for _ in 0..<40 {
            h.tick()
            _ = h.read(reader)
        }
        #expect(h.transport.dropped == [stalled])
        #expect(h.hub.metrics.clientsDropped["stalled"] == 1)
        h.tick()
        #expect(h.messages(reader).of("frame").count == 1)
        #expect(h.read(stalled).isEmpty)
    }

    @Test func anEmptyRoomClosesAfterItsIdleTime() throws {
        let h = HubHarness { $0.roomIdleSeconds = 1 }
        let client = h.join(["scene": "cubes", "role": "spectator"])
        h.hub.disconnect(client)
        h.tick(20)
        #expect(h.hub.localRoomsDocument()["rooms"]?.arrayValue?.count == 1)
        h.tick(20)
        #expect(h.hub.localRoomsDocument()["rooms"]?.arrayValue?.isEmpty == true)
    }
}
