import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI

/// The red-packet rain (红包雨), docs/scenes.md §1, ported from seed 000's view controller the way an
/// iOS developer would write it with Core Animation: `startTime` (the countdown), then
/// `startRedPackerts`, `showRain` + `addAnimation` for every packet, `endAnimation`, and
/// `clickRed:` split into a server-side decision (`tap`) and its display (`confirm`).
///
/// Layers: the scene root (`configuration.size`, 414 × 736 by default, deep red) holds, back to
/// front, `packets` (the seed's touchView layer: `packet-0`, `packet-1`, … added on top in spawn
/// order), `labels` (the floating `label-<packet>` boxes, each with one centred CATextLayer
/// `text`) and, during the countdown only, the CATextLayer `countdown` (96 pt bold gold, centred).
/// All three containers cover the scene rect, so their coordinates are the scene's.
///
/// A rain, started at media time s by `startRain` (inside the room's context):
/// - s: phase `countdown`; the seed's 1 s dispatch timer, which first fires at once, shows "5"
///   at s, "4" at s+1, … "1" at s+4; at s+5 it cancels itself, the label is removed and the rain
///   starts (phase `raining`).
/// - s+5 … s+5+duration: 4 packets per second. The first packet is shown at s+5 itself (as
///   `[timer fire]` would), then a repeating 0.25 s timer adds the rest, so a rain of `duration`
///   seconds spawns `settings.packets = ⌊4·duration⌋` packets, the last at s+5+duration−0.25
///   at the latest.
/// - Packet (showRain): contents `rp_normal`, bounds 44 × 62.5, anchorPoint (0, 0), model position
///   (0, −62.5), above the screen.
/// - Fall (moveAnimation, key `fall`): keyframes `position` [(x0, 0), (x1, H)], x = rand % W,
///   duration (rand % 200)/100 + 3.5, repeatCount 1, linear, removed when done. When it ends its
///   delegate removes the packet layer.
/// - Spin (tranAnimation, key `spin`): keyframes `transform` [rotation(π/180·(rand % 360)) about
///   (0, 0, −1), another such], easeInEaseOut, duration (rand % 200)/100 + 3.5, fillMode
///   forwards, not removed on completion.
/// - s+5+duration (endAnimation): the spawn timer stops, every packet loses all its animations
///   and the packet layers are removed; phase `results` for `configuration.resultsDuration`
///   seconds, then `idle` (floating labels still on screen are removed too).
/// Draw order, one 64-bit word of `SeededRandom(seed: settings.seed)` per draw, per packet in
/// spawn order: x0, x1, fall duration, first angle, second angle, spin duration (the seed's order).
/// W and H are the scene size's width (whole points) and height. The scene's own `init(seed:)`
/// seed is not used: every rain brings its own seed, so any scene replays any rain.
///
/// Taps (`SceneStage.tap`): `tap` hit-tests the packets' presentation at the resolution time
/// topmost first (the seed's loop over `presentationLayer.hitTest`); a `.claim` is recorded in the
/// ledger and then applied with `confirm`, which swaps the packet's image and size (rp_yes
/// 63.5 × 74 when it pays, rp_no 45.5 × 76.5 otherwise; anchor (0, 0) keeps its top-left where it
/// was) with actions disabled (the packet keeps falling and spinning), and floats a label: a
/// 100 × 30 box, corner radius 5, at (x − 50, y), holding "旺旺年!人旺旺" (white 17 pt) or "+"
/// 27 pt, the coins 32 pt semibold, "金币" 17 pt in RGBA(255, 223, 14, 1); over 1 s (UIView's
/// easeInEaseOut) it fades to 0 and rises to y − 100, and the transaction's completion block
/// removes it.
///
/// Events (`data` is a JSON object):
/// - `rain`, to the room, client nil, at every phase change:
///   `{"phase":"countdown"|"raining"|"results","rain":id,"duration":d,"packets":n,"countdownAt":s,
///   "startsAt":s+5,"endsAt":s+5+d}`, for `results` also `"claimed":count,"awarded":coins`
///   and, when an operator stopped the rain (`stopRain`), `"stoppedAt":t`; for `idle` only
///   `{"phase":"idle","rain":id}`.
/// - `award`, to the room, client = the tapper, from `confirm`:
///   `{"rain":id,"packet":i,"player":p,"name":name,"coins":c,"total":total,"x":x,"y":y}`.
/// - `tap`, to the tapper only (audience `.client`): `{"result":"award"|"taken"|"miss"|"closed",
///   "packet":i (award, taken),"coins":c (award),"id":tap id (when given)}`; `confirm` queues it
///   right after its `award`, `tap` for every other tap.
///
/// Fixed from the seed: the spawn timer is no longer invalidated right after it is scheduled
/// (the seed's rain never fell past its first tick); a tap stops at the topmost packet (the seed
/// looped on and opened every packet under the finger, labels included, since its alert views
/// lived in the same view); packets are removed when their fall ends (the seed left them at their
/// model position above the screen, where the frozen spin can swing a corner into view) and when
/// the rain ends (the seed only removed their animations); the countdown label goes away (the seed
/// left "1" on screen); who wins is decided by the server's prize plan, not `i % 3`; a packet can
/// be won once. Taps outside the scene rect are misses (they could only hit packets waiting above
/// the screen).
public final class RainScene: Scene {
    public static let info = SceneInfo(
        id: "rain",
        title: "Red-packet rain",
        size: CGSize(width: 414, height: 736),
        interactions: ["tap"],
        assets: [
            SceneAsset(id: "rp_normal", resource: "rp-normal.svg", bundle: .module, width: 44, height: 62.5),
            SceneAsset(id: "rp_yes", resource: "rp-yes.svg", bundle: .module, width: 63.5, height: 74),
            SceneAsset(id: "rp_no", resource: "rp-no.svg", bundle: .module, width: 45.5, height: 76.5),
        ],
        summary: LocalizedText(en: "When the rain starts, tap the falling red packets to win 金币.",
                               zh: "红包雨开始后,点落下的红包赢金币。"),
        page: "rain.html"
    )

