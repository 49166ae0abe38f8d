import Foundation
import LayercastEngine
import LayercastJSON
@testable import LayercastSceneAPI
import Testing
@testable import LayercastScenes

// The red-packet rain (docs/scenes.md §1) run on a manual clock. The numbers come from seed 000:
// countdown 5…1 one per second, a packet every 1/4 s, 44 × 62.5 packets anchored at (0, 0) above
// the screen at (0, −62.5), falls from (rand % 414, 0) to (rand % 414, 736) in (rand % 200)/100 + 3.5 s
// (linear), spins between rotations of rand % 360 degrees about (0, 0, −1) (easeInEaseOut, fill
// forwards), rp_yes 63.5 × 74 / rp_no 45.5 × 76.5, labels 100 × 30 rising 100 pt while fading over 1 s.

private let rainID: Int64 = 9
/// The seed's rain: no on-screen rule and no per-player limits (`FairRainTests` covers those).
private let settings = RainSettings(seed: 2024, minVisible: 0)

/// A rain scene on its stage, driven like a room: `advance(to:)` moves the clock, delivers the
/// timers and animation events due by then and collects the scene's events; taps take the room's
/// path, `SceneStage.tap`, with `awarding` in the ledger's place.
private final class Harness {
    let stage: SceneStage
    let scene: RainScene
    let awarding = TestAwarding()
    var events: [SceneEvent] = []
    /// Every packet layer seen so far by index (kept after the scene drops them), with its fall
    /// and spin as first seen (the fall is removed when it ends).
    var seen: [Int: CALayer] = [:]
    var falls: [Int: CAKeyframeAnimation] = [:]
    var spins: [Int: CAKeyframeAnimation] = [:]

    init(configuration: RainScene.Configuration = .init()) {
        (stage, scene) = SceneStage.make { RainScene(seed: 1, configuration: configuration) }
    }

    /// A harness around a stage made elsewhere (a rebuilt rain's).
    init(stage: SceneStage, scene: RainScene) {
        self.stage = stage
        self.scene = scene
    }

    var context: SceneContext { stage.context }

    func advance(to t: CFTimeInterval) {
        stage.advance(to: t)
        events += stage.takeEvents()
        for layer in livePackets where seen[index(of: layer)] == nil {
            let i = index(of: layer)
            seen[i] = layer
            falls[i] = layer.animation(forKey: "fall") as? CAKeyframeAnimation
            spins[i] = layer.animation(forKey: "spin") as? CAKeyframeAnimation
        }
    }

    /// Advances in steps of `step` (the last one shorter), as a room ticking at 1/step fps.
    func advance(to t: CFTimeInterval, step: CFTimeInterval) {
        var now = stage.now
        while now < t {
            now = min(t, now + step)
            advance(to: now)
        }
    }

    @discardableResult
    func start(at s: CFTimeInterval, _ rain: RainSettings = settings, id: Int64 = rainID) -> Bool {
        advance(to: s)
        let started = context.run { scene.startRain(id: id, settings: rain) }
        events += scene.takeEvents()
        return started
    }

    func takeEvents() -> [SceneEvent] {
        defer { events = [] }
        return events
    }

    var livePackets: [CALayer] { scene.packets.sublayers ?? [] }

    func index(of packet: CALayer) -> Int { Int(packet.name!.dropFirst("packet-".count))! }

    /// A tap at `point` seen at `t` (now, or up to 0.3 s before) through the room's path, its claim
    /// committed as the tapper's `total`; its events are collected.
    @discardableResult
    func tap(_ point: CGPoint, at t: CFTimeInterval, by player: String = "p1", name: String = "Ann", total: Int = 100,
             client: String = "c1", id: JSONValue? = nil) -> TapOutcome {
        #expect(SceneStage.resolutionTime(viewTime: t, now: stage.now) == t, "view time \(t) at \(stage.now)")
        awarding.total = total
        let result = stage.tap(at: point, viewTime: t, now: stage.now, by: Tapper(client: client, player: player, name: name, id: id),
                               awarding: awarding)
        #expect(result.failure == nil)
        events += result.events
        return result.outcome
    }

    /// What the room's path decides of a tap at `point` seen at `t` by `player` when no claim can
    /// be committed: the claim, which then announces and changes nothing, or the tapper's answer.
    func decide(_ point: CGPoint, at t: CFTimeInterval, by player: String = "p1") -> Decision {
        #expect(SceneStage.resolutionTime(viewTime: t, now: stage.now) == t, "view time \(t) at \(stage.now)")
        awarding.refusing = true
        defer { awarding.refusing = false }
        let result = stage.tap(at: point, viewTime: t, now: stage.now, by: Tapper(client: "c1", player: player), awarding: awarding)
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
        context.run { scene.confirm(claim, total: 100, for: Tapper(client: client, player: player, name: "Ann", id: id)) }
        events += scene.takeEvents()
    }
}

/// What a tap comes to: the claim the scene makes, or the tapper's answer (its `tap` event).
private enum Decision: Equatable {
    case closed, miss
    case taken(packet: Int)
    case tooSoon(packet: Int)
    case capped(RainRule)
    case claim(Claim)
    /// Anything else: the outcome and events, described.
    case unexpected(String)
}

/// The ledger's stand-in: commits every claim as the tapper's `total`, or, while `refusing`, none.
private final class TestAwarding: ImmediateAwarding {
    var total = 100
    var refusing = false

    struct Refused: Error {}

    func commit(_ award: Award) throws -> Int {
        if refusing { throw Refused() }
        return total
    }
}

/// The scene point of a packet's local point `q` as presented at `t`.
private func scenePoint(_ packet: CALayer, _ q: CGPoint, at t: CFTimeInterval) -> CGPoint {
    packet.presentation(at: t)!.properties.localMatrix.project(q)!
}

/// How far inside a packet's presented rect the scene point `p` lies (negative: outside), measured
/// in its own coordinates; an independent check of what the hit test decides.
private func depth(of p: CGPoint, in packet: CALayer, at t: CFTimeInterval) -> CGFloat {
    let props = packet.presentation(at: t)!.properties
    guard let q = props.localMatrix.unproject(p) else { return -.infinity }
    let b = props.bounds
    return min(q.x - b.minX, b.maxX - q.x, q.y - b.minY, b.maxY - q.y)
}

private let sceneRect = CGRect(x: 0, y: 0, width: 414, height: 736)

