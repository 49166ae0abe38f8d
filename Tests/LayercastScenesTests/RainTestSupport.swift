import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI
import LayercastSceneTesting
import Testing
@testable import LayercastScenes

// The red-packet rain (docs/scenes.md §1) under the harness, shared by the Rain*Tests files. The
// numbers come from seed 000: countdown 5…1 one per second, a packet every 1/4 s, 44 × 62.5 packets
// anchored at (0, 0) above the screen at (0, −62.5), falls from (rand % 414, 0) to (rand % 414, 736)
// in (rand % 200)/100 + 3.5 s (linear), spins between rotations of rand % 360 degrees about
// (0, 0, −1) (easeInEaseOut, fill forwards), rp_yes 63.5 × 74 / rp_no 45.5 × 76.5, labels 100 × 30
// rising 100 pt while fading over 1 s.

/// The id the tests give their rain.
let rainID: Int64 = 9
/// The seed's rain: no on-screen rule and no per-player limits (`RainLimitTests` covers those).
let settings = RainSettings(seed: 2024, minVisible: 0)

/// The rain under the harness: a room's clock, input path and frames; the tests play its
/// controller (start, stop, confirm) with `perform`.
typealias RainHarness = SceneHarness<RainScene>

extension SceneHarness where S == RainScene {
    /// A rain scene (seed 1) of `configuration`, ticked at `fps`.
    convenience init(configuration: RainScene.Configuration = .init(), fps: Int = 30) {
        self.init(fps: fps) { RainScene(seed: 1, configuration: configuration) }
    }

    /// Runs to `s` and starts the rain `rain` as `id` there, as the admin command does; whether it started.
    @discardableResult
    func start(at s: CFTimeInterval, _ rain: RainSettings = settings, id: Int64 = rainID) -> Bool {
        run(to: s)
        return perform { $0.startRain(id: id, settings: rain) }
    }

    /// The packets falling now, oldest first (the newest on top).
    var livePackets: [CALayer] { scene.packets.sublayers ?? [] }

    /// The index in a packet layer's name, `packet-<index>`.
    func index(of packet: CALayer) -> Int { Int(packet.name!.dropFirst("packet-".count))! }

    /// A tap at `point` seen at `t` (now, or up to 0.3 s before, not clamped) by `player` through
    /// the room's path; a claim is committed to `ledger`, which must not fail.
    @discardableResult
    func tap(_ point: CGPoint, at t: CFTimeInterval, by player: String = "p1", name: String = "Ann",
             client: String = "c1", id: JSONValue? = nil) -> TapOutcome {
        #expect(SceneStage.resolutionTime(viewTime: t, now: now) == t, "view time \(t) at \(now)")
        let result = tap(at: point, viewTime: t, by: Tapper(client: client, player: player, name: name, id: id))
        #expect(result.failure == nil)
        return result.outcome
    }

    /// What the room's path decides of a tap at `point` seen at `t` by `player` when no claim can
    /// be committed: the claim, which then announces and changes nothing, or the tapper's answer.
    /// Its events are not kept in `events`.
    func decide(_ point: CGPoint, at t: CFTimeInterval, by player: String = "p1") -> Decision {
        #expect(SceneStage.resolutionTime(viewTime: t, now: now) == t, "view time \(t) at \(now)")
        ledger.refuses = true
        defer { ledger.refuses = false }
        let result = stage.tap(at: point, viewTime: t, now: now, by: Tapper(client: "c1", player: player), awarding: ledger)
        if case .claim(let claim) = result.outcome {
            #expect(result.failure != nil && !result.awarded && result.events.isEmpty)
            return .claim(claim)
        }
        guard result.events.count == 1, let answer = result.events.first, answer.name == "tap", answer.client == "c1",
              answer.audience == .client, let data = answer.data.objectValue, let text = data["result"]?.stringValue else {
            return .unexpected("\(result.outcome) \(result.events)")
        }
        let packet = data["packet"]?.intValue
        let decision: Decision
        switch (text, packet, data["rule"]?.stringValue.flatMap(RainRule.init)) {
        case ("closed", nil, nil): decision = .closed
        case ("miss", nil, nil): decision = .miss
        case ("taken", let packet?, nil): decision = .taken(packet: packet)
        case ("too_soon", let packet?, nil): decision = .tooSoon(packet: packet)
        case ("capped", nil, let rule?): decision = .capped(rule)
        default: return .unexpected("\(answer)")
        }
        let refusal: RainRule? = switch decision {
        case .tooSoon: .tooSoon
        case .capped(let rule): rule
        default: nil
        }
        #expect(result.outcome == refusal.map { .refused(rule: $0.rawValue) } ?? .answered)
        return decision
    }

    /// Confirms `claim` again in the scene (`Scene.confirm`), for `player` on `client`.
    func confirm(_ claim: Claim, player: String, client: String, id: JSONValue? = nil) {
        perform { $0.confirm(claim, total: 100, for: Tapper(client: client, player: player, name: "Ann", id: id)) }
    }
}

/// What a tap comes to: the claim the scene makes, or the tapper's answer (its `tap` event).
enum Decision: Equatable {
    case closed, miss
    case taken(packet: Int)
    case tooSoon(packet: Int)
    case capped(RainRule)
    case claim(Claim)
    /// Anything else: the outcome and events, described.
    case unexpected(String)
}

