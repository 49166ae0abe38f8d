import LayercastPlatform
import Testing

/// `EventTimer` on a bare `EventLoop` (no lws context): what lws 4.1's libev timer got wrong.
@Suite struct EventTimerTests {
    @Test func aSoonerTimerFiresBeforeALaterOneArmedFirst() throws {
        let loop = try #require(EventLoop())
        var fired: [String] = []
        let later = EventTimer(on: loop) { fired.append("later") }
        let sooner = EventTimer(on: loop) { fired.append("sooner") }
        later.schedule(after: 0.2)
        sooner.schedule(after: 0.002)
        loop.turn()
        #expect(fired == ["sooner"])
        loop.turn()
        #expect(fired == ["sooner", "later"])
    }

    @Test func schedulingAgainReplacesTheEarlierSchedule() throws {
        let loop = try #require(EventLoop())
        var fired: [String] = []
        let timer = EventTimer(on: loop) { fired.append("timer") }
        let last = EventTimer(on: loop) { fired.append("last") }
        timer.schedule(after: 0.001)
        timer.schedule(after: 0.003)
        last.schedule(after: 0.1)
        loop.turn()
        loop.turn()
        #expect(fired == ["timer", "last"])
    }

    @Test func aCancelledTimerDoesNotFire() throws {
        let loop = try #require(EventLoop())
        var fired: [String] = []
        let cancelled = EventTimer(on: loop) { fired.append("cancelled") }
        let other = EventTimer(on: loop) { fired.append("other") }
        cancelled.schedule(after: 0.001)
        other.schedule(after: 0.02)
        cancelled.cancel()
        loop.turn()
        #expect(fired == ["other"])
    }
}
