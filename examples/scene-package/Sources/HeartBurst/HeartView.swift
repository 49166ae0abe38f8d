import Foundation
import Layercast

/// A view whose emitter lets hearts drift from its top edge, five a second, and bursts 150 a
/// second, easing to none over 5 s, when `updateAnimation()` is called.
///
/// Ported from gavin-oc-learn/Emitter, `Emitter/HeartView.m` (https://github.com/gavin-oc-learn/Emitter),
/// Objective-C, written here as its Swift: `setup()` and `updateAnimation()` are the original's lines
/// one for one, in iOS spellings that compile here as they are (`CAEmitterLayer`, `.rectangle`,
/// `.volume`, `.additive`, `UIImage(named:)?.cgImage`, `UIColor(red:green:blue:alpha:).cgColor`, the
/// key path `emitterCells.heart.birthRate`). The glue: `setup()` runs from `init(frame:)`, where the
/// original's runs from `awakeFromNib` (there is no storyboard), and the emitter layer has a `name`
/// for the tests.
final class HeartView: UIView {
    /// The emitter, the original's `heartsEmitter`.
    private(set) var heartsEmitter: CAEmitterLayer!

    /// The view at `frame`, with its emitter set up.
    override init(frame: CGRect) {
        super.init(frame: frame)
        setup()
    }

    /// Not available: the scene builds its views in code.
    required init?(coder: NSCoder) { nil }

    func setup() {
        let heartLayer = CAEmitterLayer()
        heartLayer.name = "hearts"
        heartLayer.emitterPosition = CGPoint(x: frame.width / 2, y: 15)
        heartLayer.emitterSize = CGSize(width: frame.width * 2, height: 0)
        heartLayer.emitterShape = .rectangle
        heartLayer.emitterMode = .volume
        heartLayer.renderMode = .additive

        let cell = CAEmitterCell()
        cell.name = "heart"
        cell.emissionLongitude = .pi / 2
        cell.emissionRange = .pi * 0.5
        cell.birthRate = 5
        cell.lifetime = 10
        cell.velocity = -10
        cell.velocityRange = 10
        cell.yAcceleration = 2

        cell.contents = UIImage(named: "DazHeart")?.cgImage
        cell.color = UIColor(red: 0.5, green: 0, blue: 0.5, alpha: 0.5).cgColor
        cell.redRange = 0.3
        cell.blueRange = 0.3
        cell.alphaSpeed = -0.5 / cell.lifetime

        cell.scale = 0.15
        cell.scaleSpeed = 0.5
        cell.spinRange = 2 * .pi

        heartLayer.emitterCells = [cell]
        layer.addSublayer(heartLayer)
        heartsEmitter = heartLayer
    }

    func updateAnimation() {
        let heartsBurst = CABasicAnimation(keyPath: "emitterCells.heart.birthRate")
        heartsBurst.fromValue = NSNumber(value: 150.0)
        heartsBurst.toValue = NSNumber(value: 0.0)
        heartsBurst.duration = 5.0
        heartsBurst.timingFunction = CAMediaTimingFunction(name: .linear)

        heartsEmitter.add(heartsBurst, forKey: "heartsBurst")
    }
}
