import Foundation
import Testing
@testable import LayercastLedger

@Suite struct LedgerOpeningTests {
    @Test func createsTheDirectoryAndItsParents() throws {
        try withTemporaryDirectory { directory in
            let nested = directory + "/a/b/c"
            let ledger = try Ledger(directory: nested)
            #expect(ledger.path == nested + "/layercast.sqlite")
            #expect(FileManager.default.fileExists(atPath: ledger.path))
            #expect(try Ledger(directory: nested + "/").path == nested + "/layercast.sqlite")
        }
    }

    @Test func aFileThatIsNotADatabaseFailsNamingThePath() throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let path = directory + "/layercast.sqlite"
            let garbage = String(repeating: "this is not an SQLite database\n", count: 200)
            try garbage.write(toFile: path, atomically: false, encoding: .utf8)
            let error = try #require(throws: LedgerError.self) { try Ledger(directory: directory) }
            #expect(error.code == .corrupt)
            #expect(error.message.hasPrefix("the ledger \(path) does not begin with the SQLite header"))
            #expect(try String(contentsOfFile: path, encoding: .utf8) == garbage)
        }
    }

    @Test func aNewerSchemaVersionIsRefused() throws {
        try withTemporaryDirectory { directory in
            let path = try Ledger(directory: directory).path
            try SQLiteConnection(path: path).execute("PRAGMA user_version = 2")
            let error = try #require(throws: LedgerError.self) { try Ledger(directory: directory) }
            #expect(error == LedgerError(
                .schema, "\(path) has ledger schema version 2; this build knows only version 1 (is it newer?)"))
        }
    }

    @Test func anotherDatabaseIsRefusedAndLeftUnchanged() throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let path = directory + "/layercast.sqlite"
            try SQLiteConnection(path: path).execute("CREATE TABLE notes (text TEXT)")
            let error = try #require(throws: LedgerError.self) { try Ledger(directory: directory) }
            #expect(error.code == .schema)
            #expect(error.message.hasPrefix("\(path) is an SQLite database but not a Layercast ledger"))
            let tables = try SQLiteConnection(path: path).query("SELECT name FROM sqlite_schema") { $0.text(0) }
            #expect(tables == ["notes"])
        }
    }

    @Test func aNewLedgerHasSchemaVersionOneInWALMode() throws {
        try withTemporaryDirectory { directory in
            let path = try Ledger(directory: directory).path
            let connection = try SQLiteConnection(path: path)
            #expect(try connection.query("PRAGMA user_version") { $0.int(0) } == [1])
            #expect(try connection.query("PRAGMA journal_mode") { $0.text(0) } == ["wal"])
            #expect(try connection.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") { $0.text(0) }
                == ["awards", "prizes", "rains", "sqlite_sequence"])
        }
    }
}
