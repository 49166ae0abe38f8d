import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI

/// The pulsing radar with items (脉冲雷达), docs/scenes.md §5, ported from seed 004's
/// `PulsingRadarView` the way an iOS developer would write it with Core Animation.
///
/// Layers: the scene root (414 × 736, pale cream) holds `radar`, a white square of side 414
/// centred vertically (y = 161). In it, `pulses` holds six full-square circles `pulse-0`…`pulse-5`
/// (grey 1 pt border, cornerRadius 207), each running the seed's group: duration 4, repeating
/// forever, fillMode backwards, beginTime now + i·4/6, the default curve, `transform.scale` 0 → 1.5
/// and `opacity` keyframes [1, 0.7, 0] at [0, 0.5, 1]. Every 0.5 s (first at 0.5 s) a timer adds a
/// 44 × 44 item `item-1`, `item-2`, … (image `radar-item`) above the pulses at a random place in
/// the circle; it fades in over 1 s. When an 11th live item arrives the oldest leaves: it fades to
/// 0 over 1 s and is removed from its superlayer in the transaction's completion block.
///
/// Input: a tap whose hit layer is, or lies in, a live item selects that item for everyone: the
/// previous selection loses its highlight, the new one gets a red 3 pt ring and a scale pop, and
/// the scene announces `select` with `{"item": name}` for the tapping client. Tapping the selected
/// item again pops and announces it again. Taps on anything else, and on leaving items, do nothing.
/// When the selected item starts to leave the scene announces `select` with `{"item": null}`.
///
/// Fixed from the seed: the angle is uniform in [0, 2π) radians (the seed passed a random number
/// of degrees to cos/sin) and the point is uniform over the disc, r = R·√u (a uniform radius crowds
/// the centre); centres stay within R − 22√2 of the middle so the whole item is inside the circle
/// (the seed's radius bound (side − 44)/2 let corners stick out); the overlap search is bounded to
/// `placementAttempts` tries (the seed's do-while loops forever on a full disc): when they all
/// miss, that tick adds nothing and retires nothing. Leaving items still block placement until they
/// are removed (the seed stopped counting them at once), so no two visible items ever overlap. The
/// seed's resume-after-background fix has no counterpart: the server never stops.
public final class RadarScene: Scene {
    public static let info = SceneInfo(
        id: "radar",
        title: "Pulsing radar",
        size: CGSize(width: 414, height: 736),
        interactions: ["tap"],
        assets: [SceneAsset(id: "radar-item", resource: "radar-item.svg", bundle: .module, width: 44, height: 44)],
        summary: LocalizedText(en: "Tap an item on the radar to select it.", zh: "点雷达上的物品来选中它。"),
        events: [
            SceneEventWords(event: "select", en: "{item} selected {by}", zh: "已选中 {item}{by}"),
            SceneEventWords(event: "select", en: "Selection cleared", zh: "已取消选中"),
        ]
    )

    // The seed's numbers.
    static let pulsingCount = 6
    static let animationDuration: CFTimeInterval = 4
    static let itemSize = CGSize(width: 44, height: 44)
    static let maxCount = 10
    static let addInterval: CFTimeInterval = 0.5
    static let fadeDuration: CFTimeInterval = 1

    // Chosen values (the original leaves them open; docs/scenes.md).
    /// Tries per item before a tick gives up: with at most 11 blockers the free area is ≥ 12 % of
    /// the disc of centres, so 200 tries all miss with probability below 1e-11.
    static let placementAttempts = 200
    /// The scene root's background, a pale cream around the white radar.
    static let backgroundColor = CGColor(red: 253 / 255, green: 246 / 255, blue: 236 / 255, alpha: 1)
    /// The selection ring, red-packet red.
    static let highlightColor = CGColor(red: 230 / 255, green: 46 / 255, blue: 36 / 255, alpha: 1)
    static let highlightWidth: CGFloat = 3
    /// How long the ring takes to grow or shrink.
    static let highlightDuration: CFTimeInterval = 0.2
    /// The selection pop: scale 1 → 1.2 → 1 over 0.3 s.
    static let popScale: Double = 1.2
    static let popDuration: CFTimeInterval = 0.3