    /// The screen and timing a rain scene is made with.
    public struct Configuration: Equatable, Sendable {
        /// The scene's size in points; 414 × 736 by default.
        public var size: CGSize = CGSize(width: 414, height: 736)
        /// Seconds the results phase lasts before the scene is idle again.
        public var resultsDuration: CFTimeInterval = 10

        /// A configuration with the seed's 414 × 736 screen and 10 s of results unless told otherwise.
        public init(size: CGSize = CGSize(width: 414, height: 736), resultsDuration: CFTimeInterval = 10) {
            self.size = size
            self.resultsDuration = resultsDuration
        }
    }

    /// Where the scene is in a rain's life.
    public enum Phase: String, Sendable {
        /// No rain; the 5 s countdown before one; packets falling; the results shown before idle again.
        case idle, countdown, raining, results
    }

    // The seed's numbers.
    static let countdownFrom = 5
    static let countdownInterval: CFTimeInterval = 1
    static let spawnInterval: CFTimeInterval = 1 / RainSettings.packetsPerSecond
    static let normalSize = CGSize(width: 44, height: 62.5)
    static let yesSize = CGSize(width: 63.5, height: 74)
    static let noSize = CGSize(width: 45.5, height: 76.5)
    /// Fall and spin durations: (rand % 200)/100 + 3.5.
    static let durationSteps: UInt64 = 200
    static let durationBase: CFTimeInterval = 3.5
    static let labelSize = CGSize(width: 100, height: 30)
    static let labelCornerRadius: CGFloat = 5
    static let labelRise: CGFloat = 100
    static let labelDuration: CFTimeInterval = 1
    static let loseText = "旺旺年!人旺旺"
    static let gold = CGColor(red: 255 / 255, green: 223 / 255, blue: 14 / 255, alpha: 1)

