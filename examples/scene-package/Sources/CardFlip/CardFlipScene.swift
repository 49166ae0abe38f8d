import Foundation
import Layercast

/// A card on a table that flips over when tapped: green face up, red face down.
///
/// Ported from howardchlee/FlipCard, `FlipCard/ViewController.swift`
/// (https://github.com/howardchlee/FlipCard): a rounded green `CAShapeLayer` card that a button
/// flips about its horizontal axis with `UIView.animateKeyframes` over 2 s — a quarter turn to
/// edge-on in the first second, the colour switched to red half-way, the second quarter turn in
/// the last second — seen with a perspective of m34 = −1/500. Our own code; what changed:
///
/// - the button is the card: a tap on the card flips it (`UIButton`'s action → `tap`), and a
///   tap on the face-down card flips it back, so every tap has something to show;
/// - the card is a plain `CALayer` with `backgroundColor` and `cornerRadius`, the same rounded
///   rectangle as the original's shape layer with a rounded-rect path (written before the
///   browser client drew shape layers' paths; a `CAShapeLayer` would now draw the same);
/// - `UIView.animateKeyframes` → one `CAKeyframeAnimation` on `transform` (values at key times
///   0, ½, 1, the default linear calculation) and a discrete one on `backgroundColor`, the model
///   values set to the end first, as a UIKit animation block does;
/// - the perspective is the table's `sublayerTransform` (the original put it in the card's
///   transform inside a `CATransformLayer`), so the card's own transform is a pure rotation;
/// - the card is 200 points square, corner radius 20, in the middle of a 414 × 736 scene (the
///   original's 100-point card at (100, 100) of the view);
/// - a tap while the card turns does nothing; the scene announces `flip` when a tap starts a
///   turn and `flipped` when it ends;
/// - the card carries a mark in its top-left corner, an image of this package
///   (`Resources/card-mark.svg`, declared in `info.assets`), which turns with it; a tap on the
///   mark is a tap on the card.
///
/// Events: `flip` with `{"face": "down"|"up"}` (the face it turns to) for the whole room, caused
/// by the tapper; `flipped` with the same data when the turn is over, raised by the scene.
public final class CardFlipScene: AnnouncingScene {
    public static let info = SceneInfo(
        id: "card-flip", title: "Card flip", size: CGSize(width: 414, height: 736),
        assets: [SceneAsset(id: "card-mark", resource: "card-mark.svg", bundle: .module, width: markSide, height: markSide)],
        summary: LocalizedText(en: "Tap the card to flip it over.", zh: "点卡片把它翻过来。"),
        events: [
            SceneEventWords(event: "flip", en: "Card turning face {face} {by}", zh: "卡片正在翻面{by}"),
            SceneEventWords(event: "flipped", en: "Card face {face}", zh: "卡片已翻面"),
        ]
    )

    /// The card's side in points and its corner radius.
    static let cardSide: CGFloat = 200
    static let cornerRadius: CGFloat = 20
    /// The mark's side in points; it sits half a side from the card's top and left edges.
    static let markSide: CGFloat = 40
    /// How long one flip takes; the colour changes half-way, when the card is edge-on.
    static let flipDuration: CFTimeInterval = 2
    /// The table's perspective: the original's m34.
    static let perspective: CGFloat = -1.0 / 500
    static let faceUpColor = CGColor.systemGreen
    static let faceDownColor = CGColor.systemRed

    public let layer = CALayer()
    public let eventLog = SceneEventLog()
    /// The card: a rounded rectangle, rotated about its horizontal middle by `flip`.
    let card = CALayer()
    /// The card's mark: the image `card-mark`, a sublayer of the card.
    let mark = CALayer()
    /// Whether the red face is up (the card has turned an odd number of times).
    private(set) var faceDown = false
    /// Whether a flip is under way; taps are ignored until it ends.
    private(set) var turning = false

    public init(seed: UInt64) {
        layer.frame = CGRect(origin: .zero, size: Self.info.size)
        layer.backgroundColor = .systemGray6

        let table = CALayer()
        table.name = "table"
        table.frame = layer.bounds
        var perspective = CATransform3DIdentity
        perspective.m34 = Self.perspective
        table.sublayerTransform = perspective
        layer.addSublayer(table)

        card.name = "card"
        card.frame = CGRect(x: 0, y: 0, width: Self.cardSide, height: Self.cardSide)
        card.center = CGPoint(x: table.bounds.midX, y: table.bounds.midY)
        card.cornerRadius = Self.cornerRadius
        card.backgroundColor = Self.faceUpColor
        table.addSublayer(card)

        mark.name = "mark"
        mark.frame = CGRect(x: Self.markSide / 2, y: Self.markSide / 2, width: Self.markSide, height: Self.markSide)
        mark.contents = CGImage(named: "card-mark", width: Self.markSide, height: Self.markSide)
        card.addSublayer(mark)
    }

    /// A tap on the card (or its mark) while it rests flips it; anything else is ignored.
    public func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by tapper: Tapper) -> TapOutcome {
        guard hit === card || hit === mark, !turning else { return .ignored }
        flip()
        eventLog.announce("flip", ["face": faceDown ? "down" : "up"], by: tapper.client)
        return .answered
    }

    /// Turns the card half a revolution about its horizontal middle over `flipDuration`.
    private func flip() {
        let start = faceDown ? CGFloat.pi : 0
        let fromColor = faceDown ? Self.faceDownColor : Self.faceUpColor
        faceDown.toggle()
        turning = true
        let toColor = faceDown ? Self.faceDownColor : Self.faceUpColor

        CATransaction.begin()
        CATransaction.setDisableActions(true)
        CATransaction.setCompletionBlock { [weak self] in
            guard let self else { return }
            turning = false
            eventLog.announce("flipped", ["face": faceDown ? "down" : "up"])
        }
        card.transform = Self.rotation(start + .pi)
        card.backgroundColor = toColor

        let turn = CAKeyframeAnimation(keyPath: "transform")
        turn.values = [Self.rotation(start), Self.rotation(start + .pi / 2), Self.rotation(start + .pi)]
        turn.keyTimes = [0, 0.5, 1]
        turn.duration = Self.flipDuration

        let paint = CAKeyframeAnimation(keyPath: "backgroundColor")
        paint.values = [fromColor, toColor]
        paint.keyTimes = [0, 0.5, 1]
        paint.calculationMode = .discrete
        paint.duration = Self.flipDuration

        card.add(turn, forKey: "turn")
        card.add(paint, forKey: "paint")
        CATransaction.commit()
    }

    /// A turn of `angle` radians about the card's horizontal axis.
    static func rotation(_ angle: CGFloat) -> CATransform3D {
        CATransform3DMakeRotation(angle, 1, 0, 0)
    }
}
