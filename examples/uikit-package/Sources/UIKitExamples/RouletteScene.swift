import Layercast

/// A restaurant roulette: a wheel of six wedges turned by `UIView.animate` when Spin is tapped;
/// the completion announces the restaurant under the pointer.
///
/// Ported from kevinlee6378/Restaurant-Roulette, `Restaurant-Roulette/ViewController.swift`
/// (github.com/kevinlee6378/Restaurant-Roulette): its `spin(_:)` (`position = (position + 700) % 360`,
/// then `UIView.animate(withDuration: 1.0) { self.wheel.transform = CGAffineTransform(rotationAngle:
/// CGFloat(self.position)) }`), kept as written: the angle is the degree count taken as radians, and
/// a transform animation turns the short way, as on the phone. The completion block is ours (the
/// original announced nothing), and the wheel is drawn with wedges instead of its image.
public final class RouletteScene: AnnouncingScene {
    /// The scene's name, size and words.
    public static let info = SceneInfo(
        id: "roulette", title: "Restaurant roulette", size: CGSize(width: 414, height: 736),
        summary: LocalizedText(en: "Tap Spin to pick a restaurant.", zh: "点“转”选一家餐馆。"),
        events: [SceneEventWords(event: "spin", en: "Spinning {by}", zh: "转动中{by}"),
                 SceneEventWords(event: "picked", en: "Picked: {restaurant}", zh: "选中：{restaurant}")])
    /// The restaurants, clockwise from the top.
    public static let restaurants = ["Noodles", "Tacos", "Sushi", "Pizza", "Curry", "Salad"]
    /// The root view; its layer is the scene's.
    public let view = UIView(frame: CGRect(origin: .zero, size: info.size))
    /// The scene's root layer.
    public var layer: CALayer { view.layer }
    /// What `takeEvents()` drains.
    public let eventLog = SceneEventLog()
    /// The wheel (the original's `wheel` image view).
    public let wheel = UIView(frame: CGRect(x: 57, y: 168, width: 300, height: 300))
    /// The Spin button (the original's action's sender).
    public let spinButton = UIButton(frame: CGRect(x: 147, y: 540, width: 120, height: 50))
    /// The original's `position`: the wheel's angle, in degrees used as radians.
    public private(set) var position = 0
    private var spinner: String?
    private lazy var input = UIViewInput(rootView: view)

    /// Builds the wheel, its pointer and the button.
    public init(seed: UInt64) {
        view.backgroundColor = .white
        let colors: [UIColor] = [.systemRed, .systemOrange, .systemYellow, .systemGreen, .systemBlue, .systemPurple]
        for (index, color) in colors.enumerated() {
            wheel.addSubview(WedgeView(frame: wheel.bounds, index: index, of: colors.count, color: color))
        }
        wheel.layer.name = "wheel"
        view.addSubview(wheel)
        let pointer = UIView(frame: CGRect(x: 201, y: 150, width: 12, height: 36))
        pointer.backgroundColor = .black
        view.addSubview(pointer)
        spinButton.setTitle("Spin", for: .normal)
        spinButton.setTitleColor(.white, for: .normal)
        spinButton.backgroundColor = .systemBlue
        spinButton.layer.cornerRadius = 10
        spinButton.layer.name = "spin"
        spinButton.addAction(UIAction { [unowned self] _ in self.spin() }, for: .touchUpInside)
        view.addSubview(spinButton)
    }

    /// The original's `spin(_:)`, with our completion.
    func spin() {
        position = (position + 700) % 360
        UIView.animate(withDuration: 1.0, animations: {
            self.wheel.transform = CGAffineTransform(rotationAngle: CGFloat(self.position))
        }, completion: { finished in
            guard finished else { return }
            self.eventLog.announce("picked", ["restaurant": .string(self.restaurantUnderPointer)], by: self.spinner)
        })
    }

    /// The restaurant whose wedge is at the top once the wheel stands at `position`: the wheel
    /// turned clockwise by θ brings the wedge at angle −θ (clockwise from the top) under the pointer.
    public var restaurantUnderPointer: String {
        let turn = 2 * Double.pi, remainder = (-Double(position)).truncatingRemainder(dividingBy: turn)
        let fromTop = remainder < 0 ? remainder + turn : remainder
        return Self.restaurants[Int(fromTop / (turn / Double(Self.restaurants.count))) % Self.restaurants.count]
    }

    /// Hands the tap to the view tree; Spin is answered with `spin`.
    public func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by tapper: Tapper) -> TapOutcome {
        spinner = tapper.client
        guard input.tap(hit, at: point, time: time) else { return .ignored }
        eventLog.announce("spin", ["position": .number(Double(position))], by: tapper.client)
        return .answered
    }
}

/// One wedge of the wheel: a view whose layer is a `CAShapeLayer` (UIKit's `layerClass`), a pie
/// slice from the top, clockwise.
final class WedgeView: UIView {
    override class var layerClass: AnyClass { CAShapeLayer.self }

    init(frame: CGRect, index: Int, of count: Int, color: UIColor) {
        super.init(frame: frame)
        let center = CGPoint(x: frame.width / 2, y: frame.height / 2), sweep = 2 * CGFloat.pi / CGFloat(count)
        let start = -CGFloat.pi / 2 + CGFloat(index) * sweep
        let path = UIBezierPath()
        path.move(to: center)
        path.addArc(withCenter: center, radius: frame.width / 2, startAngle: start, endAngle: start + sweep, clockwise: true)
        path.close()
        let shape = layer as! CAShapeLayer
        shape.path = path.cgPath
        shape.fillColor = color.cgColor
        isUserInteractionEnabled = false
    }

    required init?(coder: NSCoder) { return nil }
}
