import Foundation
import Testing
@testable import LayercastLedger

@Suite struct LedgerLocationTests {
    @Test func withoutALedgerItIsSQLiteUnderTheDataDirectory() throws {
        #expect(try LedgerLocation(nil, dataDirectory: "/var/lib/layercast") == .sqlite(directory: "/var/lib/layercast"))
        #expect(try LedgerLocation("", dataDirectory: "data") == .sqlite(directory: "data"))
    }

    @Test(arguments: [
        "postgres://layercast@127.0.0.1:5432/ledger", "postgresql://layercast@db.internal/ledger",
        "postgres:///ledger?host=/run/postgresql", "postgresql://u:secret@[::1]:6543/ledger?sslmode=require",
    ])
    func postgresURLsAreTaken(url: String) throws {
        #expect(try LedgerLocation(url, dataDirectory: "data") == .postgres(url: url))
    }

    @Test func memoryIsALedgerOfItsOwnAtEachOpening() throws {
        let location = try LedgerLocation("memory:", dataDirectory: "data")
        #expect(location == .memory && location.description == "memory:")
        #expect(try location.open() is MemoryLedger)
        #expect(try location.open().address == "memory:")
    }

    @Test(arguments: [
        ("memory", "must be a URL postgres://USER@HOST:PORT/DB (or postgresql://) or memory:"),
        ("memory:data", "must be a URL postgres://USER@HOST:PORT/DB"),
        ("sqlite:data", "must be a URL postgres://USER@HOST:PORT/DB"),
        ("/var/lib/layercast", "must be a URL postgres://USER@HOST:PORT/DB"),
        ("mysql://u@h/db", "must be a URL postgres://USER@HOST:PORT/DB"),
        ("postgres://u@[::1/db", "is malformed"),
        ("postgres://u@h/db?frobnicate=1", "invalid URI query parameter: \"frobnicate\""),
    ])
    func anythingElseIsRefusedWithoutContactingAnything(text: String, named: String) throws {
        let error = try #require(throws: LedgerError.self) { try LedgerLocation(text, dataDirectory: "data") }
        #expect(error.code == .invalid && error.message.contains(named), "\(error)")
    }

    @Test func passwordsNeverReachAMessage() throws {
        let url = "postgres://ledger:s3cret@127.0.0.1:1/db?password=s3cret&sslmode=disable"
        let location = try LedgerLocation(url, dataDirectory: "data")
        #expect(location.description == "postgres://ledger:***@127.0.0.1:1/db?password=***&sslmode=disable")
        #expect(LedgerLocation.redacted("postgres://ledger@host/db") == "postgres://ledger@host/db")
        // Nothing listens on port 1: the connection is refused at once, and the error names no password.
        let error = try #require(throws: LedgerError.self) { try location.open() }
        #expect(error.code == .open && error.message.hasPrefix("cannot connect: ") && !error.message.contains("s3cret"), "\(error)")
    }
}
