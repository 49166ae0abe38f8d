import Foundation
import Testing
@testable import LayercastLedger

/// Locks keep a sole writer alone on its ledger: each ledger opened here is a separate
/// connection (SQLite: a separate lock file description), as a second process's would be.
@Suite struct LedgerLockTests {
    @Test(arguments: LedgerKind.shared) func aSoleWriterExcludesEveryOtherLock(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let first = try location.open()
            try first.lock(.soleWriter)
            for role in [LedgerRole.soleWriter, .clusterNode] {
                let other = try location.open()
                let error = try #require(throws: LedgerError.self) { try other.lock(role) }
                #expect(error.code == .inUse)
                #expect(error.message.contains("another process serves the ledger"))
                #expect(error.message.contains("sole writer") == (role == .clusterNode))
            }
            // A refused lock changed nothing: the first still holds the ledger, and only it.
            let rain = try first.beginRound(newRound())
            #expect(try first.runningRounds(room: "lobby") == [rain])
        }
    }

    @Test(arguments: LedgerKind.shared) func clusterNodesShareAndExcludeASoleWriter(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let nodes = try (0..<3).map { _ in try location.open() }
            for node in nodes { try node.lock(.clusterNode) }
            let standalone = try location.open()
            let error = try #require(throws: LedgerError.self) { try standalone.lock(.soleWriter) }
            #expect(error.code == .inUse)
            #expect(!error.message.contains("sole writer"))
        }
    }

    @Test(arguments: LedgerKind.shared) func aLockEndsWithItsLedger(kind: LedgerKind) throws {
        try kind.withLocation { location in
            do {
                let first = try location.open()
                try first.lock(.soleWriter)
            }  // closed here, as a process's ledger is when it ends
            let next = try location.open()
            try next.lock(.soleWriter)
            let later = try location.open()
            let error = try #require(throws: LedgerError.self) { try later.lock(.clusterNode) }
            #expect(error.code == .inUse)
        }
    }

    /// No other process can reach a memory ledger: every lock is granted, and opening
    /// `memory:` again makes another, empty ledger.
    @Test func aMemoryLedgerIsItsProcesssOwn() throws {
        let first = try LedgerLocation.memory.open()
        try first.lock(.soleWriter)
        let rain = try first.beginRound(newRound())
        let other = try LedgerLocation.memory.open()
        try other.lock(.soleWriter)
        try other.lock(.clusterNode)
        #expect(try other.round(id: rain) == nil)
        #expect(try first.runningRounds(room: "lobby") == [rain])
    }

    @Test func readingToolsNeedNoLock() throws {
        try withTemporaryDirectory { directory in
            let serving = try SQLiteLedger(directory: directory)
            try serving.lock(.soleWriter)
            let rain = try serving.beginRound(newRound())
            let tool = try SQLiteLedger(directory: directory)  // `ledger check`, `ledger backup`
            try tool.verify()
            #expect(try tool.round(id: rain)?.id == rain)
        }
    }
}
