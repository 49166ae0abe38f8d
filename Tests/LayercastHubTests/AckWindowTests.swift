@testable import LayercastHub
import Testing

/// The window of frames in flight to a client that acknowledges them: two at first, one more
/// for each window of acknowledgements that came back as fast as the fastest, halved for each
/// that comes late.
@Suite struct AckWindowTests {
    let tick = 1.0 / 30

    @Test func twoFramesFirstThenClosed() {
        var window = AckWindow(framesPerSecond: 30, tick: tick)
        #expect(window.isOpen)
        window.sent(1, at: 0)
        window.sent(2, at: tick)
        #expect(!window.isOpen)
        window.acknowledged(1, at: 0.05)
        #expect(window.inFlight.map(\.number) == [2])
        #expect(window.fastest == 0.05)
        #expect(window.isOpen)
    }

    @Test func aFastFarLinkGrowsToARoundTripOfFrames() {
        // 150 ms each way and back, no queue: every frame is acknowledged 0.15 s after it was written.
        var window = AckWindow(framesPerSecond: 30, tick: tick)
        var next = 1, time = 0.0
        var written: [(Int, Double)] = []
        var lastSecond = 0
        for step in 0..<90 {  // 3 s
            if window.isOpen {  // one frame a tick
                window.sent(next, at: time)
                written.append((next, time))
                next += 1
                if step >= 60 { lastSecond += 1 }
            }
            while let first = written.first, time - first.1 >= 0.15 - 1e-9 {
                window.acknowledged(first.0, at: time)
                written.removeFirst()
            }
            time += tick
        }
        #expect(window.size >= 6, "a round trip of 0.15 s holds 5 ticks of frames; the window is \(window.size)")
        #expect(lastSecond == 30, "by the third second every tick writes a frame: \(lastSecond)")
    }

    @Test func aLateAcknowledgementHalvesTheWindowButNotBelowTwo() {
        var window = AckWindow(framesPerSecond: 30, tick: tick)
        for n in 1...9 {
            window.sent(n, at: Double(n) * tick)
            window.acknowledged(n, at: Double(n) * tick + 0.02)
        }
        #expect(window.size == 5, "2 fast acks grow it to 3, 3 more to 4, 4 more to 5")
        window.sent(10, at: 1)
        window.acknowledged(10, at: 2)  // a second late: frames queue somewhere
        #expect(window.size == 2)
        window.sent(11, at: 3)
        window.acknowledged(11, at: 4)
        #expect(window.size == AckWindow.minimum)
    }

    @Test func anAckOfAnOlderOrUnknownFrameChangesNothing() {
        var window = AckWindow(framesPerSecond: 30, tick: tick)
        window.sent(10, at: 0)
        window.acknowledged(9, at: 0.01)
        #expect(window.inFlight.map(\.number) == [10])
        #expect(window.fastest == .infinity)
        window.acknowledged(12, at: 0.02)  // covers 10 and anything before it
        #expect(window.inFlight.isEmpty)
        window.reset()
        #expect(window.inFlight.isEmpty && window.size == 2)
    }

    @Test func theWindowStopsAtASecondOfFrames() {
        var window = AckWindow(framesPerSecond: 5, tick: 0.2)
        for n in 1...20 {
            window.sent(n, at: Double(n))
            window.acknowledged(n, at: Double(n) + 0.01)
        }
        #expect(window.size == 5)
    }
}