private func onScreen(_ p: CGPoint, margin: CGFloat = 2) -> Bool {
    sceneRect.insetBy(dx: margin, dy: margin).contains(p)
}

/// The seed's draws for one packet, in the documented order.
private struct Draws {
    var x0, x1: CGFloat
    var fall: CFTimeInterval
    var angle0, angle1: Int
    var spin: CFTimeInterval
}

private func expectedDraws(seed: UInt64, count: Int) -> [Draws] {
    var rng = SeededRandom(seed: seed)
    return (0..<count).map { _ in
        let x0 = CGFloat(rng.next() % 414), x1 = CGFloat(rng.next() % 414)
        let fall = Double(rng.next() % 200) / 100 + 3.5
        let a0 = Int(rng.next() % 360), a1 = Int(rng.next() % 360)
        let spin = Double(rng.next() % 200) / 100 + 3.5
        return Draws(x0: x0, x1: x1, fall: fall, angle0: a0, angle1: a1, spin: spin)
    }
}

private func rotation(degrees: Int) -> CATransform3D {
    CATransform3DMakeRotation(.pi / 180 * CGFloat(degrees), 0, 0, -1)
}

/// The `rain` event of `phase` for `settings` started at `s`: the commitment always, the seed
/// (and its empty salt) revealed from the results on.
private func rainEvent(_ phase: String, s: CFTimeInterval, extra: [(String, JSONValue)] = []) -> SceneEvent {
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
private func clearPacket(_ h: Harness, at t: CFTimeInterval, where accept: (Int) -> Bool = { _ in true }) -> (packet: Int, point: CGPoint)? {
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
private func claim(_ count: Int, by player: String, in h: Harness, from t: inout CFTimeInterval) -> [Claim] {
    var claims: [Claim] = []
    while claims.count < count, t < 20 {
        h.advance(to: t)
        if let free = clearPacket(h, at: t, where: { h.scene.rain?.claimed[$0] == nil }),
           case .claim(let claim) = h.tap(free.point, at: t, by: player) {
            claims.append(claim)
        }
        t += 0.5
    }
    return claims
}

@Suite("Rain scene")
struct RainSceneTests {
    // MARK: Catalogue and tree

    @Test func infoAndCatalogue() {
        let info = RainScene.info
        #expect(info.id == "rain")
        #expect(info.title == "Red-packet rain")
        #expect(info.size == CGSize(width: 414, height: 736))
        #expect(info.interactions == ["tap"])
        #expect(AssetRow.rows(info) == [
            AssetRow(id: "rp_normal", url: "/assets/rain/rp-normal.svg", width: 44, height: 62.5),
            AssetRow(id: "rp_yes", url: "/assets/rain/rp-yes.svg", width: 63.5, height: 74),
            AssetRow(id: "rp_no", url: "/assets/rain/rp-no.svg", width: 45.5, height: 76.5),
        ])
        #expect(AssetRow.notShipped(info) == [])
        #expect(SceneCatalog.all.map { $0.info.id }.prefix(2) == ["radar", "rain"])   // later scenes are appended
        #expect(SceneCatalog.scene(id: "rain") == RainScene.self)
    }

    @Test func idleTree() {
        let h = Harness()
        #expect(h.scene.phase == .idle && h.scene.rain == nil)
        #expect(h.scene.configuration == RainScene.Configuration(size: CGSize(width: 414, height: 736), resultsDuration: 10))
        #expect(h.scene.layer.frame == sceneRect)
        #expect((h.scene.layer.sublayers ?? []).map(\.name) == ["packets", "labels"])
        #expect(h.scene.packets.frame == sceneRect && h.scene.labels.frame == sceneRect)
        // Nothing happens until a rain starts.
        h.advance(to: 100)
        #expect(h.takeEvents().isEmpty && h.livePackets.isEmpty && h.scene.phase == .idle)
        #expect(h.decide(CGPoint(x: 100, y: 100), at: 100) == .closed)
        // A smaller room: the root and containers follow the configured size.
        let small = Harness(configuration: .init(size: CGSize(width: 320, height: 480), resultsDuration: 3))
        #expect(small.scene.layer.frame == CGRect(x: 0, y: 0, width: 320, height: 480))
        #expect(small.scene.packets.frame == CGRect(x: 0, y: 0, width: 320, height: 480))
    }

    // MARK: Countdown and phases

    @Test func countdownShowsFiveToOneThenTheRainStarts() throws {
        let h = Harness()
        let s: CFTimeInterval = 2
        #expect(h.start(at: s))
        #expect(h.scene.phase == .countdown)
        #expect(h.takeEvents() == [rainEvent("countdown", s: s)])
        let rain = try #require(h.scene.rain)
        #expect(rain.id == rainID && rain.settings == settings && rain.plan == PrizePlan(settings: settings))
        #expect(rain.countdownAt == s && rain.startsAt == s + 5 && rain.endsAt == s + 25 && rain.claimed.isEmpty)
        // Only one rain at a time.
        #expect(!h.context.run { h.scene.startRain(id: 10, settings: RainSettings()) })
        #expect(h.scene.rain?.id == rainID)

        // The seed's dispatch timer: "5" at s, "4" at s+1, … "1" at s+4.
        for (k, text) in ["5", "4", "3", "2", "1"].enumerated() {
            h.advance(to: s + Double(k) + 0.5)
            let label = try #require(h.scene.countdownLab)
            #expect(label.string == text, "at s+\(Double(k) + 0.5)")
            #expect(label.superlayer === h.scene.layer)
            #expect(h.scene.phase == .countdown)
        }
        let label = try #require(h.scene.countdownLab)
        #expect(label.name == "countdown" && label.fontSize == 96 && label.fontWeight == 0.4)
        #expect(label.foregroundColor == CGColor(red: 1, green: 223 / 255, blue: 14 / 255, alpha: 1))
        #expect(label.alignmentMode == .center)
        // 96 pt × 1.2 line height, full width, centred vertically.
        let height = 96 * 1.2
        #expect(abs(label.frame.minY - (736 - height) / 2) < 1e-9 && abs(label.frame.height - height) < 1e-9)
        #expect(label.frame.minX == 0 && label.frame.width == 414)
        #expect(h.takeEvents().isEmpty)
        #expect(h.livePackets.isEmpty)

        h.advance(to: s + 4.999)
        #expect(h.scene.phase == .countdown && h.livePackets.isEmpty)
        // s+5: the label goes, the rain starts and the first packet appears at once.
        h.advance(to: s + 5)
        #expect(h.scene.phase == .raining)
        #expect(h.scene.countdownLab == nil && label.superlayer == nil)
        #expect(h.takeEvents() == [rainEvent("raining", s: s)])
        #expect(h.livePackets.map(\.name) == ["packet-0"])
        h.advance(to: s + 5.5)
        #expect(h.scene.countdownLab == nil)
        #expect((h.scene.layer.sublayers ?? []).map(\.name) == ["packets", "labels"])

        // s+25: results for 10 s, then idle.
        h.advance(to: s + 24.999)
        #expect(h.scene.phase == .raining && h.takeEvents().isEmpty)
        h.advance(to: s + 25)
        #expect(h.scene.phase == .results)
        #expect(h.takeEvents() == [rainEvent("results", s: s, extra: [("claimed", 0), ("awarded", 0)])])
        #expect(h.decide(CGPoint(x: 100, y: 100), at: s + 25) == .closed)
        h.advance(to: s + 34.999)
        #expect(h.scene.phase == .results && h.scene.rain?.id == rainID)
        h.advance(to: s + 35)
        #expect(h.scene.phase == .idle && h.scene.rain == nil)
        #expect(h.takeEvents() == [rainEvent("idle", s: s)])
        // Idle again: a new rain can start, with its own id.
        #expect(h.start(at: s + 40, id: 10))
        #expect(h.scene.rain?.id == 10 && h.scene.phase == .countdown)
    }

    @Test func tapsAreClosedOutsideTheRain() {
        let h = Harness()
        h.start(at: 0)
        h.advance(to: 4.9)
        #expect(h.decide(CGPoint(x: 207, y: 368), at: 4.9) == .closed)
    }

    // MARK: Spawning

    @Test func fourPacketsPerSecond() throws {
        let h = Harness()
        let s: CFTimeInterval = 2
        h.start(at: s)
        h.advance(to: s + 4.99)
        #expect(h.scene.spawned == 0)
        // A packet at s+5 itself, then one every 0.25 s: 4k + 1 by s+5+k.
        for k in [0.0, 0.1, 0.24, 0.25, 1, 2.5, 3, 10, 19.5, 19.74, 19.75, 19.9] {
            h.advance(to: s + 5 + k)
            #expect(h.scene.spawned == Int((k * 4).rounded(.down)) + 1, "at s+5+\(k)")
            #expect(h.livePackets.last?.name == "packet-\(h.scene.spawned - 1)", "the newest on top")
        }
        // Falls take at least 3.5 s, so by s+8 every packet is still on screen, newest on top.
        let fresh = Harness()
        fresh.start(at: s)
        fresh.advance(to: s + 8)
        #expect(fresh.livePackets.map(\.name) == (0...12).map { "packet-\($0)" })
        // 20 s: 80 packets, packet-79 at s+24.75, none after.
        h.advance(to: s + 24.75)
        #expect(h.scene.spawned == 80 && h.livePackets.last?.name == "packet-79")
        h.advance(to: s + 40)
        #expect(h.scene.spawned == 80 && h.scene.phase == .idle)
        #expect(h.livePackets.isEmpty)
    }

    @Test func anOddDurationSpawnsItsWholeQuarters() {
        // 1.6 s: ⌊6.4⌋ = 6 packets, the last at s+5+1.25; the rain ends at s+6.6.
        let h = Harness()
        h.start(at: 0, RainSettings(duration: 1.6, pool: 10, winners: 2, minCoins: 5, maxCoins: 5, seed: 3, minVisible: 0))
        h.advance(to: 6.5)
        #expect(h.scene.spawned == 6 && h.scene.phase == .raining)
        h.advance(to: 6.6)
        #expect(h.scene.phase == .results && h.scene.spawned == 6)
    }

    @Test func theEndRemovesEveryPacketAndItsAnimations() throws {
        let h = Harness()
        h.start(at: 0)
        h.advance(to: 24.999)
        let falling = h.livePackets
        // Packets of the last ~5.5 s are still there: at least those spawned after 25 − 3.5 = 21.5.
        #expect(falling.count >= 14)
        #expect(falling.allSatisfy { $0.animationKeys() == ["fall", "spin"] })
        h.advance(to: 25)
        #expect(h.livePackets.isEmpty && h.scene.packetLayers.isEmpty)
        #expect(falling.allSatisfy { $0.superlayer == nil && $0.animationKeys() == nil })
        #expect(h.scene.phase == .results)
        // Nothing spawns during the results.
        h.advance(to: 30)
        #expect(h.livePackets.isEmpty && h.scene.spawned == 80)
    }

    // MARK: Stopping

    @Test func aStopInTheCountdownLetsNoPacketFall() throws {
        let h = Harness()
        h.start(at: 0)
        h.advance(to: 2.5)
        #expect(h.context.run { h.scene.stopRain() })
        h.events += h.scene.takeEvents()
        #expect(h.scene.phase == .results && h.scene.countdownLab == nil)
        #expect(h.scene.layer.sublayers?.map(\.name) == ["packets", "labels"])
        let results = try #require(h.takeEvents().last?.data.objectValue)
        #expect(results["phase"] == "results" && results["stoppedAt"] == 2.5 && results["claimed"] == 0)
        #expect(results["seed"] == 2024)   // it is over: the secret is revealed
        h.advance(to: 9)   // the countdown's timer would have started the rain at 5
        #expect(h.scene.spawned == 0 && h.livePackets.isEmpty && h.decide(CGPoint(x: 200, y: 300), at: 9) == .closed)
        h.advance(to: 12.5)   // results for 10 s from the stop
        #expect(h.scene.phase == .idle && h.scene.rain == nil)
    }

    @Test func aStopWhileRainingKeepsTheClaimsAndClosesTheRest() throws {
        let h = Harness()
        h.start(at: 0)
        var t = 6.0
        let won = claim(2, by: "p1", in: h, from: &t)
        #expect(won.count == 2)
        h.advance(to: t)
        let spawned = h.scene.spawned
        let falling = try #require(clearPacket(h, at: t, where: { h.scene.rain?.claimed[$0] == nil }))
        #expect(h.context.run { h.scene.stopRain() })
        #expect(!h.context.run { h.scene.stopRain() })   // once
        h.events += h.scene.takeEvents()
        #expect(h.scene.phase == .results && h.livePackets.isEmpty)
        #expect(h.decide(falling.point, at: t) == .closed)
        let rain = try #require(h.scene.rain)
        #expect(rain.stoppedAt == t && rain.claimed.count == 2 && rain.awarded == won.reduce(0) { $0 + $1.coins })
        let results = try #require(h.takeEvents().last?.data.objectValue)
        #expect(results["stoppedAt"] == .number(t) && results["claimed"] == 2 && results["endsAt"] == 25)   // the planned end: 5 s of countdown and 20 s of rain
        h.advance(to: 24.999, step: 0.25)
        #expect(h.scene.spawned == spawned)   // the spawn timer is gone
        h.advance(to: t + 10)
        #expect(h.scene.phase == .idle)
        #expect(h.takeEvents().last?.data.objectValue?["stoppedAt"] == nil)   // idle says only the rain's id and secret
        #expect(!h.context.run { h.scene.stopRain() })
    }

    // MARK: Packets

    @Test func packetsAreTheSeeds() throws {
        let h = Harness()
        h.start(at: 0)
        h.advance(to: 5)
        let first = try #require(h.livePackets.first)
        #expect(first.bounds == CGRect(x: 0, y: 0, width: 44, height: 62.5))
        #expect(first.anchorPoint == CGPoint(x: 0, y: 0))
        #expect(first.position == CGPoint(x: 0, y: -62.5))
        #expect(first.transform == CATransform3DIdentity)
        #expect(first.contents == CGImage(named: "rp_normal", width: 44, height: 62.5))

        h.advance(to: 25, step: 0.25)
        #expect(h.seen.count == 80 && h.falls.count == 80 && h.spins.count == 80)
        let draws = expectedDraws(seed: settings.seed, count: 80)
        for i in 0..<80 {
            let d = draws[i]
            let fall = try #require(h.falls[i]), spin = try #require(h.spins[i])
            // Fall: position keyframes (rand % 414, 0) → (rand % 414, 736), linear, once, removed.
            #expect(fall.keyPath == "position")
            let points = try #require(fall.values as? [CGPoint])
            #expect(points == [CGPoint(x: d.x0, y: 0), CGPoint(x: d.x1, y: 736)], "packet \(i)")
            #expect(points.allSatisfy { $0.x == $0.x.rounded() && (0...413).contains($0.x) })
            #expect(fall.duration == d.fall)
            #expect(fall.duration >= 3.5 && fall.duration <= 5.49)
            #expect(abs(fall.duration * 100 - (fall.duration * 100).rounded()) < 1e-9, "steps of 0.01")
            #expect(fall.repeatCount == 1)
            #expect(fall.timingFunction == CAMediaTimingFunction(name: .linear))
            #expect(fall.fillMode == .removed && fall.isRemovedOnCompletion)
            #expect(fall.delegate != nil)
            // Spin: transform keyframes between two whole-degree rotations about (0, 0, −1).
            #expect(spin.keyPath == "transform")
            let transforms = try #require(spin.values as? [CATransform3D])
            #expect(transforms == [rotation(degrees: d.angle0), rotation(degrees: d.angle1)], "packet \(i)")
            #expect((0..<360).contains(d.angle0) && (0..<360).contains(d.angle1))
            #expect(spin.duration == d.spin && spin.duration >= 3.5 && spin.duration <= 5.49)
            #expect(spin.timingFunction == CAMediaTimingFunction(name: .easeInEaseOut))
            #expect(spin.fillMode == .forwards && !spin.isRemovedOnCompletion)
        }
        // The draws are really spread: x over the width, durations over their range.
        #expect(Set(draws.map(\.x0)).count > 60 && Set(draws.map(\.fall)).count > 50)
    }

    @Test func packetsFallLinearlyAndSpinWithEaseInEaseOut() throws {
        let h = Harness()
        h.start(at: 0)
        h.advance(to: 7)
        let draws = expectedDraws(seed: settings.seed, count: 9)
        var checkedFill = false
        for i in 0..<9 {
            let packet = try #require(h.seen[i])
            let d = draws[i]
            let begin = 5 + 0.25 * Double(i)
            // Linear: at the fall's midpoint the position is the average of its two keyframes;
            // at a quarter, a quarter of the way.
            let mid = try #require(packet.presentation(at: begin + d.fall / 2)).position
            #expect(abs(mid.x - (d.x0 + d.x1) / 2) < 1e-9 && abs(mid.y - 368) < 1e-9, "packet \(i)")
            let quarter = try #require(packet.presentation(at: begin + d.fall / 4)).position
            #expect(abs(quarter.x - (d.x0 + (d.x1 - d.x0) / 4)) < 1e-9 && abs(quarter.y - 184) < 1e-9)
            // Spin: the angle (about −z, the short way) follows easeInEaseOut of the spin's fraction.
            var delta = Double(d.angle1 - d.angle0)
            if delta > 180 { delta -= 360 } else if delta < -180 { delta += 360 }
            guard abs(abs(delta) - 180) > 1 else { continue }
            for fraction in [0.25, 0.5, 0.8] {
                let t = try #require(packet.presentation(at: begin + d.spin * fraction)).transform
                let expected = -(Double(d.angle0) + easeInEaseOut(fraction) * delta) * .pi / 180
                #expect(abs(Double(t.m11) - cos(expected)) < 1e-6 && abs(Double(t.m12) - sin(expected)) < 1e-6,
                        "packet \(i) at \(fraction)")
            }
            // Fill forwards: after the spin, before the fall ends, it holds the last rotation.
            if d.spin < d.fall - 0.05 {
                let held = try #require(packet.presentation(at: begin + (d.spin + d.fall) / 2)).transform
                let r1 = rotation(degrees: d.angle1)
                #expect(abs(held.m11 - r1.m11) < 1e-9 && abs(held.m12 - r1.m12) < 1e-9)
                checkedFill = true
            }
        }
        #expect(checkedFill)
    }

    @Test func aPacketLeavesWhenItsFallEnds() throws {
        let h = Harness()
        h.start(at: 0)
        h.advance(to: 5)
        let packet = try #require(h.seen[0])
        let fall = expectedDraws(seed: settings.seed, count: 1)[0].fall
        h.advance(to: 5 + fall - 0.001)
        #expect(packet.superlayer === h.scene.packets)
        #expect(try #require(packet.presentation(at: 5 + fall - 0.001)).position.y > 735)
        h.advance(to: 5 + fall)
        #expect(packet.superlayer == nil && h.scene.packetLayers[0] == nil)
    }

    // MARK: Taps

    @Test func aTapOnAPacketClaimsItAndOneBesideItMisses() throws {
        let h = Harness()
        h.start(at: 0)
        var found: (packet: Int, point: CGPoint, outside: CGPoint, time: CFTimeInterval)?
        var t = 9.0
        search: while t < 24 {
            h.advance(to: t)
            for layer in h.livePackets {
                let centre = scenePoint(layer, CGPoint(x: 22, y: 31), at: t)
                let outside = scenePoint(layer, CGPoint(x: -5, y: 31), at: t)
                guard onScreen(centre), onScreen(outside) else { continue }
                let alone = h.livePackets.allSatisfy { $0 === layer || depth(of: centre, in: $0, at: t) < -2 }
                let clear = h.livePackets.allSatisfy { depth(of: outside, in: $0, at: t) < -2 }
                if alone && clear {
                    found = (h.index(of: layer), centre, outside, t)
                    break search
                }
            }
            t += 0.5
        }
        let target = try #require(found)
        let plan = try #require(h.scene.rain?.plan)
        let claim = Claim(round: rainID, item: target.packet, coins: plan.prizes[target.packet] ?? 0,
                          point: target.point, time: target.time)
        #expect(h.decide(target.point, at: target.time) == .claim(claim))
        // 5 pt left of its rotated rect: nothing there.
        #expect(h.decide(target.outside, at: target.time) == .miss)
        // A claim not committed changes nothing.
        #expect(h.scene.rain?.claimed.isEmpty == true && h.scene.takeEvents().isEmpty)
        // Outside the scene rect is a miss whatever waits above the screen.
        #expect(h.decide(CGPoint(x: 10, y: -10), at: target.time) == .miss)

        // Committed and confirmed, the same point is taken by that player.
        #expect(h.tap(target.point, at: target.time, by: "p7") == .claim(claim))
        #expect(h.decide(target.point, at: target.time) == .taken(packet: target.packet))
        #expect(h.scene.rain?.claimed == [target.packet: "p7"])
    }

    @Test func theTopmostOfOverlappingPacketsWins() throws {
        let h = Harness()
        h.start(at: 0)
        var checked = 0
        var t = 8.0
        while t < 24, checked < 5 {
            h.advance(to: t)
            let live = h.livePackets
            pairs: for (a, lower) in live.enumerated() {
                for upper in live[(a + 1)...] {
                    for qx in stride(from: 4.0, through: 40, by: 6) {
                        for qy in stride(from: 4.0, through: 58, by: 6) {
                            let p = scenePoint(upper, CGPoint(x: qx, y: qy), at: t)
                            guard onScreen(p), depth(of: p, in: lower, at: t) > 1 else { continue }
                            let depths = live.map { depth(of: p, in: $0, at: t) }
                            guard depths.allSatisfy({ abs($0) > 1 }) else { continue }
                            let top = try #require(live.indices.last { depths[$0] > 0 })
                            #expect(top >= live.firstIndex { $0 === upper }!)
                            guard case .claim(let claim) = h.decide(p, at: t) else {
                                Issue.record("no claim at \(p), \(t)")
                                return
                            }
                            #expect(claim.item == h.index(of: live[top]))
                            #expect(claim.item > h.index(of: lower), "the later packet is on top")
                            checked += 1
                            break pairs
                        }
                    }
                }
            }
            t += 1.5
        }
        #expect(checked >= 3)
    }

    @Test func confirmOpensThePacketAndFloatsTheLabel() throws {
        let h = Harness()
        h.start(at: 0)
        let plan = try #require(h.scene.rain?.plan)
        // One winning and one empty packet, each tapped at its clear centre.
        for wins in [true, false] {
            var target: (packet: Int, point: CGPoint)?
            var t = h.stage.now + 1
            while target == nil, t < 22 {
                h.advance(to: t)
                target = clearPacket(h, at: t) { (plan.prizes[$0] != nil) == wins && h.scene.rain?.claimed[$0] == nil }
                if target == nil { t += 0.5 }
            }
            let (index, point) = try #require(target)
            let packet = try #require(h.scene.packetLayers[index])
            let position = packet.presentation(at: t)!.position
            let coins = plan.prizes[index] ?? 0
            #expect((coins > 0) == wins)
            _ = h.takeEvents()
            #expect(h.tap(point, at: t, by: "p1", name: "Ann", total: 120, client: "c1", id: 7)
                    == .claim(Claim(round: rainID, item: index, coins: coins, point: point, time: t)))

            // The image and size change at once (actions disabled), the top-left stays, and the
            // packet keeps falling and spinning.
            let size = wins ? CGSize(width: 63.5, height: 74) : CGSize(width: 45.5, height: 76.5)
            #expect(packet.contents == CGImage(named: wins ? "rp_yes" : "rp_no", width: size.width, height: size.height))
            #expect(packet.bounds == CGRect(origin: .zero, size: size))
            #expect(packet.anchorPoint == .zero && packet.animationKeys() == ["fall", "spin"])
            #expect(packet.presentation(at: t)!.position == position)
            #expect(packet.presentation(at: t + 0.1)!.position.y > position.y)

            // Events: the award to the room, then the result to the tapper alone.
            #expect(h.takeEvents() == [
                SceneEvent(name: "award", data: [
                    "rain": 9, "packet": .number(Double(index)), "player": "p1", "name": "Ann",
                    "coins": .number(Double(coins)), "total": 120, "x": .number(point.x), "y": .number(point.y),
                ], client: "c1"),
                SceneEvent(name: "tap", data: ["result": "award", "packet": .number(Double(index)),
                                               "coins": .number(Double(coins)), "id": 7],
                           client: "c1", audience: .client),
            ])

            // The label: a 100 × 30 box at (x − 50, y), corner radius 5, centred text.
            let box = try #require(h.scene.labels.sublayers?.last)
            #expect(box.name == "label-\(index)")
            #expect(box.cornerRadius == 5 && box.bounds.size == CGSize(width: 100, height: 30))
            let text = try #require(box.sublayers?.first as? CATextLayer)
            #expect(text.alignmentMode == .center)
            let gold = CGColor(red: 1, green: 223 / 255, blue: 14 / 255, alpha: 1)
            if wins {
                #expect(text.runs == [CATextRun("+", fontSize: 27, color: gold),
                                      CATextRun("\(coins)", fontSize: 32, fontWeight: 0.3, color: gold),
                                      CATextRun("金币", fontSize: 17, color: gold)])
            } else {
                #expect(text.runs == nil && text.string == "旺旺年!人旺旺")
                #expect(text.textRuns == [CATextRun("旺旺年!人旺旺", fontSize: 17, color: .white)])
            }
            // Centred: the text layer's centre is the box's.
            #expect(abs(text.frame.midX - 50) < 1e-9 && abs(text.frame.midY - 15) < 1e-9)

            // Over 1 s with easeInEaseOut: opacity 1 → 0 and y → y − 100 (centre y + 15 → y − 85).
            #expect(box.opacity == 0)
            #expect(box.frame == CGRect(x: point.x - 50, y: point.y - 100, width: 100, height: 30))
            let start = try #require(box.presentation(at: t))
            #expect(start.opacity == 1 && start.position == CGPoint(x: point.x, y: point.y + 15))
            let half = try #require(box.presentation(at: t + 0.5))
            #expect(abs(Double(half.opacity) - 0.5) < 1e-5)
            #expect(abs(half.position.y - (point.y - 35)) < 1e-4 && half.position.x == point.x)
            let quarter = try #require(box.presentation(at: t + 0.25))
            #expect(abs(Double(quarter.opacity) - (1 - easeInEaseOut(0.25))) < 1e-5)
            #expect(abs(Double(quarter.position.y) - (point.y + 15 - 100 * easeInEaseOut(0.25))) < 1e-3)
            h.advance(to: t + 0.999)
            #expect(box.superlayer === h.scene.labels)
            h.advance(to: t + 1)
            #expect(box.superlayer == nil)
            #expect(h.takeEvents().isEmpty)
        }
        // The results count both claims and the coins paid.
        h.advance(to: 25)
        let results = try #require(h.takeEvents().last)
        let paid = h.scene.rain!.claimed.keys.reduce(0) { $0 + (plan.prizes[$1] ?? 0) }
        #expect(results == rainEvent("results", s: 0, extra: [("claimed", 2), ("awarded", .number(Double(paid)))]))
        #expect(paid > 0)
    }

    @Test func answersAreForTheTapperOnly() throws {
        let h = Harness()
        let s = 0.0
        h.start(at: s)
        _ = h.takeEvents()
        #expect(h.tap(CGPoint(x: 100, y: 100), at: s, client: "c1", id: "a") == .answered)
        #expect(h.takeEvents() == [SceneEvent(name: "tap", data: ["result": "closed", "id": "a"], client: "c1", audience: .client)])

        // The room's path decides before it commits: a tap on a free packet is a claim that, not
        // committed, announces nothing and claims nothing.
        h.advance(to: 12)
        _ = h.takeEvents()
        let target = try #require(clearPacket(h, at: 12))
        let coins = h.scene.rain?.plan.prizes[target.packet] ?? 0
        let claim = Claim(round: rainID, item: target.packet, coins: coins, point: target.point, time: 12)
        #expect(h.decide(target.point, at: 12) == .claim(claim))
        #expect(h.takeEvents().isEmpty && h.scene.rain?.claimed.isEmpty == true)
        #expect(h.tap(CGPoint(x: 10, y: -5), at: 12, client: "c2") == .answered)
        #expect(h.takeEvents() == [SceneEvent(name: "tap", data: ["result": "miss"], client: "c2", audience: .client)])

        // Committed, it is confirmed; a tap on it after that is taken.
        #expect(h.tap(target.point, at: 12, by: "p1", client: "c1") == .claim(claim))
        #expect(h.takeEvents().map(\.name) == ["award", "tap"])
        #expect(h.tap(target.point, at: 12, by: "p9", client: "c3", id: 12) == .answered)
        #expect(h.takeEvents() == [SceneEvent(name: "tap", data: ["result": "taken", "packet": .number(Double(claim.item)), "id": 12],
                                              client: "c3", audience: .client)])

        // A second confirm of the same packet answers taken; a claim for another rain, closed.
        h.confirm(claim, player: "p2", client: "c2", id: 3)
        #expect(h.takeEvents() == [SceneEvent(name: "tap", data: ["result": "taken", "packet": .number(Double(claim.item)), "id": 3],
                                              client: "c2", audience: .client)])
        var stale = claim
        stale.round = 8
        h.confirm(stale, player: "p3", client: "c3")
        #expect(h.takeEvents() == [SceneEvent(name: "tap", data: ["result": "closed"], client: "c3", audience: .client)])
        #expect(h.scene.rain?.claimed == [claim.item: "p1"])
        #expect(h.scene.labels.sublayers?.count == 1)
    }

    @Test func labelsAreGoneWhenTheSceneIsIdle() throws {
        // Results of 0.5 s: a label floated at the very end is removed with the rain.
        let h = Harness(configuration: .init(resultsDuration: 0.5))
        h.start(at: 0)
        h.advance(to: 24.8)
        let target = try #require(clearPacket(h, at: 24.8))
        guard case .claim = h.tap(target.point, at: 24.8) else { Issue.record("no claim"); return }
        #expect(h.scene.labels.sublayers?.count == 1)
        h.advance(to: 25.3)
        #expect(h.scene.phase == .results && h.scene.labels.sublayers?.count == 1)
        h.advance(to: 25.5)
        #expect(h.scene.phase == .idle && h.scene.labels.sublayers == nil)
        h.advance(to: 26)
        #expect(h.scene.labels.sublayers == nil)
    }

    // MARK: Determinism and replay

    /// What a viewer sees of the packets and labels at `t`.
    private func snapshot(_ h: Harness, at t: CFTimeInterval) -> [String] {
        var lines: [String] = []
        for container in [h.scene.packets, h.scene.labels] {
            for layer in container.sublayers ?? [] {
                let p = layer.presentation(at: t)!.properties
                lines.append("\(layer.name!) \(p.position) \(p.bounds) \(p.transform) \(p.opacity) \(p.contents?.name ?? "")")
            }
        }
        return lines
    }

    @Test func theSameSeedGivesTheSameRainAtAnyStep() {
        let checkpoints: [CFTimeInterval] = [3, 6.01, 9.37, 14.71, 20, 26.5, 31]
        let steps: [CFTimeInterval?] = [1.0 / 30, 1.0 / 7, nil]
        var runs: [[[String]]] = []
        var eventRuns: [[SceneEvent]] = []
        for step in steps {
            let h = Harness()
            h.start(at: 0.7)
            var shots: [[String]] = []
            for c in checkpoints {
                if let step { h.advance(to: c, step: step) } else { h.advance(to: c) }
                shots.append(snapshot(h, at: c))
            }
            runs.append(shots)
            eventRuns.append(h.events)
        }
        #expect(runs[0] == runs[1] && runs[0] == runs[2])
        #expect(eventRuns[0] == eventRuns[1] && eventRuns[0] == eventRuns[2])
        #expect(runs[0][2].count > 10)
        // Another seed, another rain.
        let other = Harness()
        other.start(at: 0.7, RainSettings(seed: 2025, minVisible: 0))
        other.advance(to: 9.37)
        #expect(snapshot(other, at: 9.37) != runs[0][2])
    }

    @Test func aReplayGivesTheLiveOutcomes() throws {
        // Live: a room ticking at 30 fps from s = 31/30; taps arrive between ticks and are resolved
        // 0.12 s in the past (the client's view), then confirmed.
        let live = Harness()
        let s = 31.0 / 30
        live.start(at: s)
        var taps: [RainReplay.Tap] = []
        var outcomes: [RainReplay.Outcome?] = []
        var emptyPoint: (point: CGPoint, viewTime: CFTimeInterval)?
        for (n, k) in [2.0, 4.5, 7, 9.3, 12, 15.2, 18].enumerated() {
            let serverTime = s + 5 + k + 0.013
            live.advance(to: (serverTime * 30).rounded(.down) / 30, step: 1.0 / 30)
            live.advance(to: serverTime)
            let viewTime = serverTime - 0.12
            let player = "p\(n % 3)"
            guard let target = clearPacket(live, at: viewTime, where: { live.scene.rain?.claimed[$0] == nil }) else { continue }
            guard case .claim(let claim) = live.tap(target.point, at: viewTime, by: player, name: "Player \(n)") else {
                Issue.record("no claim")
                continue
            }
            taps.append(RainReplay.Tap(player: player, name: "Player \(n)", point: target.point, viewTime: viewTime, serverTime: serverTime))
            outcomes.append(RainReplay.Outcome(packet: claim.item, coins: claim.coins, player: player))
            // A tap on the same packet a moment later is taken: not accepted, not recorded.
            #expect(live.decide(target.point, at: viewTime) == .taken(packet: claim.item))
            #expect(live.scene.rain?.claimed[claim.item] == player)
            if emptyPoint == nil {
                for x in stride(from: 20.0, through: 390, by: 10) {
                    let p = CGPoint(x: x, y: 300)
                    if live.livePackets.allSatisfy({ depth(of: p, in: $0, at: viewTime) < -2 }) {
                        emptyPoint = (p, viewTime)
                        break
                    }
                }
            }
        }
        live.advance(to: s + 40, step: 1.0 / 30)
        #expect(taps.count >= 5)
        #expect(outcomes.contains { ($0?.coins ?? 0) > 0 } || outcomes.count < 5)

        let replayed = RainReplay.run(id: rainID, settings: settings, configuration: .init(), mediaStart: s, taps: taps)
        #expect(replayed == outcomes)

        // Tampered: the first tap moved to where no packet was gives nothing; the audit sees it.
        let empty = try #require(emptyPoint)
        #expect(empty.viewTime == taps[0].viewTime)
        var tampered = taps
        tampered[0].point = empty.point
        let audit = RainReplay.run(id: rainID, settings: settings, configuration: .init(), mediaStart: s, taps: tampered)
        #expect(audit[0] == nil)
        #expect(audit != outcomes)
        // Another seed in the settings replays another rain.
        var wrong = settings
        wrong.seed = 2025
        #expect(RainReplay.run(id: rainID, settings: wrong, configuration: .init(), mediaStart: s, taps: taps) != outcomes)
    }

    @Test func aRebuildLateInALongRainIsTheLiveRain() throws {
        // Live: a 60 s rain in a room ticking at 30 fps, a free packet tapped every 0.5 s (seen
        // 0.12 s before the tap arrives) by one of five players, until 52 s into the fall.
        let long = RainSettings(duration: 60, pool: 3000, winners: 120, minCoins: 1, maxCoins: 50, seed: 77,
                                maxAwardsPerPlayer: 40, maxCoinsPerPlayer: 900)
        let live = Harness()
        let s = 31.0 / 30
        live.start(at: s, long)
        var taps: [RainReplay.Tap] = []
        var outcomes: [RainReplay.Outcome?] = []
        for k in stride(from: 1.0, through: 52, by: 0.5) {
            let serverTime = s + 5 + k + 0.013
            live.advance(to: (serverTime * 30).rounded(.down) / 30, step: 1.0 / 30)
            live.advance(to: serverTime)
            let viewTime = serverTime - 0.12
            let player = "p\(taps.count % 5)"
            guard let target = clearPacket(live, at: viewTime, where: { live.scene.rain?.claimed[$0] == nil }),
                  case .claim(let claim) = live.tap(target.point, at: viewTime, by: player, name: player) else { continue }
            taps.append(RainReplay.Tap(player: player, name: player, point: target.point, viewTime: viewTime, serverTime: serverTime))
            outcomes.append(RainReplay.Outcome(packet: claim.item, coins: claim.coins, player: player))
        }
        #expect(taps.count >= 80)
        let last = try #require(taps.last).serverTime
        #expect(live.stage.now == last)
        _ = live.takeEvents()

        // Taken over just after the last award: the rebuilt scene is the live one, now and later.
        let rebuilt = RainReplay.rebuild(id: rainID, settings: long, configuration: .init(), mediaStart: s, taps: taps)
        #expect(rebuilt.outcomes == outcomes)
        #expect(rebuilt.stage.now == last)
        let taken = Harness(stage: rebuilt.stage, scene: rebuilt.scene)
        #expect(taken.scene.rain == live.scene.rain)
        #expect(taken.scene.spawned == live.scene.spawned)
        #expect(snapshot(taken, at: last) == snapshot(live, at: last))
        #expect(snapshot(taken, at: last).count > 15)
        for t in [last + 1.0 / 30, last + 0.77, last + 4.2, s + 5 + 60.5, s + 5 + 71] {
            live.advance(to: t, step: 1.0 / 30)
            taken.advance(to: t)
            #expect(snapshot(taken, at: t) == snapshot(live, at: t), "at \(t)")
            #expect(taken.takeEvents() == live.takeEvents(), "events by \(t)")
            #expect(taken.scene.phase == live.scene.phase)
        }
        #expect(taken.scene.phase == .idle)
    }
}

