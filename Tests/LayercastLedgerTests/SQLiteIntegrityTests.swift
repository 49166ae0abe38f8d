import Foundation
import Testing
@testable import LayercastLedger

@Suite struct SQLiteIntegrityTests {
    /// A ledger in `directory` with a rain and an award, closed and checkpointed into its file.
    func makeLedger(_ directory: String) throws -> String {
        let ledger = try SQLiteLedger(directory: directory)
        let rain = try ledger.beginRound(newRound())
        _ = try ledger.recordAward(award(round: rain, item: 3, player: "ada", coins: 250))
        try ledger.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return ledger.path
    }

    func refusal(_ directory: String) throws -> LedgerError {
        try #require(throws: LedgerError.self) { try SQLiteLedger(directory: directory) }
    }

    @Test func anEmptyFileIsRefusedNotStartedAfresh() throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let path = directory + "/layercast.sqlite"
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
            let error = try refusal(directory)
            #expect(error.code == .corrupt)
            #expect(error.message.contains("is empty (0 bytes)") && error.message.contains("move layercast.sqlite"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty, "the empty file was written to")
        }
    }

    @Test func anEmptyFileBesideItsWriteAheadLogSaysSo() throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let path = directory + "/layercast.sqlite"
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
            #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data(repeating: 7, count: 4096)))
            let error = try refusal(directory)
            #expect(error.message.contains("its write-ahead log \(path)-wal holds 4096 bytes"))
        }
    }

    @Test func aFileShorterThanItsHeaderSaysIsTruncated() throws {
        try withTemporaryDirectory { directory in
            let path = try makeLedger(directory)
            let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            try FileHandle(forWritingAtPath: path).map { try $0.truncate(atOffset: UInt64(size / 2)) }
            let error = try refusal(directory)
            #expect(error.code == .corrupt && error.message.contains("it was truncated"), "\(error)")
        }
    }

    @Test func aGarbagePageFailsQuickCheck() throws {
        try withTemporaryDirectory { directory in
            let path = try makeLedger(directory)
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.seek(toOffset: 4096)  // page 2: a table's root
            handle.write(Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }))
            try handle.close()
            let error = try refusal(directory)
            #expect(error.code == .corrupt && error.message.contains("layercast.sqlite"), "\(error)")
        }
    }

    @Test func aMissingColumnIsNamed() throws {
        try withTemporaryDirectory { directory in
            let path = try makeLedger(directory)
            try SQLiteConnection(path: path).execute("ALTER TABLE awards DROP COLUMN view_time")
            let error = try refusal(directory)
            #expect(error.message.contains("lacks awards.view_time REAL of ledger schema version"), "\(error)")
        }
    }

    @Test func aSoundLedgerOpensAndVerifies() throws {
        try withTemporaryDirectory { directory in
            _ = try makeLedger(directory)
            let ledger = try SQLiteLedger(directory: directory)
            try ledger.verify()
            #expect(try ledger.summary() == LedgerSummary(schemaVersion: SQLiteSchema.version, rounds: 1, awards: 1, coins: 250))
        }
    }

    @Test func aBackupHoldsEverythingAndNeverOverwrites() throws {
        try withTemporaryDirectory { directory in
            _ = try makeLedger(directory)
            let ledger = try SQLiteLedger(directory: directory)
            let copy = directory + "/copy.sqlite"
            #expect(try ledger.backup(to: copy) == ledger.summary())
            let error = try #require(throws: LedgerError.self) { try ledger.backup(to: copy) }
            #expect(error.message.contains("already exists"))
            let restored = directory + "/restored"
            try FileManager.default.createDirectory(atPath: restored, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: copy, toPath: restored + "/layercast.sqlite")
            let back = try SQLiteLedger(directory: restored)
            #expect(try back.player(id: "ada", recentLimit: 5)?.coins == 250)
        }
    }
}
