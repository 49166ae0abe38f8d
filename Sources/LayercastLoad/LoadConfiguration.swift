/// Everything one load test does; `validate()` bounds it before anything connects.
public struct LoadConfiguration: Sendable {
    /// What a client joins as (protocol.md, "Connecting").
    public enum Role: String, Sendable, CaseIterable { case spectator, player }

    /// Where a player taps: anywhere in the scene, or the centre of a packet it sees.
    public enum AimMode: String, Sendable, CaseIterable {
        /// A uniformly random point of the scene (`welcome.size`).
        case random
        /// The centre of a random unclaimed `packet-N` of the newest frame, when on screen; no tap when none is.
        case aim
    }

    public static let maximumClients = 20_000
    public static let maximumDuration = 3600.0
    public static let maximumWorkers = 64
    /// The server's tap limit per player (protocol.md, `rate_limited`).
    public static let maximumTapRate = 20.0

    public var target: LoadTarget
    public var scene = "radar"
    public var room = "lobby"
    public var clients = 10
    /// Connections opened per second, over all threads.
    public var rampPerSecond = 100.0
    /// Seconds from the first connection attempt to the end (the ramp is inside it).
    public var duration = 10.0
    public var role = Role.spectator
    /// Taps per second of each player (0: none).
    public var tapsPerSecond = 0.0
    public var aim = AimMode.random
    /// Secret to sign player tokens with; nil joins players anonymously.
    public var tokenSecret: String?
    /// Threads of each process, each with its own libwebsockets client context.
    public var threads = 1
    /// Processes the clients are dealt to (`ClientSplit`); 1 runs them in this one.
    public var workers = 1
    /// Whether clients offer permessage-deflate (RFC 7692); the server decides whether to use it.
    public var permessageDeflate = false
    /// Seconds between pings of each client (they refine the media clock).
    public var pingInterval = 2.0
    /// A scenario file's campaign (`--scenario`); nil: today's flags, one population
    /// (`Scenario(single:)`). With a scenario, `clients` and `duration` are its own.
    public var scenario: Scenario?
    /// The file it came from, as given (workers read it again).
    public var scenarioPath: String?

    /// What runs: the scenario, or the flags as one.
    public var plan: Scenario { scenario ?? Scenario(single: self) }
    /// The servers clients join, in turn.
    public var targets: [LoadTarget] {
        if let scenario, !scenario.urls.isEmpty { return scenario.urls }
        return [target]
    }

    public init(target: LoadTarget) {
        self.target = target
    }

    /// Why this configuration cannot run, or nil.
    public func validationError() -> String? {
        guard (1...Self.maximumClients).contains(clients) else { return "--clients must be 1…\(Self.maximumClients)" }
        guard rampPerSecond.isFinite, rampPerSecond > 0 else { return "--ramp must be a number of connections per second > 0" }
        guard duration.isFinite, duration > 0, duration <= Self.maximumDuration else { return "--duration must be > 0 and at most 3600 seconds" }
        guard tapsPerSecond.isFinite, (0...Self.maximumTapRate).contains(tapsPerSecond) else {
            return "--taps must be 0…20 per second (the server's limit per player)"
        }
        guard tapsPerSecond == 0 || role == .player else { return "--taps needs --role player (spectators may not tap)" }
        guard (1...256).contains(threads) else { return "--threads must be 1…256" }
        guard (1...Self.maximumWorkers).contains(workers), workers <= clients else { return "--workers must be 1…\(Self.maximumWorkers) and at most --clients" }
        guard Self.isRoomName(room) else { return "--room must be 1–32 of A–Z a–z 0–9 _ -" }
        guard !scene.isEmpty, scene.utf8.count <= 64, scene.utf8.allSatisfy(Self.isNameByte) else {
            return "--scene must be a scene id (letters, digits, _ and -)"
        }
        if let tokenSecret, tokenSecret.isEmpty { return "--token-secret must not be empty" }
        return nil
    }

    /// The `/ws` path and query of a client joining as `role`, with its token when players are signed.
    func path(role: Role, token: String?) -> String {
        var path = "/ws?scene=\(scene)&room=\(room)&role=\(role.rawValue)"
        if let token { path += "&token=\(token)" }
        return path
    }

    static func isRoomName(_ name: String) -> Bool {
        (1...32).contains(name.utf8.count) && name.utf8.allSatisfy(isNameByte)
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"): true
        default: false
        }
    }
}