    // Chosen values (the seed's are not given).
    /// The scene's background: a deep red behind the bright packets.
    static let backgroundColor = CGColor(red: 158 / 255, green: 22 / 255, blue: 30 / 255, alpha: 1)
    /// The countdown label: 96 pt bold gold, centred.
    static let countdownFontSize: CGFloat = 96
    static let countdownFontWeight: CGFloat = 0.4
    /// A text layer's height is its largest font size × this (one line with some leading).
    static let lineHeight: CGFloat = 1.2
    /// The label's text layer is wider than its 100 pt box ("旺旺年!人旺旺" at 17 pt is ≈ 119 pt):
    /// centred on the box and not clipped, as the seed's auto-layout-centred UILabel.
    static let labelTextWidth: CGFloat = 200

    /// How the scene was configured when made.
    public let configuration: Configuration
    /// Where the scene is in the current rain; `.idle` at the start.
    public private(set) var phase: Phase = .idle
    public var layer: CALayer
    /// The rain being counted down, run or shown; nil while idle.
    public private(set) var rain: ActiveRain?

    /// The seed's touchView layer: packets only.
    let packets: CALayer
    /// Floating labels, above the packets.
    let labels: CALayer
    /// The seed's countdownLab, in the tree during the countdown only.
    private(set) var countdownLab: CATextLayer?
    /// Live packet layers by index.
    private(set) var packetLayers: [Int: CALayer] = [:]
    /// When each packet of the current rain appeared on screen (media time).
    private var spawnTimes: [Int: CFTimeInterval] = [:]
    private var rng = SeededRandom(seed: 0)
    /// Packets spawned by the current rain.
    private(set) var spawned = 0
    private var countdownTimer: SceneTimer?
    private var timer: SceneTimer?
    private var phaseTimer: SceneTimer?
    private var events: [SceneEvent] = []

    /// The admin commands: `rain` starts a rain, `stop-rain` stops the one counting down or falling.
    public static var commands: [String] { ["rain", "stop-rain"] }

    /// The fairness rules a claim may be refused under.
    public static var tapRules: [String] { RainRule.allCases.map(\.rawValue) }

    /// `--rain-every`, `--rain-screen` and the rest (`RainOptions`).
    public static var options: [SceneOption] { RainOptions.declared }

    public static func validationError(_ options: SceneOptionValues) -> String? {
        RainOptions.validationError(options)
    }

    /// The rain with the server's screen, defaults and schedule (`RainController`).
    public static func controller(seed: UInt64, options: SceneOptionValues, services: SceneServices) -> any SceneController {
        let rain = RainOptions(options)
        let (stage, scene) = SceneStage.make { RainScene(seed: seed, configuration: rain.scene) }
        return RainController(scene: scene, stage: stage, options: rain, services: services)
    }

    public convenience init(seed: UInt64) {
        self.init(seed: seed, configuration: Configuration())
    }

    /// An idle rain scene of `configuration`; `seed` is unused, as every rain brings its own.
    public init(seed: UInt64, configuration: Configuration) {
        precondition(configuration.size.width >= 1 && configuration.size.height > 0
                     && configuration.size.width.isFinite && configuration.size.height.isFinite, "scene size")
        precondition(configuration.resultsDuration.isFinite && configuration.resultsDuration >= 0, "resultsDuration")
        self.configuration = configuration
        let rect = CGRect(origin: .zero, size: configuration.size)
        layer = CALayer()
        layer.frame = rect
        layer.backgroundColor = Self.backgroundColor

        packets = CALayer()
        packets.name = "packets"
        packets.frame = rect
        layer.addSublayer(packets)

        labels = CALayer()
        labels.name = "labels"
        labels.frame = rect
        layer.addSublayer(labels)
    }

    deinit {
        countdownTimer?.invalidate()
        timer?.invalidate()
        phaseTimer?.invalidate()
    }

    // MARK: Starting

