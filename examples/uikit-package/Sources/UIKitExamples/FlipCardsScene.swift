import Layercast

/// Two cards, golden and green, flipped one for the other by `UIView.transition(from:to:…)`.
///
/// Ported from lehuudungle/AnimationDemo, `AnimationDemo/ExampleIIIController.swift`
/// (github.com/lehuudungle/AnimationDemo): its `transition(_:)` action, unchanged:
/// `UIView.transition(from: cardToFlip!, to: bottomCard!, duration: 0.5, options:
/// [.transitionFlipFromLeft, .showHideTransitionViews], completion: nil)`. The glue: the storyboard's
/// two views built in code inside a card-sized container (UIKit turns the cards' superview), the
/// button's action as a `UIAction`, and a completion that tells the room which card shows.
public final class FlipCardsScene: AnnouncingScene {
    /// The scene's name, size and words.
    public static let info = SceneInfo(
        id: "flip-cards", title: "Flip cards", size: CGSize(width: 414, height: 736),
        summary: LocalizedText(en: "Tap Flip to turn the card over.", zh: "点“翻”把卡片翻过来。"),
        events: [SceneEventWords(event: "flipped", en: "The {card} card shows", zh: "{card}卡片朝上")])
    /// The root view; its layer is the scene's.
    public let view = UIView(frame: CGRect(origin: .zero, size: info.size))
    /// The scene's root layer.
    public var layer: CALayer { view.layer }
    /// What `takeEvents()` drains.
    public let eventLog = SceneEventLog()
    /// The container the cards turn in.
    public let container = UIView(frame: CGRect(x: 82, y: 168, width: 250, height: 350))
    /// The original's `goldenView`, showing first.
    public let goldenView = UIView(frame: CGRect(x: 0, y: 0, width: 250, height: 350))
    /// The original's `greenView`, hidden first.
    public let greenView = UIView(frame: CGRect(x: 0, y: 0, width: 250, height: 350))
    /// The Flip button.
    public let flipButton = UIButton(frame: CGRect(x: 147, y: 580, width: 120, height: 50))
    private var isFlipped: Bool = false
    private var flipper: String?
    private lazy var input = UIViewInput(rootView: view)

    /// Builds the cards and the button.
    public init(seed: UInt64) {
        view.backgroundColor = .white
        goldenView.backgroundColor = UIColor(red: 1, green: 0.84, blue: 0, alpha: 1)
        greenView.backgroundColor = .systemGreen
        for (card, name) in [(goldenView, "golden"), (greenView, "green")] {
            card.layer.cornerRadius = 16
            card.layer.name = name
            container.addSubview(card)
        }
        greenView.isHidden = true
        view.addSubview(container)
        flipButton.setTitle("Flip", for: .normal)
        flipButton.setTitleColor(.white, for: .normal)
        flipButton.backgroundColor = .systemBlue
        flipButton.layer.cornerRadius = 10
        flipButton.layer.name = "flip"
        flipButton.addAction(UIAction { [unowned self] in self.transition($0.sender as? UIButton) }, for: .touchUpInside)
        view.addSubview(flipButton)
    }

    /// The original's `transition(_:)`, with our completion.
    func transition(_ sender: UIButton?) {
        isFlipped = !isFlipped

        let cardToFlip = isFlipped ? goldenView : greenView
        let bottomCard = isFlipped ? greenView : goldenView

        UIView.transition(from: cardToFlip,
                          to: bottomCard,
                          duration: 0.5,
                          options: [.transitionFlipFromLeft, .showHideTransitionViews],
                          completion: { _ in
            self.eventLog.announce("flipped", ["card": .string(self.isFlipped ? "green" : "golden")], by: self.flipper)
        })
    }

    /// Hands the tap to the view tree; Flip is answered.
    public func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by tapper: Tapper) -> TapOutcome {
        flipper = tapper.client
        return input.tap(hit, at: point, time: time) ? .answered : .ignored
    }
}