    public let layer: CALayer
    /// The white radar square; pulses and items live in its coordinates.
    let radar: CALayer
    /// Live items, oldest first.
    private(set) var items: [CALayer] = []
    /// Items fading out, until their removal.
    private(set) var leaving: [CALayer] = []
    /// The selected live item.
    private(set) var selection: CALayer?
    private var rng: SeededRandom
    private var itemNumber = 0
    private var events: [SceneEvent] = []
    private var timer: SceneTimer?

    public init(seed: UInt64) {
        rng = SeededRandom(seed: seed)
        let size = Self.info.size
        layer = CALayer()
        layer.frame = CGRect(origin: .zero, size: size)
        layer.backgroundColor = Self.backgroundColor

        let side = size.width
        radar = CALayer()
        radar.name = "radar"
        radar.frame = CGRect(x: 0, y: (size.height - side) / 2, width: side, height: side)
        radar.backgroundColor = .white
        radar.addSublayer(Self.makeAnimationLayer(rect: radar.bounds))
        layer.addSublayer(radar)

        // NSTimer.scheduledTimerWithTimeInterval(0.5, …, repeats: true)
        timer = SceneContext.current.schedule(after: Self.addInterval, repeating: Self.addInterval) { [weak self] _ in
            self?.addOrReplaceItem()
        }
    }

    deinit {
        timer?.invalidate()
    }

    /// The seed's drawRect: a container of `pulsingCount` pulsing circles filling `rect`.
    private static func makeAnimationLayer(rect: CGRect) -> CALayer {
        let animationLayer = CALayer()
        animationLayer.name = "pulses"
        animationLayer.frame = rect
        for i in 0..<pulsingCount {
            let pulsingLayer = CALayer()
            pulsingLayer.name = "pulse-\(i)"
            pulsingLayer.frame = CGRect(x: 0, y: 0, width: rect.width, height: rect.height)
            pulsingLayer.borderColor = CGColor(gray: 0.5, alpha: 1)   // UIColor.grayColor()
            pulsingLayer.borderWidth = 1
            pulsingLayer.cornerRadius = rect.height / 2

            let defaultCurve = CAMediaTimingFunction(name: .default)

            let animationGroup = CAAnimationGroup()
            animationGroup.fillMode = .backwards
            animationGroup.beginTime = CACurrentMediaTime() + Double(i) * animationDuration / Double(pulsingCount)
            animationGroup.duration = animationDuration
            animationGroup.repeatCount = .infinity
            animationGroup.timingFunction = defaultCurve

            let scaleAnimation = CABasicAnimation(keyPath: "transform.scale")
            scaleAnimation.autoreverses = false
            scaleAnimation.fromValue = Double(0)
            scaleAnimation.toValue = Double(1.5)

            let opacityAnimation = CAKeyframeAnimation(keyPath: "opacity")
            opacityAnimation.values = [Double(1), Double(0.7), Double(0)]
            opacityAnimation.keyTimes = [0, 0.5, 1]

            animationGroup.animations = [scaleAnimation, opacityAnimation]

            pulsingLayer.add(animationGroup, forKey: "pulsing")
            animationLayer.addSublayer(pulsingLayer)
        }
        return animationLayer
    }

    // MARK: Items

    /// The seed's addOrReplaceItem: places a new item clear of every item still on screen, fades
    /// it in, and retires the oldest live item when there are more than `maxCount`.
    private func addOrReplaceItem() {
        let side = radar.bounds.width
        let occupied = (items + leaving).map(\.frame)
        guard let center = Self.placeItem(size: Self.itemSize, inCircle: CGPoint(x: side / 2, y: side / 2),
                                          radius: side / 2, avoiding: occupied, using: &rng) else { return }
        itemNumber += 1
        let item = CALayer()
        item.name = "item-\(itemNumber)"
        item.bounds = CGRect(origin: .zero, size: Self.itemSize)
        item.position = center
        item.contents = CGImage(named: "radar-item", width: Self.itemSize.width, height: Self.itemSize.height)
        item.cornerRadius = Self.itemSize.width / 2   // round, so the selection ring circles the coin
        item.borderColor = Self.highlightColor
        item.opacity = 0
        radar.addSublayer(item)
        items.append(item)
        fade(item, to: 1)

        if items.count > Self.maxCount {
            retire(items.removeFirst())
        }
    }