    /// Starts a rain now (`CACurrentMediaTime()`; call inside the room's context). Only when idle:
    /// returns false otherwise and changes nothing. `settings` must be valid (precondition);
    /// `plan` is the settings' prize plan (pass the one already made, e.g. for the ledger).
    @discardableResult
    public func startRain(id: Int64, settings: RainSettings, plan: PrizePlan? = nil) -> Bool {
        precondition(settings.validationError() == nil, "invalid rain settings: \(settings.validationError() ?? "")")
        guard phase == .idle else { return false }
        let now = CACurrentMediaTime()
        let startsAt = now + CFTimeInterval(Self.countdownFrom) * Self.countdownInterval
        rain = ActiveRain(id: id, settings: settings, plan: plan ?? PrizePlan(settings: settings),
                          countdownAt: now, startsAt: startsAt, endsAt: startsAt + settings.duration, claimed: [:],
                          commitment: RainCommitment(settings: settings, size: configuration.size))
        spawnTimes = [:]
        rng = SeededRandom(seed: settings.seed)
        spawned = 0
        setPhase(.countdown)
        startTime()
        return true
    }

    /// The seed's startTime: a timer firing at once and then every second shows 5, 4, 3, 2, 1;
    /// the sixth firing cancels it and starts the rain.
    private func startTime() {
        let countdownLab = CATextLayer()
        countdownLab.name = "countdown"
        let height = Self.countdownFontSize * Self.lineHeight
        countdownLab.frame = CGRect(x: 0, y: (configuration.size.height - height) / 2,
                                    width: configuration.size.width, height: height)
        countdownLab.fontSize = Self.countdownFontSize
        countdownLab.fontWeight = Self.countdownFontWeight
        countdownLab.foregroundColor = Self.gold
        countdownLab.alignmentMode = .center
        layer.addSublayer(countdownLab)
        self.countdownLab = countdownLab

        var timeout = Self.countdownFrom
        countdownTimer = SceneContext.current.schedule(after: 0, repeating: Self.countdownInterval) { [weak self] timer in
            guard let self else { return timer.invalidate() }
            if timeout <= 0 {
                timer.invalidate()
                self.countdownLab?.removeFromSuperlayer()
                self.countdownLab = nil
                self.startRedPackets()
            } else {
                self.countdownLab?.string = "\(timeout)"
                timeout -= 1
            }
        }
    }

    /// The seed's startRedPackerts, without its `[self.timer invalidate]` right after scheduling:
    /// the first packet now, then one every 0.25 s until the rain's packets are all out.
    private func startRedPackets() {
        guard let rain else { return }
        setPhase(.raining)
        showRain()
        if spawned < rain.settings.packets {
            timer = SceneContext.current.schedule(after: Self.spawnInterval, repeating: Self.spawnInterval) { [weak self] timer in
                guard let self, let rain = self.rain, self.spawned < rain.settings.packets else { return timer.invalidate() }
                self.showRain()
                if self.spawned >= rain.settings.packets { timer.invalidate() }
            }
        }
        phaseTimer = SceneContext.current.schedule(after: rain.settings.duration) { [weak self] _ in
            self?.endAnimation()
        }
    }

    // MARK: Packets

    /// The seed's showRain: one closed packet above the screen, on top of the others.
    private func showRain() {
        let index = spawned
        spawned += 1
        let moveLayer = CALayer()
        moveLayer.name = "packet-\(index)"
        moveLayer.bounds = CGRect(origin: .zero, size: Self.normalSize)
        moveLayer.anchorPoint = CGPoint(x: 0, y: 0)
        moveLayer.position = CGPoint(x: 0, y: -Self.normalSize.height)
        moveLayer.contents = CGImage(named: "rp_normal", width: Self.normalSize.width, height: Self.normalSize.height)
        packets.addSublayer(moveLayer)
        packetLayers[index] = moveLayer
        spawnTimes[index] = CACurrentMediaTime()

        addAnimation(to: moveLayer, index: index)
    }

    /// arc4random() % n, one word of the rain's generator per draw.
    private func random(_ n: UInt64) -> UInt64 { rng.next() % n }

