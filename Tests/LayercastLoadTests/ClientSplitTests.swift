@testable import LayercastLoad
import Testing

@Suite struct ClientSplitTests {
    @Test func everyClientInExactlyOnePartDealtInTurn() {
        let split = ClientSplit(clients: 10, parts: 3)
        #expect(split.indices(of: 0) == [0, 3, 6, 9])
        #expect(split.indices(of: 1) == [1, 4, 7])
        #expect(split.indices(of: 2) == [2, 5, 8])
        #expect((0..<3).flatMap(split.indices(of:)).sorted() == Array(0..<10))
    }

    @Test func onePartHoldsAllAndExtraPartsAreEmpty() {
        #expect(ClientSplit(clients: 4, parts: 1).indices(of: 0) == [0, 1, 2, 3])
        let wide = ClientSplit(clients: 2, parts: 4)
        #expect(wide.indices(of: 1) == [1])
        #expect(wide.indices(of: 3) == [])
        #expect(wide.indices(of: 4) == [])  // no such part
    }

    /// A worker's share is split again over its threads: the same rule on its own indices.
    @Test func aWorkersShareSplitOverItsThreads() {
        let share = ClientSplit(clients: 9, parts: 2).indices(of: 1)  // 1, 3, 5, 7
        let threads = ClientSplit(clients: share.count, parts: 2)
        #expect(threads.indices(of: 0).map { share[$0] } == [1, 5])
        #expect(threads.indices(of: 1).map { share[$0] } == [3, 7])
    }

    @Test func workersTakeTheAllowedCPUsInTurn() {
        #expect((0..<3).map { CPUAffinity.cpu(forWorker: $0, allowed: [2, 3]) } == [2, 3, 2])
        #expect(CPUAffinity.cpu(forWorker: 0, allowed: []) == nil)
    }
}
