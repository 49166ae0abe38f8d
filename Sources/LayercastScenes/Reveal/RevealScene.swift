import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI

/// The prize reveal (奖品揭晓), docs/scenes.md §6: a campaign screen written the way an iOS
/// developer would write it with Core Animation, to show the shape, gradient and replicator layers
/// and masks at work. Display-only: nobody wins anything here.
///
/// Layers: the scene root (414 × 736, campaign red) holds a `title` ("Your prize"); centred on
/// C = (207, 330), a 300-point `sparkles` replicator, the 240-point `track` and `ring` shape layers
/// (circles of radius 110 from the top, clockwise on screen, 10 points wide) and the 140-point
/// `prize` card (gold, corner radius 20, clipping its sublayers); and the `replay` button
/// (200 × 56 at (107, 532), white, its label `replay-label`).
///
/// A round, from its start s (0, then each replay):
/// - `ring`'s `strokeEnd` runs 0 → 1 linearly over 2 s (`progress`);
/// - `sparkles` draws its one 12-point `dot` (at the top, 140 points from C) 12 times, each copy
///   turned 2π/12 further clockwise and 0.1 s later: the dot's `pulse` group takes `opacity` 1 → 0
///   and `transform.scale` 1 → 0.3 linearly over 1.2 s, forever; its model opacity is 0, so a copy
///   shows nothing until its delay is over;
/// - `prize.mask` (`reveal-mask`, a black circle on the card's middle) opens from 0 × 0 to 200 × 200
///   (corner radius 0 → 100, the circle round the whole card) from s + 2 over 0.6 s,
///   ease-in-ease-out, filling backwards so the card is hidden until then (`reveal`);
/// - `shimmer`, a gradient over the card (clear → white at 0.7 alpha → clear, corner to corner),
///   sweeps its `locations` from [−0.3, −0.15, 0] to [1, 1.15, 1.3] in the first 1.5 s of every
///   2.5 s from s + 2.6 (`shimmer`); between sweeps its model locations keep it off the card.
///
/// Input: a tap whose hit layer is `replay` or lies in it restarts the round for everyone: every
/// animation above is added again from that moment, and the scene announces `replay` with
/// `{"round": n}` (n = 2, 3, …) for the room, caused by the tapper. Taps anywhere else do nothing.
/// When a round's mask has opened fully the scene announces `revealed` with `{"round": n}`; a replay
/// before then cancels it.
public final class RevealScene: AnnouncingScene {
    public static let info = SceneInfo(
        id: "reveal", title: "Prize reveal", size: CGSize(width: 414, height: 736),
        summary: LocalizedText(en: "Watch the prize appear; tap the button below it to see it again.",
                               zh: "看奖品揭晓;点下方的按钮再看一次。"),
        events: [
            SceneEventWords(event: "replay", en: "Round {round} started {by}", zh: "第 {round} 轮开始{by}"),
            SceneEventWords(event: "revealed", en: "Prize revealed (round {round})", zh: "奖品揭晓(第 {round} 轮)"),
        ]
    )

    /// Where the ring, the sparkles and the card are centred, in scene points.
    static let centre = CGPoint(x: 207, y: 330)
    static let ringRadius: CGFloat = 110
    static let ringWidth: CGFloat = 10
    /// The progress ring's fill time; the reveal starts when it is full.
    static let ringDuration: CFTimeInterval = 2
    static let dotCount = 12
    static let dotSize: CGFloat = 12
    /// The dots' distance from the centre, and the side of the replicator that draws them.
    static let dotRadius: CGFloat = 140
    static let sparklesSide: CGFloat = 300
    static let pulseDuration: CFTimeInterval = 1.2
    /// The copies' delay: one pulse spread over the circle.
    static let dotDelay: CFTimeInterval = pulseDuration / Double(dotCount)
    /// The smallest scale of a pulsing dot.
    static let dotMinScale: Double = 0.3
    static let cardSide: CGFloat = 140
    static let cardCornerRadius: CGFloat = 20
    /// The open mask's diameter: at least the card's diagonal (140·√2 ≈ 198), so the circle covers it.
    static let revealDiameter: CGFloat = 200
    static let revealDuration: CFTimeInterval = 0.6
    static let shimmerDelay: CFTimeInterval = ringDuration + revealDuration
    static let sweepDuration: CFTimeInterval = 1.5
    static let shimmerPeriod: CFTimeInterval = 2.5
    static let shimmerFrom: [CGFloat] = [-0.3, -0.15, 0]
    static let shimmerTo: [CGFloat] = [1, 1.15, 1.3]
    static let replayFrame = CGRect(x: 107, y: 532, width: 200, height: 56)
    /// What the card shows: a campaign's coins, in glyphs the shipped font has.
    static let prizeText = "88"
    static let prizeUnit = "金币"