// Provably fair rains and the per-player rules (docs/protocol.md, "Provably fair rains").
@Suite struct FairRainTests {
    /// The worked example of docs/protocol.md; its digest was computed with Python's hashlib
    /// (and `sha256sum`), not with this code.
    static let example = RainSettings(seed: 7, maxAwardsPerPlayer: 15, maxCoinsPerPlayer: 161, salt: Array(0..<32))

    @Test func theCommitmentHashesTheDocumentedLine() {
        let commitment = RainCommitment(settings: Self.example, size: CGSize(width: 414, height: 736))
        #expect(commitment.text == "layercast-rain/1 seed=7 salt=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f "
            + "duration=20 pool=888 winners=27 minCoins=8 maxCoins=88 maxAwardsPerPlayer=15 maxCoinsPerPlayer=161 "
            + "minVisible=0.3 tapRate=8 width=414 height=736\n")
        #expect(commitment.digest == "67731ce02d4f43aa9f8f98875b397cd9218686aaf94d39e629f2043a7b5eb434")
        var other = Self.example
        other.salt[31] ^= 1
        #expect(RainCommitment(settings: other, size: CGSize(width: 414, height: 736)).digest != commitment.digest)
        #expect(RainCommitment.bytes(hex: RainCommitment.hex(other.salt)) == other.salt)
        #expect(RainCommitment.bytes(hex: "0g") == nil && RainCommitment.bytes(hex: "abc") == nil)
    }

    @Test func aSaltedPlanFollowsTheSaltNotTheSeedAlone() {
        // The first 8 bytes of SHA-256("layercast-prizes/1" ‖ salt ‖ seed), from Python's hashlib.
        #expect(RainCommitment.prizeSeed(Self.example) == 8_016_454_027_597_559_660)
        let plan = PrizePlan(settings: Self.example)
        #expect(plan == PrizePlan(settings: Self.example))
        #expect(plan.prizes.count == 27 && plan.prizes.values.reduce(0, +) == 888)
        var unsalted = Self.example
        unsalted.salt = []
        #expect(plan != PrizePlan(settings: unsalted))
        var resalted = Self.example
        resalted.salt = Array(repeating: 9, count: 32)
        #expect(plan.prizes.keys.sorted() != PrizePlan(settings: resalted).prizes.keys.sorted())
    }

    @Test func fairShareLimitsAreTwiceAnEqualShare() {
        #expect(RainSettings.fairShareLimits(packets: 80, pool: 888, players: 11) == (15, 161))
        #expect(RainSettings.fairShareLimits(packets: 40, pool: 400, players: 11) == (8, 72))
        #expect(RainSettings.fairShareLimits(packets: 80, pool: 888, players: 0) == (160, 1776))
        #expect(RainSettings.fairShareLimits(packets: 4, pool: 1, players: 50) == (1, 1))
        #expect(RainSettings.fairShareLimits(packets: 4, pool: .max, players: 1).coins == .max)
    }

    @Test func aPacketMustHaveBeenOnScreenForMinVisible() throws {
        let h = Harness()
        h.start(at: 0, RainSettings(seed: 2024, minVisible: 0.3))
        // Packet 0 appears at 5 s; at 5.1 and 5.2999 it is too young, from 5.3 it can be claimed
        // (to the microsecond: 5.3 − 5.0 is 0.29999… in binary).
        h.advance(to: 5.1)
        let young = try #require(clearPacket(h, at: 5.1) { $0 == 0 })
        #expect(h.decide(young.point, at: 5.1) == .tooSoon(packet: 0))
        h.advance(to: 5.3)
        let seen = try #require(clearPacket(h, at: 5.2999) { $0 == 0 })
        #expect(h.decide(seen.point, at: 5.2999) == .tooSoon(packet: 0))
        let grown = try #require(clearPacket(h, at: 5.3) { $0 == 0 })
        guard case .claim(let claim) = h.decide(grown.point, at: 5.3) else {
            Issue.record("packet 0 not claimable at 5.3")
            return
        }
        #expect(claim.item == 0)
        _ = h.takeEvents()
        #expect(h.tap(seen.point, at: 5.2999, client: "c1", id: 3) == .refused(rule: "too_soon"))
        #expect(h.takeEvents() == [SceneEvent(name: "tap", data: ["result": "too_soon", "packet": 0, "id": 3], client: "c1", audience: .client)])
    }

    @Test func aPlayerAtALimitIsRefusedAndThePacketStaysFree() throws {
        let h = Harness()
        let rain = RainSettings(seed: 2024, maxAwardsPerPlayer: 2, minVisible: 0)
        h.start(at: 0, rain)
        var t = 6.0
        let won = claim(2, by: "bot", in: h, from: &t)
        #expect(won.count == 2 && h.scene.rain?.tallies["bot"]?.packets == 2)
        h.advance(to: t)
        let free = try #require(clearPacket(h, at: t, where: { h.scene.rain?.claimed[$0] == nil }))
        #expect(h.decide(free.point, at: t, by: "bot") == .capped(.maxAwards))
        guard case .claim(let claim) = h.decide(free.point, at: t, by: "honest") else {
            Issue.record("the packet did not stay free")
            return
        }
        #expect(claim.item == free.packet)
        _ = h.takeEvents()
        #expect(h.tap(free.point, at: t, by: "bot", client: "c2") == .refused(rule: "max_awards"))
        #expect(h.takeEvents() == [SceneEvent(name: "tap", data: ["result": "capped", "rule": "max_awards"], client: "c2", audience: .client)])
    }

    @Test func theCoinLimitCutsTheLastAwardAndThenRefuses() throws {
        let h = Harness()
        // Every packet pays 10 (80 winners of a pool of 800); a player may win 25 coins.
        let rain = RainSettings(pool: 800, winners: 80, minCoins: 10, maxCoins: 10, seed: 2024, maxCoinsPerPlayer: 25, minVisible: 0)
        h.start(at: 0, rain)
        var t = 6.0
        #expect(claim(3, by: "bot", in: h, from: &t).map(\.coins) == [10, 10, 5])
        #expect(h.scene.rain?.tallies["bot"]?.coins == 25)
        #expect(h.scene.rain?.awarded == 25)
        h.advance(to: t)
        let free = try #require(clearPacket(h, at: t, where: { h.scene.rain?.claimed[$0] == nil }))
        #expect(h.decide(free.point, at: t, by: "bot") == .capped(.maxCoins))
        // The refused packet is the one under the point: it stays free, and another player claims it.
        #expect(h.decide(free.point, at: t, by: "honest") == .claim(Claim(round: rainID, item: free.packet, coins: 10, point: free.point, time: t)))
    }
}
