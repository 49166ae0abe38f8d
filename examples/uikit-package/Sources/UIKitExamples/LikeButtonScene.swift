import Layercast

/// A like button that pops and springs back when tapped, and toggles between liked and not.
///
/// Ported from zacmks/TenonutriFeed, `TecnonutriFeed/Presentation/UICustom/LikeButton.swift`
/// (github.com/zacmks/TenonutriFeed): its `touchesBegan` spring (scale 1.1, then
/// `UIView.animate(withDuration: 0.5, delay: 0, usingSpringWithDamping: 0.5, initialSpringVelocity: 6,
/// options: .allowUserInteraction)` back to identity) and `selectDeselect`, unchanged. The glue: a
/// `UIAction` for the `#selector` target (no Objective-C runtime here), the pop run from that action
/// (a scene hears taps, not touches), and titles instead of the app's heart images.
public final class LikeButton: UIButton {
    /// A button that toggles `isSelected` with the pop on every tap.
    public override init(frame: CGRect) {
        super.init(frame: frame)
        addAction(UIAction { [unowned self] _ in
            self.pop()
            self.selectDeselect()
        }, for: .touchUpInside)
    }

    public required init?(coder aDecoder: NSCoder) { return nil }

    /// The original's `touchesBegan`: grow to 1.1 at once, then spring back to identity.
    func pop() {
        self.transform = CGAffineTransform(scaleX: 1.1, y: 1.1)
        UIView.animate(withDuration: 0.5, delay: 0.0, usingSpringWithDamping: 0.5, initialSpringVelocity: 6,
                       options: .allowUserInteraction, animations: {
            self.transform = CGAffineTransform.identity
        }, completion: nil)
    }

    /// The original's `selectDeselect`.
    func selectDeselect() {
        self.isSelected = !self.isSelected
    }
}

/// The like button in a scene: one button in the middle; every tap pops it, toggles it and tells the room.
public final class LikeButtonScene: AnnouncingScene {
    /// The scene's name, size and words.
    public static let info = SceneInfo(
        id: "like-button", title: "Like button", size: CGSize(width: 414, height: 736),
        summary: LocalizedText(en: "Tap the button to like.", zh: "点按钮点赞。"),
        events: [SceneEventWords(event: "like", when: ["liked": true], en: "Liked {by}", zh: "已点赞{by}"),
                 SceneEventWords(event: "like", en: "Like taken back {by}", zh: "已取消点赞{by}")])
    /// The root view; its layer is the scene's.
    public let view = UIView(frame: CGRect(origin: .zero, size: info.size))
    /// The scene's root layer.
    public var layer: CALayer { view.layer }
    /// What `takeEvents()` drains.
    public let eventLog = SceneEventLog()
    /// The button.
    public let button = LikeButton(frame: CGRect(x: 127, y: 338, width: 160, height: 60))
    private lazy var input = UIViewInput(rootView: view)

    /// Builds the view tree.
    public init(seed: UInt64) {
        view.backgroundColor = .white
        button.setTitle("♡ Like", for: .normal)
        button.setTitle("♥ Liked", for: .selected)
        button.setTitleColor(.systemPink, for: .normal)
        button.setTitleColor(.white, for: .selected)
        button.backgroundColor = .systemGray6
        button.layer.cornerRadius = 30
        button.layer.name = "like"
        button.addAction(UIAction { [unowned self] _ in
            self.button.backgroundColor = self.button.isSelected ? .systemPink : .systemGray6
        }, for: .touchUpInside)
        view.addSubview(button)
    }

    /// Hands the tap to the view tree; a tap on the button is answered with `like`.
    public func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by tapper: Tapper) -> TapOutcome {
        guard input.tap(hit, at: point, time: time) else { return .ignored }
        eventLog.announce("like", ["liked": .bool(button.isSelected)], by: tapper.client)
        return .answered
    }
}