    static let red = CGColor(red: 176 / 255, green: 18 / 255, blue: 30 / 255, alpha: 1)
    static let gold = CGColor(red: 1, green: 196 / 255, blue: 40 / 255, alpha: 1)
    static let paleGold = CGColor(red: 1, green: 236 / 255, blue: 150 / 255, alpha: 1)

    public let layer = CALayer()
    public let eventLog = SceneEventLog()
    let ring = CAShapeLayer()
    let sparkles = CAReplicatorLayer()
    let dot = CALayer()
    let prize = CALayer()
    let revealMask = CALayer()
    let shimmer = CAGradientLayer()
    let replay = CALayer()
    /// The round on screen: 1 at the start, one more per replay.
    private(set) var round = 1

    public init(seed: UInt64) {
        layer.frame = CGRect(origin: .zero, size: Self.info.size)
        layer.backgroundColor = Self.red

        let title = Self.makeText("Your prize", fontSize: 30, color: .white)
        title.name = "title"
        title.frame = CGRect(x: 0, y: 110, width: Self.info.size.width, height: 36)
        layer.addSublayer(title)

        buildSparkles()
        let track = CAShapeLayer()
        track.name = "track"
        Self.makeRing(track, strokeColor: CGColor.white.copy(alpha: 0.25))
        layer.addSublayer(track)
        ring.name = "ring"
        Self.makeRing(ring, strokeColor: Self.gold)
        ring.lineCap = .round
        layer.addSublayer(ring)
        buildPrize()
        buildReplay()
        startRound()
    }

    /// The replicator of dots round the ring: one dot, `dotCount` copies.
    private func buildSparkles() {
        let side = Self.sparklesSide
        sparkles.name = "sparkles"
        sparkles.bounds = CGRect(x: 0, y: 0, width: side, height: side)
        sparkles.position = Self.centre
        sparkles.instanceCount = Self.dotCount
        sparkles.instanceTransform = CATransform3DMakeRotation(2 * .pi / CGFloat(Self.dotCount), 0, 0, 1)
        sparkles.instanceDelay = Self.dotDelay

        dot.name = "dot"
        dot.bounds = CGRect(x: 0, y: 0, width: Self.dotSize, height: Self.dotSize)
        dot.position = CGPoint(x: side / 2, y: side / 2 - Self.dotRadius)
        dot.cornerRadius = Self.dotSize / 2
        dot.backgroundColor = Self.paleGold
        dot.opacity = 0
        sparkles.addSublayer(dot)
        layer.addSublayer(sparkles)
    }

    /// The card with its amount, the shimmer over it and the mask that reveals it.
    private func buildPrize() {
        prize.name = "prize"
        prize.bounds = CGRect(x: 0, y: 0, width: Self.cardSide, height: Self.cardSide)
        prize.position = Self.centre
        prize.cornerRadius = Self.cardCornerRadius
        prize.masksToBounds = true
        prize.backgroundColor = Self.gold

        let amount = Self.makeText(Self.prizeText, fontSize: 56, color: Self.red)
        amount.name = "amount"
        amount.frame = CGRect(x: 0, y: 22, width: Self.cardSide, height: 68)
        prize.addSublayer(amount)
        let unit = Self.makeText(Self.prizeUnit, fontSize: 24, color: Self.red)
        unit.name = "unit"
        unit.frame = CGRect(x: 0, y: 90, width: Self.cardSide, height: 30)
        prize.addSublayer(unit)

        shimmer.name = "shimmer"
        shimmer.frame = prize.bounds
        shimmer.colors = [CGColor.white.copy(alpha: 0), CGColor.white.copy(alpha: 0.7), CGColor.white.copy(alpha: 0)]
        shimmer.locations = Self.shimmerFrom.map { NSNumber(value: Double($0)) }
        shimmer.startPoint = CGPoint(x: 0, y: 0)
        shimmer.endPoint = CGPoint(x: 1, y: 1)
        prize.addSublayer(shimmer)

        revealMask.name = "reveal-mask"
        revealMask.bounds = CGRect(x: 0, y: 0, width: Self.revealDiameter, height: Self.revealDiameter)
        revealMask.position = CGPoint(x: Self.cardSide / 2, y: Self.cardSide / 2)
        revealMask.cornerRadius = Self.revealDiameter / 2
        revealMask.backgroundColor = .black
        prize.mask = revealMask
        layer.addSublayer(prize)
    }

    /// The white "Replay" button under the ring.
    private func buildReplay() {
        replay.name = "replay"
        replay.frame = Self.replayFrame
        replay.cornerRadius = Self.replayFrame.height / 2
        replay.backgroundColor = .white
        let label = Self.makeText("Replay", fontSize: 22, color: Self.red)
        label.name = "replay-label"
        label.frame = CGRect(x: 0, y: (Self.replayFrame.height - 27) / 2, width: Self.replayFrame.width, height: 27)
        replay.addSublayer(label)
        layer.addSublayer(replay)
    }

