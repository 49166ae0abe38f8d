import Foundation
import Testing
@testable import LayercastLedger

/// Secrets every process on one ledger shares (`Ledger.sharedSecret`): the first candidate is
/// kept, and every later caller, on any connection, gets it back.
@Suite struct LedgerSecretTests {
    @Test(arguments: LedgerKind.allCases) func theFirstCandidateIsKeptForEveryone(kind: LedgerKind) throws {
        try kind.withLocation { location in
            let first = try location.open()
            let second = LedgerKind.shared.contains(kind) ? try location.open() : first  // another node, when it can be
            #expect(try first.sharedSecret("player-id", candidate: "aaaa") == "aaaa")
            #expect(try second.sharedSecret("player-id", candidate: "bbbb") == "aaaa")
            #expect(try first.sharedSecret("player-id", candidate: "cccc") == "aaaa")
            #expect(try second.sharedSecret("other", candidate: "dddd") == "dddd")
            #expect(try first.sharedSecret("other", candidate: "eeee") == "dddd")
        }
    }

    @Test(arguments: LedgerKind.shared) func aKeptSecretOutlivesTheProcess(kind: LedgerKind) throws {
        try kind.withLocation { location in
            do {
                let ledger = try location.open()
                _ = try ledger.sharedSecret("player-id", candidate: "0123abcd")
            }
            #expect(try location.open().sharedSecret("player-id", candidate: "ffff") == "0123abcd")
        }
    }
}
