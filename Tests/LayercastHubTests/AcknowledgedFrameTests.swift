@testable import LayercastHub
import LayercastJSON
import LayercastWire
import Testing

/// protocol.md, "Acknowledged frames": a client that sends `ack` has at most its window of
/// frames in flight; frames wait while it is full, and the client is then sent the newest frame
/// as a delta from the last one it was sent.
@Suite struct AcknowledgedFrameTests {
    @Test func framesWaitForAcknowledgementsThenComeAsADeltaFromTheLastSent() throws {
        let h = HubHarness()
        let client = h.join(["scene": "radar", "role": "spectator"])
        let full = try #require(h.messages(client).of("frame").first)
        h.send(client, #"{"type":"ack","n":\#(full["n"]?.intValue ?? -1)}"#)
        var frames: [JSONValue] = []
        for _ in 0..<6 {
            h.tick()
            frames += h.messages(client).of("frame")
        }
        #expect(frames.count == AckWindow.minimum, "the radar changes every tick, but only the window goes out")
        let last = try #require(frames.last?["n"]?.intValue)
        h.send(client, #"{"type":"ack","n":\#(last)}"#)
        let caughtUp = try #require(h.messages(client).of("frame").first)
        #expect(caughtUp["full"]?.boolValue == false)
        #expect(caughtUp["b"]?.intValue == last, "a delta from the last frame it was sent")
        #expect(caughtUp["n"]?.intValue == last + 4)

        // Applied to the list it holds, it gives the newest list, as a new client gets it in full.
        var list = try DisplayList(fullFrame: full)
        for frame in frames + [caughtUp] { list = try FrameDelta(deltaFrame: frame).applied(to: list) }
        let newcomer = h.join(["scene": "radar", "role": "spectator"])
        let newest = try #require(h.messages(newcomer).of("frame").first)
        #expect(newest["n"] == caughtUp["n"])
        #expect(list == (try DisplayList(fullFrame: newest)))
    }

    /// Particle records (protocol.md, "Particles") through acknowledged catch-up deltas: a delta
    /// from the last frame sent carries the records appended and dropped since, and the list it
    /// gives holds the live records a newcomer's full frame holds.
    @Test func snowRecordsCatchUpFromTheLastFrameSent() throws {
        let h = HubHarness()
        let client = h.join(["scene": "snow", "role": "spectator"])
        var list = try DisplayList(fullFrame: try #require(h.messages(client).of("frame").first))
        var appended = 0
        func follow(_ frames: [JSONValue]) throws {
            for frame in frames {
                let delta = try FrameDelta(deltaFrame: frame)
                appended += delta.set.compactMap(\.births).reduce(0) { $0 + $1.append.count }
                list = delta.applied(to: list)
                h.send(client, #"{"type":"ack","n":\#(frame["n"]?.intValue ?? -1)}"#)
            }
        }
        for _ in 0..<90 {
            h.tick()
            try follow(h.messages(client).of("frame"))
        }
        // Hold the acknowledgements back for 20 ticks, then take the catch-up delta.
        var held: [JSONValue] = []
        for _ in 0..<20 {
            h.tick()
            held += h.messages(client).of("frame")
        }
        try follow(held)
        // Each acknowledgement may release the newest frame: take them until none comes.
        for _ in 0..<10 {
            let more = h.messages(client).of("frame")
            if more.isEmpty { break }
            try follow(more)
        }
        let newcomer = h.join(["scene": "snow", "role": "spectator"])
        let newest = try DisplayList(fullFrame: try #require(h.messages(newcomer).of("frame").first))
        #expect(appended > 5, "flakes fell into view")
        #expect(list.items.contains { !$0.births.records.isEmpty })
        // Ticks that only saw records die naturally send nothing (`sparse`): the client's list is
        // the newest once it drops what died by then, as a keepalive at that `t` would make it.
        #expect(list.time <= newest.time)
        #expect(FrameDelta(time: newest.time).applied(to: list) == newest)
    }

    @Test func aClientThatNeverAcknowledgesIsSentEveryTick() {
        let h = HubHarness()
        let client = h.join(["scene": "radar", "role": "spectator"])
        _ = h.messages(client)
        var count = 0
        for _ in 0..<6 {
            h.tick()
            count += h.messages(client).of("frame").count
        }
        #expect(count == 6)
    }

    @Test func anAckOfAFrameNeverSentIsRefusedAndChangesNothing() throws {
        let h = HubHarness()
        let client = h.join(["scene": "radar", "role": "spectator"])
        _ = h.messages(client)
        h.send(client, #"{"type":"ack","n":99}"#)
        let error = try #require(h.messages(client).of("error").first)
        #expect(error["code"]?.stringValue == "bad_field")
        for text in [#"{"type":"ack","n":-1}"#, #"{"type":"ack","n":1.5}"#, #"{"type":"ack"}"#, #"{"type":"ack","n":"1"}"#] {
            h.send(client, text)
            #expect(h.messages(client).of("error").map { $0["code"]?.stringValue } == ["bad_field"], "\(text)")
        }
        // Still an ordinary client: a frame every tick.
        h.tick(2)
        #expect(h.messages(client).of("frame").count == 1, "the newest of two ticks, read at once")
    }
}
