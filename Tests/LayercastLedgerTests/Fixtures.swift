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

let settings = RainSettingsRow(duration: 12.5, pool: 1000, winners: 10, minCoins: 1, maxCoins: 300, width: 390, height: 844)

func newRain(room: String = "lobby", seed: UInt64 = 42, prizes: [Int: Int] = [0: 100, 3: 250], at time: Date = startTime) -> NewRain {
    NewRain(room: room, seed: seed, settings: settings, mediaStart: 3.25, prizes: prizes, createdAt: time)
}

func award(rain: Int64, packet: Int, player: String, name: String? = nil, coins: Int, at time: Date = startTime) -> AwardRow {
    AwardRow(
        rain: rain, packet: packet, player: player, name: name ?? player.capitalized, coins: coins,
        x: 120.5, y: 300.25, viewTime: 4.5, serverTime: 4.625, createdAt: time)
}