    /// The seed's addAnimation: the fall, then the spin, drawing in the seed's order.
    private func addAnimation(to moveLayer: CALayer, index: Int) {
        let width = UInt64(configuration.size.width)   // whole points: x in 0…W−1
        let moveAnimation = CAKeyframeAnimation(keyPath: "position")
        let a = CGPoint(x: CGFloat(random(width)), y: 0)
        let b = CGPoint(x: CGFloat(random(width)), y: configuration.size.height)
        moveAnimation.values = [a, b]
        moveAnimation.duration = Double(random(Self.durationSteps)) / 100.0 + Self.durationBase
        moveAnimation.repeatCount = 1
        moveAnimation.timingFunction = CAMediaTimingFunction(name: .linear)
        moveAnimation.delegate = PacketFallDelegate(scene: self, index: index)
        moveLayer.add(moveAnimation, forKey: "fall")

        let tranAnimation = CAKeyframeAnimation(keyPath: "transform")
        let r0 = CATransform3DMakeRotation(.pi / 180 * CGFloat(random(360)), 0, 0, -1)
        let r1 = CATransform3DMakeRotation(.pi / 180 * CGFloat(random(360)), 0, 0, -1)
        tranAnimation.values = [r0, r1]
        tranAnimation.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        tranAnimation.duration = Double(random(Self.durationSteps)) / 100.0 + Self.durationBase
        // So that the spin does not jump back to its start when it is done (the seed's comment).
        tranAnimation.fillMode = .forwards
        tranAnimation.isRemovedOnCompletion = false
        moveLayer.add(tranAnimation, forKey: "spin")
    }

    /// A packet's fall ran to its end: it is back at its model position above the screen, so it
    /// leaves the tree.
    fileprivate func packetDidLand(_ index: Int) {
        packetLayers.removeValue(forKey: index)?.removeFromSuperlayer()
    }

    /// Stops the rain counting down or falling, now (`CACurrentMediaTime()`; call inside the
    /// room's context): the countdown goes and no packet falls, or the packets go as at the rain's
    /// end; either way the results phase follows, with `stoppedAt` set. Claims already made stand;
    /// no tap claims anything after. Returns false, changing nothing, in any other phase.
    @discardableResult
    public func stopRain() -> Bool {
        guard phase == .countdown || phase == .raining else { return false }
        rain?.stoppedAt = CACurrentMediaTime()
        countdownTimer?.invalidate()
        countdownLab?.removeFromSuperlayer()
        countdownLab = nil
        phaseTimer?.invalidate()
        endAnimation()
        return true
    }

    /// The seed's endAnimation: stop spawning and remove every packet's animations (packets still
    /// falling jump back above the screen), then remove the packets themselves.
    private func endAnimation() {
        timer?.invalidate()
        for layer in packets.sublayers ?? [] {
            layer.removeAllAnimations()
        }
        for layer in packets.sublayers ?? [] {
            layer.removeFromSuperlayer()
        }
        packetLayers = [:]
        setPhase(.results)
        phaseTimer = SceneContext.current.schedule(after: configuration.resultsDuration) { [weak self] _ in
            self?.finishRain()
        }
    }

    private func finishRain() {
        for label in labels.sublayers ?? [] {
            label.removeFromSuperlayer()
        }
        setPhase(.idle)
        rain = nil
    }

    private func setPhase(_ newPhase: Phase) {
        phase = newPhase
        if let event = phaseEvent() { events.append(event) }
    }

