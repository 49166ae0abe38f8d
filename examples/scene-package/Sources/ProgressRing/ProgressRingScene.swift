import Foundation
import Layercast

/// A ring that fills with colour when the screen is tapped: a grey track and, over it, a pink
/// stroke whose `strokeEnd` a basic animation runs from 0 to 1 in 2 s.
///
/// Ported from ImSajalKaushik/30-Days-iOS, `CAShapeLayer/CAShapeLayer/ViewController.swift`
/// (https://github.com/ImSajalKaushik/30-Days-iOS): two `CAShapeLayer`s on one
/// `UIBezierPath(arcCenter:radius:startAngle:endAngle:clockwise:)` of radius 100 about the view's
/// centre, stroked 10 points wide with round caps, and a `UITapGestureRecognizer` on the view that
/// adds the `strokeEnd` animation (`fillMode` forwards, not removed on completion). Our own code;
/// the path, the colours and the animation are written with the original's iOS spellings, which
/// compile here as they are (`UIBezierPath`, `.cgPath`, UIKit's `clockwise`). What changed:
///
/// - the view is the scene's root layer, 414 × 736 points, so the ring is about (207, 368);
/// - `UIColor.clear.cgColor` / `UIColor.lightGray.cgColor` are `CGColor.clear` / `.lightGray`, and
///   the colour literal is `CGColor(red:green:blue:alpha:)` with its components;
/// - the gesture recognizer is `tap`: a tap anywhere restarts the fill from empty (the animation
///   has no `fromValue`, so it starts from the model value, 0), and the scene announces `fill`.
///
/// The arc runs from −π/2 to 2π clockwise: one and a quarter turns, as on iOS, so the stroke passes
/// twelve o'clock and ends at three o'clock, over its own start.
public final class ProgressRingScene: AnnouncingScene {
    /// The scene's id, size (the original's 414 × 736 view) and words.
    public static let info = SceneInfo(
        id: "progress-ring", title: "Progress ring", size: CGSize(width: 414, height: 736),
        summary: LocalizedText(en: "Tap anywhere to fill the ring.", zh: "点任意处，圆环就会填满。"),
        events: [SceneEventWords(event: "fill", en: "Ring filling {by}", zh: "圆环正在填满{by}")]
    )

    /// The ring's radius and stroke width, in points.
    static let radius: CGFloat = 100
    static let lineWidth: CGFloat = 10
    /// Where the arc starts and ends, in radians (UIKit's angles: y down).
    static let startAngle: CGFloat = -.pi / 2
    static let endAngle: CGFloat = 2 * .pi
    /// How long the ring takes to fill.
    static let fillDuration: CFTimeInterval = 2
    /// The original's colour literal.
    static let progressColor = CGColor(red: 0.8549019694, green: 0.250980407, blue: 0.4784313738, alpha: 1)

    /// The root layer: the original's view.
    public let layer = CALayer()
    /// The events the scene announces: `fill`, by the tapper.
    public let eventLog = SceneEventLog()
    /// The grey track, always drawn whole.
    let track = CAShapeLayer()
    /// The coloured stroke; its `strokeEnd` is 0 until a tap animates it.
    let progress = CAShapeLayer()

    /// The track and the empty stroke over it, as the original's `addLayer()`; the seed is unused.
    public init(seed: UInt64) {
        layer.frame = CGRect(origin: .zero, size: Self.info.size)
        layer.backgroundColor = .white

        let circularPath = UIBezierPath(arcCenter: layer.center, radius: Self.radius, startAngle: Self.startAngle,
                                        endAngle: Self.endAngle, clockwise: true)
        track.name = "track"
        track.frame = layer.bounds
        track.path = circularPath.cgPath
        track.fillColor = .clear
        track.strokeColor = .lightGray
        track.lineCap = .round
        track.lineWidth = Self.lineWidth
        layer.addSublayer(track)

        progress.name = "progress"
        progress.frame = layer.bounds
        progress.path = circularPath.cgPath
        progress.fillColor = .clear
        progress.strokeColor = Self.progressColor
        progress.lineCap = .round
        progress.lineWidth = Self.lineWidth
        progress.strokeEnd = 0
        layer.addSublayer(progress)
    }

    /// A tap anywhere (re)starts the fill.
    public func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by tapper: Tapper) -> TapOutcome {
        let animation = CABasicAnimation(keyPath: "strokeEnd")
        animation.toValue = 1
        animation.duration = Self.fillDuration
        animation.fillMode = .forwards
        animation.isRemovedOnCompletion = false
        progress.add(animation, forKey: "progress")
        eventLog.announce("fill", by: tapper.client)
        return .answered
    }
}
