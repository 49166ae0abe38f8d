import LayercastLoad
import Testing

@Suite struct FrameSequenceTests {
    @Test func consecutiveFramesHaveNoGaps() {
        var sequence = FrameSequence()
        for n in 40...49 { #expect(sequence.record(n) == 0) }
        #expect(sequence.received == 10)
        #expect(sequence.skipped == 0)
        #expect(sequence.last == 49)
    }

    @Test func gapsCountTheMissingNumbers() {
        var sequence = FrameSequence()
        sequence.record(7)
        #expect(sequence.record(8) == 0)
        #expect(sequence.record(11) == 2)  // 9 and 10 never came
        #expect(sequence.record(12) == 0)
        #expect(sequence.record(20) == 7)  // 13…19
        #expect(sequence.received == 5)
        #expect(sequence.skipped == 9)
    }

    @Test func ticksThatChangedNothingAreNotSkips() {
        // `sparse`: ticks 11…39 changed nothing and were not sent; the keepalive 40 applies from 10.
        var sequence = FrameSequence()
        sequence.record(10)
        #expect(sequence.record(40, base: 10) == 0)
        #expect(sequence.record(45, base: 40) == 0)
        #expect(sequence.record(60, base: 50) == 14, "a delta from past the newest frame: 46…59 missed")
        #expect(sequence.record(70) == 9, "a full frame: the ticks between")
        #expect(sequence.skipped == 23)
        #expect(sequence.received == 5)
    }

    @Test func repeatedOrOlderNumbersAreCountedApart() {
        var sequence = FrameSequence()
        sequence.record(5)
        #expect(sequence.record(5) == 0)
        #expect(sequence.record(3) == 0)
        #expect(sequence.outOfOrder == 2)
        #expect(sequence.last == 5)
        #expect(sequence.record(7) == 1)  // measured from the newest, 5
    }

    @Test func everyTenthFrameDroppedIsARatioOfOneTenth() {
        // What `layercast serve --drop-frames-every 10` does: frames 10, 20, … never arrive.
        var sequence = FrameSequence()
        for n in 1...100 where n % 10 != 0 { sequence.record(n) }
        #expect(sequence.received == 90)
        #expect(sequence.skipped == 9)  // 10…90; 100 is past the last frame received (99)
        // 9 / (90 + 9)
        #expect(FrameSequence.skipRatio(skipped: sequence.skipped, received: sequence.received) == 9.0 / 99.0)
    }

    @Test func ratioOfNothingIsZero() {
        #expect(FrameSequence.skipRatio(skipped: 0, received: 0) == 0)
        #expect(FrameSequence.skipRatio(skipped: 1, received: 3) == 0.25)
    }
}