    /// The `rain` event of the current phase (nil when idle between rains); with `client`, for
    /// that client alone: what a client joining mid-rain is told.
    public func phaseEvent(for client: String? = nil) -> SceneEvent? {
        guard let rain else { return nil }
        var data: JSONObject = ["phase": .string(phase.rawValue), "rain": .number(Double(rain.id)),
                                "commitment": .string(rain.commitment.digest)]
        if phase != .idle {
            let settings = rain.settings
            data["duration"] = .number(settings.duration)
            data["packets"] = .number(Double(settings.packets))
            data["countdownAt"] = .number(rain.countdownAt)
            data["startsAt"] = .number(rain.startsAt)
            data["endsAt"] = .number(rain.endsAt)
            data["limits"] = settings.limitsJSON
        }
        if phase == .results {
            data["claimed"] = .number(Double(rain.claimed.count))
            data["awarded"] = .number(Double(rain.awarded))
        }
        if phase != .idle, let stoppedAt = rain.stoppedAt { data["stoppedAt"] = .number(stoppedAt) }
        // The packets have stopped: the secret that decided them is revealed.
        if phase == .results || phase == .idle {
            data["seed"] = .number(Double(rain.settings.seed))
            data["salt"] = .string(RainCommitment.hex(rain.settings.salt))
        }
        return SceneEvent(name: "rain", data: .object(data), client: client, audience: client == nil ? .room : .client)
    }

    // MARK: Taps

