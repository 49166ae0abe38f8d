import Foundation
import Layercast

/// A loading indicator: five red bars in a row whose opacity pulses from 1 to 0.2 each second,
/// each bar a fifth of a second behind the one on its left, so that the fade runs along the row.
///
/// Ported from mattneub/Programming-iOS-Book-Examples,
/// `bk2ch12p565customActivityIndicator/Replicator/ViewController.swift`
/// (https://github.com/mattneub/Programming-iOS-Book-Examples): a 100 × 20 `CAReplicatorLayer`
/// centred in the view, one 10 × 20 red bar in it, `instanceCount` 5, `instanceTransform` a 20-point
/// translation, and the bar's repeating opacity animation delayed by `duration / instanceCount` per
/// copy. Our own code; `viewDidAppear` is the original's body in its iOS spellings, which compile
/// here as they are (`CATransform3DMakeTranslation`, `UIColor.red.cgColor`, `.greatestFiniteMagnitude`,
/// the book's `CGRect(_:_:_:_:)` and `bounds.center` helpers below). The glue: the scene is the view
/// controller, so `init(seed:)` builds its view and calls `viewDidAppear` (no `override`, no
/// `super`); `#keyPath(CALayer.opacity)` is the string `"opacity"` (`#keyPath` needs the
/// Objective-C runtime); the layers have names for the tests.
public final class ReplicatorBarsScene: AnnouncingScene {
    /// The scene's id, size (an iPhone screen) and words.
    public static let info = SceneInfo(
        id: "replicator-bars", title: "Replicator bars", size: CGSize(width: 375, height: 667),
        summary: LocalizedText(en: "Five bars pulse in turn, as an activity indicator.", zh: "五根竖条依次明暗，像一个加载指示器。"))

    /// The root view: the original's `self.view`.
    public let view = UIView(frame: CGRect(origin: .zero, size: info.size))
    /// The scene's root layer.
    public var layer: CALayer { view.layer }
    /// Nothing is announced: the indicator only runs.
    public let eventLog = SceneEventLog()

    /// The view, then the original's `viewDidAppear`; the seed is unused.
    public init(seed: UInt64) {
        view.backgroundColor = .white
        viewDidAppear(false)
    }

    func viewDidAppear(_ animated: Bool) {
        let lay = CAReplicatorLayer()
        lay.name = "replicator"
        lay.frame = CGRect(0,0,100,20)
        let bar = CALayer()
        bar.name = "bar"
        bar.frame = CGRect(0,0,10,20)
        bar.backgroundColor = UIColor.red.cgColor
        lay.addSublayer(bar)
        lay.instanceCount = 5
        lay.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
        let anim = CABasicAnimation(keyPath: "opacity")   // #keyPath(CALayer.opacity)
        anim.fromValue = 1.0
        anim.toValue = 0.2
        anim.duration = 1
        anim.repeatCount = .greatestFiniteMagnitude
        bar.add(anim, forKey: nil)
        lay.instanceDelay = anim.duration / Double(lay.instanceCount)
        self.view.layer.addSublayer(lay)
        lay.position = self.view.layer.bounds.center
    }

    /// Taps change nothing.
    public func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by tapper: Tapper) -> TapOutcome {
        .ignored
    }
}
