import Foundation
import Layercast

/// Hearts drifting from the top of the screen, and a burst of them when the 点我 ("tap me") button
/// is tapped.
///
/// Ported from gavin-oc-learn/Emitter, `Emitter/SecondController.m` and its storyboard scene
/// (https://github.com/gavin-oc-learn/Emitter): a 375 × 667 screen, under a 64-point navigation bar
/// a `HeartView` (375 × 554) with a 120 × 32 button centred at its top whose action,
/// `onBeatbuttonTap:`, calls `updateAnimation`. Our own code. The glue: the storyboard's views
/// built in code, the action as a `UIAction`, taps fed through `UIViewInput`, the original's
/// `DazHeart` image is a white heart of this package (`Resources/heart.svg`, registered with
/// `UIImage.register`) and the scene announces `burst`.
public final class HeartBurstScene: AnnouncingScene {
    /// The scene's id, size (the original's iPhone screen), words and its heart image.
    public static let info = SceneInfo(
        id: "heart-burst", title: "Heart burst", size: CGSize(width: 375, height: 667),
        assets: [SceneAsset(id: "DazHeart", resource: "heart.svg", bundle: .module, width: 64, height: 64)],
        summary: LocalizedText(en: "Tap 点我 to burst hearts.", zh: "点“点我”，爱心就会涌出来。"),
        events: [SceneEventWords(event: "burst", en: "Hearts bursting {by}", zh: "爱心正在涌出{by}")])

    /// The root view: the original's screen.
    public let view = UIView(frame: CGRect(origin: .zero, size: info.size))
    /// The scene's root layer.
    public var layer: CALayer { view.layer }
    /// The events the scene announces: `burst`, by the tapper.
    public let eventLog = SceneEventLog()
    /// The original's `heartView`, below the navigation bar.
    let heartView: HeartView
    /// The original's button, 点我.
    let beatButton = UIButton(frame: CGRect(x: 127.5, y: 0, width: 120, height: 32))
    private lazy var input = UIViewInput(rootView: view)

    /// The screen, the heart view and its button; the seed is unused (the emitter's own `seed`
    /// draws the hearts).
    public init(seed: UInt64) {
        UIImage.register(Self.info.assets)
        view.backgroundColor = .white
        heartView = HeartView(frame: CGRect(x: 0, y: 64, width: 375, height: 554))
        heartView.backgroundColor = .white
        beatButton.setTitle("点我", for: .normal)
        beatButton.setTitleColor(.systemBlue, for: .normal)
        beatButton.layer.name = "beat"
        heartView.addSubview(beatButton)
        view.addSubview(heartView)
        beatButton.addAction(UIAction { [unowned self] _ in self.onBeatbuttonTap() }, for: .touchUpInside)
    }

    /// The original's `onBeatbuttonTap:`.
    func onBeatbuttonTap() {
        heartView.updateAnimation()
    }

    /// A tap on the button bursts the hearts; anywhere else does nothing.
    public func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by tapper: Tapper) -> TapOutcome {
        guard input.tap(hit, at: point, time: time) else { return .ignored }
        eventLog.announce("burst", by: tapper.client)
        return .answered
    }
}