    /// The seed's PRButton.removeFromSuperview: fade out over 1 s, then leave the tree.
    private func retire(_ item: CALayer) {
        leaving.append(item)
        if item === selection {
            setHighlighted(item, false)
            selection = nil
            events.append(SceneEvent(name: "select", data: ["item": .null]))
        }
        fade(item, to: 0) { [weak self, weak item] in
            guard let item else { return }
            item.removeFromSuperlayer()
            self?.leaving.removeAll { $0 === item }
        }
    }

    /// UIView.animateWithDuration(1) on alpha: an implicit opacity animation over `fadeDuration`
    /// with UIView's default curve, easeInEaseOut.
    private func fade(_ item: CALayer, to opacity: Float, completion: (() -> Void)? = nil) {
        CATransaction.begin()
        CATransaction.setAnimationDuration(Self.fadeDuration)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeInEaseOut))
        CATransaction.setCompletionBlock(completion)
        item.opacity = opacity
        CATransaction.commit()
    }

    /// A uniform random point in the disc: r = radius·√u, θ uniform in [0, 2π) radians.
    static func randomPointInDisc<G: RandomNumberGenerator>(center: CGPoint, radius: CGFloat, using rng: inout G) -> CGPoint {
        let r = radius * CGFloat(Double.random(in: 0..<1, using: &rng).squareRoot())
        let angle = CGFloat(Double.random(in: 0..<(2 * .pi), using: &rng))
        return CGPoint(x: center.x + r * cos(angle), y: center.y + r * sin(angle))
    }

    /// A centre for an item of `size` lying wholly inside the circle whose frame meets none of
    /// `occupied`, drawn uniformly; nil when `attempts` draws all collide.
    static func placeItem<G: RandomNumberGenerator>(size: CGSize, inCircle center: CGPoint, radius: CGFloat,
                                                    avoiding occupied: [CGRect], attempts: Int = placementAttempts,
                                                    using rng: inout G) -> CGPoint? {
        // The item's corners are half its diagonal from its centre.
        let reach = radius - (size.width * size.width + size.height * size.height).squareRoot() / 2
        guard reach >= 0 else { return nil }
        for _ in 0..<attempts {
            let c = randomPointInDisc(center: center, radius: reach, using: &rng)
            let frame = CGRect(x: c.x - size.width / 2, y: c.y - size.height / 2, width: size.width, height: size.height)
            if !occupied.contains(where: { $0.intersects(frame) }) { return c }
        }
        return nil
    }

    // MARK: Selection

    @discardableResult
    public func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by tapper: Tapper) -> TapOutcome {
        var candidate = hit
        while let layer = candidate, layer !== radar {
            if items.contains(where: { $0 === layer }) {
                select(layer, by: tapper.client)
                return .answered
            }
            candidate = layer.superlayer
        }
        return .ignored
    }

    private func select(_ item: CALayer, by client: String) {
        if let previous = selection, previous !== item { setHighlighted(previous, false) }
        selection = item
        setHighlighted(item, true)

        let pop = CAKeyframeAnimation(keyPath: "transform.scale")
        pop.values = [Double(1), Self.popScale, Double(1)]
        pop.keyTimes = [0, 0.5, 1]
        pop.duration = Self.popDuration
        item.add(pop, forKey: "pop")

        events.append(SceneEvent(name: "select", data: ["item": .string(item.name ?? "")], client: client))
    }

    /// Grows or shrinks the selection ring with an implicit border-width animation.
    private func setHighlighted(_ item: CALayer, _ highlighted: Bool) {
        CATransaction.begin()
        CATransaction.setAnimationDuration(Self.highlightDuration)
        item.borderWidth = highlighted ? Self.highlightWidth : 0
        CATransaction.commit()
    }

    public func takeEvents() -> [SceneEvent] {
        defer { events = [] }
        return events
    }
}
