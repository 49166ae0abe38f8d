import Foundation
import Synchronization
import Testing
@testable import LayercastLedger

/// `LedgerThread` on a real thread around a memory ledger, its first call made slow by the test
/// (it waits for a semaphore): answers come by the deadline, a full queue and a stalled ledger
/// refuse at once, a call that finishes late runs its `abandoned` step (again before the next call
/// until it is done), and order is kept.
@Suite struct LedgerThreadTests {
    @Test func aStalledCallIsAnsweredAtItsDeadlineAndNewCallsAreRefusedUntilItEnds() {
        let gate = DispatchSemaphore(value: 0)
        let abandoned = Abandoned()
        let thread = LedgerThread(MemoryLedger(), capacity: 1) {}
        defer { thread.stop(waiting: 5) }
        var answers: [String] = []
        thread.submit("slow", deadline: 10, { ledger throws(LedgerError) -> Int in
            gate.wait()
            return try ledger.totalCoins(player: "p")
        }, abandoned: { _, value in abandoned.values.withLock { $0.append(value); return $0.count == 2 } }) { answers.append("slow: \($0)") }
        waitUntil { thread.runningOperation == "slow" }
        thread.submit("queued", deadline: 10, { _ throws(LedgerError) in 7 }) { answers.append("queued: \($0)") }
        thread.submit("refused", deadline: 10, { _ throws(LedgerError) in 8 }) { answers.append("refused: \($0)") }
        #expect(answers == ["refused: failure(io: the ledger is unavailable: 1 calls are waiting)"])

        #expect(thread.deliver(now: 9.9).isEmpty)
        let outcomes = thread.deliver(now: 10)
        #expect(outcomes.map(\.operation) == ["slow", "queued"] && outcomes.allSatisfy(\.timedOut))
        #expect(answers.dropFirst() == ["slow: failure(io: the ledger is unavailable: no answer within the deadline)",
                                        "queued: failure(io: the ledger is unavailable: no answer within the deadline)"])
        #expect(thread.degradedReason == "a ledger call (slow) has run past its deadline")
        thread.submit("stalled", deadline: 20, { _ throws(LedgerError) in 9 }) { answers.append("stalled: \($0)") }
        #expect(answers.last == "stalled: failure(io: the ledger is unavailable: a ledger call (slow) has run past its deadline)")

        gate.signal()
        waitUntil { abandoned.values.withLock { $0 } == [0] }
        #expect(abandoned.values.withLock { $0 } == [0])  // not done: tried again before the next call
        thread.submit("after", deadline: 30, { _ throws(LedgerError) in 10 }) { answers.append("after: \($0)") }
        waitUntil {
            thread.deliver(now: 20)
            return answers.last == "after: success(10)"
        }
        #expect(thread.degradedReason == nil && thread.pending == 0)
        #expect(abandoned.values.withLock { $0 } == [0, 0])
    }

    @Test func anInlineThreadAnswersAtOnceOnTheCallersThread() throws {
        let thread = LedgerThread(inline: MemoryLedger())
        var answer: Result<Int, LedgerError>?
        thread.submit("read", deadline: 0, { ledger throws(LedgerError) in try ledger.totalCoins(player: "p") }) { answer = $0 }
        #expect(try answer?.get() == 0)
    }

    /// Polls `condition` every millisecond for at most 5 s.
    private func waitUntil(_ condition: () -> Bool) {
        let end = Date(timeIntervalSinceNow: 5)
        while !condition(), Date() < end { usleep(1000) }
    }

    private final class Abandoned: Sendable {
        let values = Mutex<[Int]>([])
    }
}
