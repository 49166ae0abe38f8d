import Layercast

/// A coin that pays the first tap on it in each round, and a puck to drag about: a scene written to
/// implement every requirement of `Scene` with `import Layercast` alone (its controller and auditor
/// do the rest of the public scene API).
///
/// Taps: the coin claims `coins` (twice that with `--coverage-double`) in a running round, and is
/// refused under the rule `no-round` outside one or once taken; the puck answers its tapper alone
/// (`puck`); anything else is ignored. Drags move the puck (`began` on it, `moved`, `ended` announces
/// `dropped`, `cancelled` puts it back). Events: `won`, `faded` (the taken coin's fade is over, told
/// by its animation's delegate), `puck`, `dropped`, `said`, `round-over`.
public final class CoverageScene: AnnouncingScene, CAAnimationDelegate {
    /// The id, size, interactions, words and the coin's image (a resource of this module).
    public static let info = SceneInfo(
        id: "api-coverage", title: "API coverage", size: CGSize(width: 400, height: 400), interactions: ["tap", "drag"],
        assets: [SceneAsset(id: "coin", resource: "coin.svg", bundle: .module, width: 40, height: 40)],
        summary: LocalizedText(en: "Tap the coin in a round; drag the puck.", zh: "回合中点硬币；拖动圆盘。"),
        events: [
            SceneEventWords(event: "won", en: "{coins} coins won {by}", zh: "{by}赢得 {coins} 枚硬币"),
            SceneEventWords(event: "faded", en: "The coin is taken", zh: "硬币已被拿走"),
            SceneEventWords(event: "dropped", when: ["spot": "corner"], en: "Puck in the corner {by}", zh: "圆盘到了角落{by}"),
            SceneEventWords(event: "dropped", en: "Puck dropped {by}", zh: "圆盘放下了{by}"),
            SceneEventWords(event: "said", en: "{words}", zh: "{words}"),
            SceneEventWords(event: "round-over", en: "Round {round} over", zh: "第 {round} 回合结束"),
        ],
        terms: ["corner": LocalizedText(en: "corner", zh: "角落")])
    /// The admin commands: start a round (recorded first), and say something to the room.
    public static var commands: [String] { ["coverage-round", "coverage-say"] }
    /// The one rule a tap is refused under.
    public static var tapRules: [String] { ["no-round"] }
    /// The options `serve` takes for this scene.
    public static var options: [SceneOption] {
        [.flag("coverage-double", help: "Pay twice the coins."),
         .number("coverage-round-seconds", default: 10, in: 1...600, valueName: "seconds", help: "How long a round runs."),
         .integer("coverage-coins", default: 5, in: 1...100, help: "Coins the coin pays."),
         .text("coverage-greeting", default: "Welcome", valueName: "words", help: "What a joining client is told.",
               rule: { $0.isEmpty ? "must not be empty" : nil })]
    }
    /// The auditor of the rounds this scene records.
    public static var roundAuditor: (any RoundAuditor.Type)? { CoverageAudit.self }

    /// Refuses a doubled payout above 50 coins.
    public static func validationError(_ options: SceneOptionValues) -> String? {
        options.flag("coverage-double") && options.integer("coverage-coins") > 50
            ? "--coverage-double pays at most 50 coins: lower --coverage-coins" : nil
    }

    /// A scene made with the options' values, under a `CoverageController`.
    public static func controller(seed: UInt64, options: SceneOptionValues, services: SceneServices) -> any SceneController {
        let coins = options.integer("coverage-coins") * (options.flag("coverage-double") ? 2 : 1)
        let (stage, scene) = SceneStage.make { CoverageScene(seed: seed, coins: coins) }
        return CoverageController(stage: stage, scene: scene, services: services, seed: seed,
                                  roundSeconds: options.number("coverage-round-seconds"),
                                  greeting: options.text("coverage-greeting"))
    }

    /// The root layer.
    public let layer = CALayer()
    /// What `takeEvents()` drains.
    public let eventLog = SceneEventLog()
    /// What the coin pays.
    public let coins: Int
    /// The running round's id, once the ledger recorded it; nil between rounds.
    public internal(set) var round: Int64?
    /// The round whose coin is taken.
    public internal(set) var paidRound: Int64?
    /// The player the taken coin went to.
    public internal(set) var winner: String?
    private let coin = CALayer()
    private let puck = CALayer()
    /// Where the puck was when the drag that holds it began, and who holds it.
    private var dragStart: (position: CGPoint, client: String)?

    /// The scene with the default payout (5 coins).
    public convenience init(seed: UInt64) { self.init(seed: seed, coins: 5) }

    /// The coin in the middle, paying `coins`, and the puck in the lower left corner.
    public init(seed: UInt64, coins: Int) {
        self.coins = coins
        layer.frame = CGRect(origin: .zero, size: Self.info.size)
        coin.name = "coin"
        coin.frame = CGRect(x: 180, y: 180, width: 40, height: 40)
        coin.contents = CGImage(named: "coin", width: 40, height: 40)
        puck.name = "puck"
        puck.frame = CGRect(x: 20, y: 340, width: 40, height: 40)
        puck.cornerRadius = 20
        puck.backgroundColor = .systemBlue
        layer.addSublayer(coin)
        layer.addSublayer(puck)
    }

    /// The coin claims in a running round it has not paid in, the puck answers its tapper alone.
    public func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by tapper: Tapper) -> TapOutcome {
        if hit === puck {
            eventLog.announce("puck", by: tapper.client, audience: .client)
            return .answered
        }
        guard hit === coin else { return .ignored }
        guard let round, paidRound != round else { return .refused(rule: "no-round") }
        return .claim(Claim(round: round, item: 1, coins: coins, point: point, time: time))
    }

    /// The committed claim: the coin is taken for its round and fades in half a second, and its
    /// winner is told.
    public func confirm(_ claim: Claim, total: Int, for tapper: Tapper) {
        (paidRound, winner) = (claim.round, tapper.player)
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.duration = 0.5
        fade.delegate = self
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        coin.opacity = 0.3
        CATransaction.commit()
        coin.add(fade, forKey: "fade")
        eventLog.announce("won", ["coins": .number(Double(claim.coins)), "total": .number(Double(total))], by: tapper.client)
    }

    /// The coin's fade is over.
    public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        if flag { eventLog.announce("faded") }
    }

    /// Moves the puck with one client's drag.
    public func drag(_ phase: DragPhase, hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by client: String) {
        if phase == .began, hit === puck, dragStart == nil { dragStart = (puck.position, client) }
        guard let start = dragStart, start.client == client else { return }
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        switch phase {
        case .began, .moved:
            puck.position = point
        case .ended:
            puck.position = point
            let spot: JSONValue = point.x < 60 && point.y < 60 ? "corner" : "floor"
            eventLog.announce("dropped", ["x": .number(point.x), "y": .number(point.y), "spot": spot], by: client)
            dragStart = nil
        case .cancelled:
            puck.position = start.position
            dragStart = nil
        }
        CATransaction.commit()
    }

    /// Announces `words` to the room (the `coverage-say` command).
    func say(_ words: String) {
        eventLog.announce("said", ["words": .string(words)])
    }

    /// Announces the end of round `id` and makes the coin whole for the next.
    func roundEnded(_ id: Int64) {
        round = nil
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        coin.opacity = 1
        CATransaction.commit()
        eventLog.announce("round-over", ["round": .number(Double(id))])
    }
}