/// The scene point of a packet's local point `q` as presented at `t`.
func scenePoint(_ packet: CALayer, _ q: CGPoint, at t: CFTimeInterval) -> CGPoint {
    packet.presentation(at: t)!.properties.localMatrix.project(q)!
}

/// How far inside a packet's presented rect the scene point `p` lies (negative: outside), measured
/// in its own coordinates; an independent check of what the hit test decides.
func depth(of p: CGPoint, in packet: CALayer, at t: CFTimeInterval) -> CGFloat {
    let props = packet.presentation(at: t)!.properties
    guard let q = props.localMatrix.unproject(p) else { return -.infinity }
    let b = props.bounds
    return min(q.x - b.minX, b.maxX - q.x, q.y - b.minY, b.maxY - q.y)
}

/// The rain's default scene rect.
let sceneRect = CGRect(x: 0, y: 0, width: 414, height: 736)

/// Whether `p` lies inside the scene rect by more than `margin`.
func onScreen(_ p: CGPoint, margin: CGFloat = 2) -> Bool {
    sceneRect.insetBy(dx: margin, dy: margin).contains(p)
}

/// The seed's draws for one packet, in the documented order.
struct Draws {
    var x0, x1: CGFloat
    var fall: CFTimeInterval
    var angle0, angle1: Int
    var spin: CFTimeInterval
}

/// The draws of the first `count` packets of `seed`, computed here from `SeededRandom`.
func expectedDraws(seed: UInt64, count: Int) -> [Draws] {
    var rng = SeededRandom(seed: seed)
    return (0..<count).map { _ in
        let x0 = CGFloat(rng.next() % 414), x1 = CGFloat(rng.next() % 414)
        let fall = Double(rng.next() % 200) / 100 + 3.5
        let a0 = Int(rng.next() % 360), a1 = Int(rng.next() % 360)
        let spin = Double(rng.next() % 200) / 100 + 3.5
        return Draws(x0: x0, x1: x1, fall: fall, angle0: a0, angle1: a1, spin: spin)
    }
}

/// A packet's spin keyframe: `degrees` about (0, 0, −1).
func rotation(degrees: Int) -> CATransform3D {
    CATransform3DMakeRotation(.pi / 180 * CGFloat(degrees), 0, 0, -1)
}

/// The `rain` event of `phase` for `settings` started at `s`: the commitment always, the seed
/// (and its empty salt) revealed from the results on.
func rainEvent(_ phase: String, s: CFTimeInterval, extra: [(String, JSONValue)] = []) -> SceneEvent {
    let commitment = RainCommitment(settings: settings, size: CGSize(width: 414, height: 736)).digest
    var data = JSONObject([("phase", .string(phase)), ("rain", .number(Double(rainID))), ("commitment", .string(commitment))])
    if phase != "idle" {
        data["duration"] = 20
        data["packets"] = 80
        data["countdownAt"] = .number(s)
        data["startsAt"] = .number(s + 5)
        data["endsAt"] = .number(s + 25)
        data["limits"] = ["maxAwardsPerPlayer": 0, "maxCoinsPerPlayer": 0, "minVisible": 0, "tapRate": 8]
    }
    for (key, value) in extra { data[key] = value }
    if phase == "results" || phase == "idle" {
        data["seed"] = 2024
        data["salt"] = ""
    }
    return SceneEvent(name: "rain", data: .object(data))
}

/// A packet whose presented centre (local (22, 31)) is on screen and inside no other packet, with
/// a 2 pt margin both ways; nil when none qualifies at `t`.
func clearPacket(_ h: RainHarness, at t: CFTimeInterval, where accept: (Int) -> Bool = { _ in true }) -> (packet: Int, point: CGPoint)? {
    for layer in h.livePackets where accept(h.index(of: layer)) {
        let p = scenePoint(layer, CGPoint(x: 22, y: 31), at: t)
        guard onScreen(p) else { continue }
        if h.livePackets.allSatisfy({ $0 === layer || depth(of: p, in: $0, at: t) < -2 }) {
            return (h.index(of: layer), p)
        }
    }
    return nil
}

/// Claims and confirms up to `count` free packets for `player`, one look every 0.5 s from
/// `t` (left at the time of the next look), until 20 s.
func claim(_ count: Int, by player: String, in h: RainHarness, from t: inout CFTimeInterval) -> [Claim] {
    var claims: [Claim] = []
    while claims.count < count, t < 20 {
        h.run(to: t)
        if let free = clearPacket(h, at: t, where: { h.scene.rain?.claimed[$0] == nil }),
           case .claim(let claim) = h.tap(free.point, at: t, by: player) {
            claims.append(claim)
        }
        t += 0.5
    }
    return claims
}

/// What a viewer sees of the packets and labels at `t`.
func snapshot(_ h: RainHarness, at t: CFTimeInterval) -> [String] {
    var lines: [String] = []
    for container in [h.scene.packets, h.scene.labels] {
        for layer in container.sublayers ?? [] {
            let p = layer.presentation(at: t)!.properties
            lines.append("\(layer.name!) \(p.position) \(p.bounds) \(p.transform) \(p.opacity) \(p.contents?.name ?? "")")
        }
    }
    return lines
}