    // MARK: A round

    /// Adds the round's animations from now; each replaces the previous round's under its key.
    private func startRound() {
        let start = CACurrentMediaTime()

        let progress = CABasicAnimation(keyPath: "strokeEnd")
        progress.fromValue = Double(0)
        progress.toValue = Double(1)
        progress.duration = Self.ringDuration
        progress.timingFunction = CAMediaTimingFunction(name: .linear)
        ring.add(progress, forKey: "progress")

        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = Double(1)
        fade.toValue = Double(0)
        fade.duration = Self.pulseDuration
        let shrink = CABasicAnimation(keyPath: "transform.scale")
        shrink.fromValue = Double(1)
        shrink.toValue = Self.dotMinScale
        shrink.duration = Self.pulseDuration
        let pulse = CAAnimationGroup()
        pulse.animations = [fade, shrink]
        pulse.duration = Self.pulseDuration
        pulse.repeatCount = .infinity
        dot.add(pulse, forKey: "pulse")

        let open = CABasicAnimation(keyPath: "bounds.size")
        open.fromValue = CGSize.zero
        open.toValue = CGSize(width: Self.revealDiameter, height: Self.revealDiameter)
        open.duration = Self.revealDuration
        let rounding = CABasicAnimation(keyPath: "cornerRadius")
        rounding.fromValue = Double(0)
        rounding.toValue = Double(Self.revealDiameter / 2)
        rounding.duration = Self.revealDuration
        let reveal = CAAnimationGroup()
        reveal.animations = [open, rounding]
        reveal.beginTime = start + Self.ringDuration
        reveal.duration = Self.revealDuration
        reveal.fillMode = .backwards
        reveal.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        reveal.delegate = RevealDelegate(scene: self)
        revealMask.add(reveal, forKey: "reveal")

        let sweep = CABasicAnimation(keyPath: "locations")
        sweep.fromValue = Self.shimmerFrom.map { NSNumber(value: Double($0)) }
        sweep.toValue = Self.shimmerTo.map { NSNumber(value: Double($0)) }
        sweep.duration = Self.sweepDuration
        let shine = CAAnimationGroup()
        shine.animations = [sweep]
        shine.beginTime = start + Self.shimmerDelay
        shine.duration = Self.shimmerPeriod
        shine.repeatCount = .infinity
        shimmer.add(shine, forKey: "shimmer")
    }

    /// The reveal's delegate heard that the mask finished opening (not a replaced one).
    fileprivate func revealDidStop(finished: Bool) {
        guard finished else { return }
        eventLog.announce("revealed", ["round": .number(Double(round))])
    }

    // MARK: Input

    /// A tap on the replay button, or on its label, restarts the round; anything else is ignored.
    @discardableResult
    public func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by tapper: Tapper) -> TapOutcome {
        var candidate = hit
        while let layer = candidate, layer !== replay {
            candidate = layer.superlayer
        }
        guard candidate === replay else { return .ignored }
        round += 1
        startRound()
        eventLog.announce("replay", ["round": .number(Double(round))], by: tapper.client)
        return .answered
    }

    // MARK: Building blocks

    /// A centred, bold text line of `fontSize` points.
    private static func makeText(_ string: String, fontSize: CGFloat, color: CGColor) -> CATextLayer {
        let text = CATextLayer()
        text.string = string
        text.fontSize = fontSize
        text.fontWeight = 0.4
        text.foregroundColor = color
        text.alignmentMode = .center
        return text
    }

    /// Makes `shape` a ring: an unfilled circle of `ringRadius` about `centre`, starting at the top
    /// and running clockwise on screen (the angle increasing from −π/2 in y-down space, what
    /// `UIBezierPath(arcCenter:…clockwise: true)` draws).
    private static func makeRing(_ shape: CAShapeLayer, strokeColor: CGColor) {
        let side = 2 * (ringRadius + ringWidth)
        shape.bounds = CGRect(x: 0, y: 0, width: side, height: side)
        shape.position = centre
        let path = CGMutablePath()
        path.addArc(center: CGPoint(x: side / 2, y: side / 2), radius: ringRadius,
                    startAngle: -.pi / 2, endAngle: 3 * .pi / 2, clockwise: false)
        shape.path = path.copy()
        shape.fillColor = nil
        shape.strokeColor = strokeColor
        shape.lineWidth = ringWidth
    }
}

/// The reveal group's delegate. Holds the scene weakly: animations retain their delegates.
private final class RevealDelegate: CAAnimationDelegate {
    weak var scene: RevealScene?

    init(scene: RevealScene) { self.scene = scene }

    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        scene?.revealDidStop(finished: flag)
    }
}
