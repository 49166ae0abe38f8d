@testable import LayercastLoad
import Testing

@Suite struct ReadBudgetTests {
    @Test func aBudgetStartsFullWithAnEighthOfASecondOfItsRate() {
        let budget = ReadBudget(bytesPerSecond: 8192, at: 10)
        #expect(budget.capacity == 1024 && budget.balance == 1024 && budget.refilledAt == 10)
        #expect(budget.allowsReading)
    }

    @Test func aReadLargerThanWhatIsLeftIsADebtPaidBackBeforeTheNextRead() {
        var budget = ReadBudget(bytesPerSecond: 8192, at: 0)
        budget.spend(4096)  // one lws read of 4 KiB against 1 KiB left
        #expect(budget.balance == -3072 && !budget.allowsReading)
        budget.refill(at: 0.25)  // 2048 bytes accrue
        #expect(budget.balance == -1024 && !budget.allowsReading)
        budget.refill(at: 0.375)  // 1024 more: even, still not above 0
        #expect(budget.balance == 0 && !budget.allowsReading)
        budget.refill(at: 0.5)
        #expect(budget.balance == 1024 && budget.allowsReading)
    }

    @Test func aBudgetFillsNoFurtherThanItsCapacity() {
        var budget = ReadBudget(bytesPerSecond: 1000, at: 0)
        budget.spend(100)
        budget.refill(at: 60)
        #expect(budget.balance == 125 && budget.refilledAt == 60)
    }

    @Test func aRefillAtAnEarlierTimeAddsNothing() {
        var budget = ReadBudget(bytesPerSecond: 1000, at: 5)
        budget.spend(125)
        budget.refill(at: 4)
        #expect(budget.balance == 0 && budget.refilledAt == 5)
        budget.refill(at: 5.1)
        #expect(abs(budget.balance - 100) < 1e-9)
    }

    /// A reader that takes 4 KiB whenever it may, refilled every 10 ms as the load loop does: over
    /// 10 s it reads the rate's 81,920 bytes within the first burst plus one read.
    @Test func aGreedyReaderOnTheLoopTickReadsAtTheRate() {
        var budget = ReadBudget(bytesPerSecond: 8192, at: 0)
        var read = 0
        for tick in 0...1000 {
            budget.refill(at: Double(tick) * 0.01)
            if budget.allowsReading {
                budget.spend(4096)
                read += 4096
            }
        }
        #expect(read >= 81_920 - 4096 && read <= 81_920 + 1024 + 4096, "\(read)")
    }
}