    /// The room's tap path (`SceneStage.tap`), ignoring `hit`: the topmost packet whose
    /// presentation at `time` contains `point` (scene coordinates), labels and everything else
    /// aside. A free packet the rain's rules let the tapper have is a `.claim` that changes nothing
    /// until it is committed and `confirm`ed; every other tap is answered to the tapper at once:
    /// `closed` unless the rain is falling, `miss` (also outside the scene rect), `taken`, or
    /// refused under a rule (`capped`, `too_soon`).
    @discardableResult
    public func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by tapper: Tapper) -> TapOutcome {
        guard phase == .raining, let rain else { return answer("closed", to: tapper) }
        guard let index = packet(at: point, time: time) else { return answer("miss", to: tapper) }
        if rain.claimed[index] != nil { return answer("taken", packet: index, to: tapper) }
        if let rule = rain.refusal(to: tapper.player, age: time - (spawnTimes[index] ?? -.infinity)) {
            events.append(rule == .tooSoon ? tapEvent("too_soon", packet: index, for: tapper) : tapEvent("capped", rule: rule, for: tapper))
            return .refused(rule: rule.rawValue)
        }
        return .claim(rain.claim(of: index, by: tapper.player, at: point, time: time))
    }

    /// The index of the topmost packet whose presentation at `time` contains `point`; nil outside
    /// the scene rect (only packets waiting above the screen are there).
    private func packet(at point: CGPoint, time: CFTimeInterval) -> Int? {
        guard CGRect(origin: .zero, size: configuration.size).contains(point) else { return nil }
        // The seed's loop over the sublayers' presentations, from the top, stopping at the first
        // hit; each packet's presentation is evaluated as the loop reaches it (`hitTest(_:at:)`).
        for layer in (packets.sublayers ?? []).reversed() where layer.hitTest(point, at: time) != nil {
            if let index = packetLayers.first(where: { $0.value === layer })?.key { return index }
        }
        return nil
    }

    /// Applies a claim of `tap` that has been committed (call inside the room's context): the
    /// packet's image and size change, the label floats, and the scene announces `award` to the
    /// room and the `tap` result to the tapper. A claim for another rain is answered `closed`, one
    /// for a packet already claimed `taken`, and nothing else changes. A packet that has already
    /// left the tree is still awarded (the label floats where it was tapped).
    public func confirm(_ claim: Claim, total: Int, for tapper: Tapper) {
        guard var rain, rain.id == claim.round else { return events.append(tapEvent("closed", for: tapper)) }
        if rain.claimed[claim.item] != nil { return events.append(tapEvent("taken", packet: claim.item, for: tapper)) }
        rain.record(claim, for: tapper.player)
        self.rain = rain

        // The packet's look follows the plan (a capped winner still opened a paying packet).
        let hasRedPacket = (rain.plan.prizes[claim.item] ?? 0) > 0
        if let layer = packetLayers[claim.item] {
            let size = hasRedPacket ? Self.yesSize : Self.noSize
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            layer.contents = CGImage(named: hasRedPacket ? "rp_yes" : "rp_no", width: size.width, height: size.height)
            layer.bounds = CGRect(origin: .zero, size: size)
            CATransaction.commit()
        }
        floatLabel(at: claim.point, coins: claim.coins, packet: claim.item)

        events.append(SceneEvent(name: "award", data: [
            "rain": .number(Double(rain.id)), "packet": .number(Double(claim.item)),
            "player": .string(tapper.player), "name": .string(tapper.name), "coins": .number(Double(claim.coins)),
            "total": .number(Double(total)), "x": .number(Double(claim.point.x)), "y": .number(Double(claim.point.y)),
        ], client: tapper.client))
        events.append(tapEvent("award", packet: claim.item, coins: claim.coins, for: tapper))
    }

    /// Queues the tapper's `tap` result `result` and returns `.answered`.
    private func answer(_ result: String, packet: Int? = nil, to tapper: Tapper) -> TapOutcome {
        events.append(tapEvent(result, packet: packet, for: tapper))
        return .answered
    }

    /// The tapper's `tap` result, for it alone.
    private func tapEvent(_ result: String, packet: Int? = nil, coins: Int? = nil, rule: RainRule? = nil, for tapper: Tapper) -> SceneEvent {
        var data: JSONObject = ["result": .string(result)]
        if let packet { data["packet"] = .number(Double(packet)) }
        if let rule { data["rule"] = .string(rule.rawValue) }
        if let coins { data["coins"] = .number(Double(coins)) }
        if let id = tapper.id { data["id"] = id }
        return SceneEvent(name: "tap", data: .object(data), client: tapper.client, audience: .client)
    }

    /// The seed's alertView and label: a 100 × 30 box at (x − 50, y) with the centred text, which
    /// fades out while rising 100 pt over 1 s and is then removed.
    private func floatLabel(at point: CGPoint, coins: Int, packet: Int) {
        let alertView = CALayer()
        alertView.name = "label-\(packet)"
        alertView.cornerRadius = Self.labelCornerRadius
        alertView.frame = CGRect(x: point.x - Self.labelSize.width / 2, y: point.y,
                                 width: Self.labelSize.width, height: Self.labelSize.height)

        let label = CATextLayer()
        label.name = "text"
        label.alignmentMode = .center
        if coins > 0 {
            label.runs = [
                CATextRun("+", fontSize: 27, color: Self.gold),
                CATextRun("\(coins)", fontSize: 32, fontWeight: 0.3, color: Self.gold),   // PingFangTC-Semibold
                CATextRun("金币", fontSize: 17, color: Self.gold),
            ]
        } else {
            label.string = Self.loseText
            label.fontSize = 17
            label.foregroundColor = .white
        }
        // Centred in the box like the seed's centerX/centerY constraints.
        let height = (label.textRuns.map(\.fontSize).max() ?? 17) * Self.lineHeight
        label.frame = CGRect(x: (Self.labelSize.width - Self.labelTextWidth) / 2, y: (Self.labelSize.height - height) / 2,
                             width: Self.labelTextWidth, height: height)
        alertView.addSublayer(label)
        labels.addSublayer(alertView)

        // UIView.animateWithDuration(1): implicit animations on UIView's default curve.
        CATransaction.begin()
        CATransaction.setAnimationDuration(Self.labelDuration)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeInEaseOut))
        CATransaction.setCompletionBlock { [weak alertView] in
            alertView?.removeFromSuperlayer()
        }
        alertView.opacity = 0
        alertView.frame = CGRect(x: point.x - Self.labelSize.width / 2, y: point.y - Self.labelRise,
                                 width: Self.labelSize.width, height: Self.labelSize.height)
        CATransaction.commit()
    }

    public func takeEvents() -> [SceneEvent] {
        defer { events = [] }
        return events
    }
}

/// The fall animation's delegate: hears the end of one packet's fall. Holds the scene weakly
/// (animations retain their delegates).
private final class PacketFallDelegate: CAAnimationDelegate {
    weak var scene: RainScene?
    let index: Int

    init(scene: RainScene, index: Int) {
        self.scene = scene
        self.index = index
    }

    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        if flag { scene?.packetDidLand(index) }
    }
}
