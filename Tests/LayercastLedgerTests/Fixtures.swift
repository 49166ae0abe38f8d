import Foundation
import Testing
@testable import LayercastLedger

/// Runs `body` with the path of a fresh directory (not yet created) under the system temporary
/// directory, and removes that directory afterwards.
func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("layercast-ledger-tests-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

/// The ledgers every test of the shared suite runs against.
enum LedgerKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres, memory

    /// The ledgers that a second `open()` of their location opens again, as another process
    /// would: the tests of reopening, of several connections and of locks run on these. Each
    /// `open()` of `memory:` is a new, empty ledger.
    static let shared: [LedgerKind] = [.sqlite, .postgres]

    var testDescription: String { rawValue }

    /// Runs `body` with the location of a new, empty ledger of this kind (a temporary directory,
    /// a new database on the test process's PostgreSQL server, or `memory:`), open it as often
    /// as it likes.
    func withLocation<T>(_ body: (LedgerLocation) throws -> T) throws -> T {
        switch self {
        case .sqlite: try withTemporaryDirectory { try body(.sqlite(directory: $0)) }
        case .postgres: try body(.postgres(url: try PostgresTestServer.shared().newDatabase()))
        case .memory: try body(.memory)
        }
    }
}

/// 2026-05-28T20:26:40.123Z, a whole number of milliseconds.
let startTime = Date(timeIntervalSince1970: 1_780_000_000.123)

/// A rain's settings as the rain writes them: to the ledger, text it keeps and does not read.
let settings = #"{"duration":12.5,"pool":1000,"winners":10,"minCoins":1,"maxCoins":300,"width":390.0,"height":844.0}"#

func newRound(room: String = "lobby", seed: UInt64 = 42, prizes: [Int: Int] = [0: 100, 3: 250], at time: Date = startTime) -> NewRound {
    NewRound(scene: "rain", room: room, seed: seed, settings: settings, mediaStart: 3.25, prizes: prizes, createdAt: time)
}

func award(round: Int64, item: Int, player: String, name: String? = nil, coins: Int, at time: Date = startTime) -> AwardRow {
    AwardRow(
        round: round, item: item, player: player, name: name ?? player.capitalized, coins: coins,
        x: 120.5, y: 300.25, viewTime: 4.5, serverTime: 4.625, createdAt: time)
}

/// The members of a flat JSON object of numbers (a rain's settings), each number read by Swift's
/// correctly rounded `Double(_:)` (Foundation's JSON parser is off by one ulp on 0.1 + 0.2).
func numbers(_ json: String) throws -> [String: Double] {
    let body = json.trimmingCharacters(in: .whitespaces)
    try #require(body.hasPrefix("{") && body.hasSuffix("}"), "\(json) is not an object")
    var members: [String: Double] = [:]
    for member in body.dropFirst().dropLast().split(separator: ",") {
        let parts = member.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        try #require(parts.count == 2 && parts[0].hasPrefix("\"") && parts[0].hasSuffix("\""), "\(member) is not a member")
        members[String(parts[0].dropFirst().dropLast())] = try #require(Double(parts[1]), "\(parts[1]) is not a number")
    }
    return members
}
