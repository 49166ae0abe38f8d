import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI

/// The iBooks-style book open and close (仿 iBooks 书本开启与关闭), docs/scenes.md §4, ported from seed
/// 003's view controller the way an iOS developer would write it with Core Animation: the
/// "preparation" (reading view and cover view), the grow, `animationDidStop:finished:` telling the
/// two rotations apart by key, and `readViewDidBackWithItem:`.
///
/// Layers: the scene root (414 × 736, a wooden wall) holds `shelf`, a container covering the scene
/// with the heading `heading` ("My Books", 30 pt bold, centred) and two rows `row-0` (y 170) and
/// `row-1` (y 450), each 414 × 162: three 100 × 146 books `book-<slug>` at x = 28.5, 157, 285.5
/// (equal gaps of 28.5), each an image layer of its cover (`cover-<slug>`, an SVG drawn with the
/// title and author), standing on a 16 pt plank `plank` at y 146 of the row.
///
/// Open (a tap whose hit layer is a book, while the shelf is showing; event `open`):
/// 1. The seed's preparation: a reading view `reading` (full screen, paper, opacity 0: back control
///    `back` "‹ Shelf", `title`, `author`, a `rule`, the book's opening lines `line-0`, `line-1`, …
///    wrapped at `columns` characters, and `page`) is added on top of the shelf; then the cover view
///    `cover` (the book's image) at the book's frame converted from its row to the root's coordinates
///    (the seed's convertRect:toView:), remembered as `itemPosition`.
/// 2. The grow: UIView.animateWithDuration(0.5) { frame = bounds } becomes an implicit animation of
///    bounds and position in a transaction of 0.5 s with UIView's default curve, easeInEaseOut.
/// 3. When the transaction completes: the reading view's opacity becomes 1 and the cover's
///    anchorPoint (0, 0.5), its position set by `position(keepingFrame:anchorPoint:)` so the frame
///    stays the full screen (both without implicit animations, as UIKit's plain view setters); then
///    a CAKeyframeAnimation on `transform.rotation.y`, values [0, −π/2], duration 0.5, speed 0.55
///    (so 0.5/0.55 ≈ 0.909 s of media time), linear, not removed on completion and filling forwards
///    (so the open cover holds its angle), delegate set, key "rotateToOpenBook".
/// 4. When it stops (the delegate finds it is the layer's animation for "rotateToOpenBook"): the
///    cover's opacity becomes 0 (kept for the close); event `opened`.
///
/// Close (a tap anywhere on the reading view once the book is open; event `close`): the cover's
/// opacity becomes 1, its anchor (0, 0.5) with the same rule (already so), the held open rotation
/// is removed and a keyframe rotation [−π/2, 0] with the same timing is added under key
/// "rotateToCloseBook". When it stops (event `closed`) the reading view leaves and the cover shrinks
/// back to `itemPosition` over 0.5 s (easeInEaseOut); when that completes the cover is removed and
/// the shelf takes taps again (event `shelved`).
///
/// Events, to the room; `open` and `close` carry the tapping client, the others none:
/// `open` and `close` `{"book": slug}`; `opened` and `closed`
/// `{"book": slug, "key": "rotateToOpenBook"|"rotateToCloseBook", "finished": flag}` with the key
/// the stopped animation was added under and animationDidStop's flag; `shelved` `{"book": slug}`.
///
/// Perspective: by default the root's sublayerTransform has m34 = −1/1000 (centred on the root's
/// anchor, the middle of the screen), so the cover swings towards the viewer about its left edge;
/// `Configuration(perspective: false)` leaves it identity and the cover just narrows, as in the seed.
/// The cover is single-sided: with perspective its back turns to the eye in the last ≈ 12° (tan θ =
/// −1000/207), where it is a sliver at the left edge, and a mirrored cover is never drawn.
///
/// Choices where the seed is silent: taps during a grow, rotation or shrink are ignored (the
/// seed's views took no touches while animating); the reading view leaves when the close rotation
/// stops, before the shrink, so the shrinking cover shows the shelf; the scene proceeds whatever
/// the `finished` flag says (nothing removes a rotation early here, so it is always true, and the
/// scene can never stall on a false one; the seed did nothing when it was false).
///
/// Fixed from the seed: its "shows only half" warning is the anchor/position rule — changing
/// anchorPoint keeps the position, so the frame moves by −Δanchor × size, half the screen to the
/// right; `position(keepingFrame:anchorPoint:)` is the rule made explicit. The seed's rotations did
/// not fill forwards, so the open cover snapped back to 0 behind its alpha 0 and the close rotation
/// could simply be stacked on it; filling forwards, the held open rotation is removed before the
/// close rotation is added (`transform.rotation.y` composes with what is below it).
public final class BookScene: Scene {
    public static let info = SceneInfo(
        id: "book",
        title: "Book open and close",
        size: CGSize(width: 414, height: 736),
        interactions: ["tap"],
        assets: books.map { SceneAsset(id: $0.cover, resource: "book-\($0.slug).svg", bundle: .module,
                                       width: bookSize.width, height: bookSize.height) },
        summary: LocalizedText(en: "Tap a book on the shelf to open it; tap the page to put it back.",
                               zh: "点书架上的书打开它,再点书页把它放回去。"),
        events: [
            SceneEventWords(event: "open", en: "《{book}》 opened {by}", zh: "《{book}》已打开{by}"),
            SceneEventWords(event: "opened", en: "Reading 《{book}》", zh: "正在阅读《{book}》"),
            SceneEventWords(event: "close", en: "《{book}》 closed {by}", zh: "《{book}》已合上{by}"),
            SceneEventWords(event: "closed", en: "《{book}》 back on the shelf", zh: "《{book}》已放回书架"),
            SceneEventWords(event: "shelved", en: "《{book}》 on the shelf", zh: "《{book}》在书架上"),
        ],
        terms: [
            "moby-dick": LocalizedText(en: "Moby-Dick", zh: "白鲸记"),
            "pride-and-prejudice": LocalizedText(en: "Pride and Prejudice", zh: "傲慢与偏见"),
            "walden": LocalizedText(en: "Walden", zh: "瓦尔登湖"),
            "dracula": LocalizedText(en: "Dracula", zh: "德古拉"),
            "emma": LocalizedText(en: "Emma", zh: "爱玛"),
            "frankenstein": LocalizedText(en: "Frankenstein", zh: "弗兰肯斯坦"),
        ]
    )

    /// How the shelf is drawn.
    public struct Configuration: Equatable, Sendable {
        /// Whether the root gives the turning cover perspective; false is the seed's flat look.
        public var perspective: Bool

        /// A configuration with perspective on unless told otherwise.
        public init(perspective: Bool = true) {
            self.perspective = perspective
        }
    }

    /// A book on the shelf: its slug names its layer, cover image and events.
    public struct Book: Equatable, Sendable {
        /// The book's short id (`moby-dick`), used in its layer name, cover image id and event data.
        public var slug: String
        /// The title the reading view shows.
        public var title: String
        /// The author the reading view shows.
        public var author: String
        /// The first lines of the book, shown on the reading view's page.
        public var opening: String

        /// The image id of its cover.
        public var cover: String { "cover-\(slug)" }
        /// The name of its layer on the shelf.
        public var layerName: String { "book-\(slug)" }
    }

    /// Where the scene is between the shelf and the reading view.
    public enum State: String, Sendable {
        /// The shelf takes taps.
        case shelf
        /// The cover grows and turns open.
        case opening
        /// The reading view takes taps.
        case reading
        /// The cover turns shut and shrinks back.
        case closing
    }

    // The seed's numbers.
    static let growDuration: CFTimeInterval = 0.5
    static let rotationDuration: CFTimeInterval = 0.5
    static let rotationSpeed: Float = 0.55
    static let openAngle = -CGFloat.pi / 2
    static let openAnchor = CGPoint(x: 0, y: 0.5)
    static let openKey = "rotateToOpenBook"
    static let closeKey = "rotateToCloseBook"

    // Chosen values (the seed's are not given).
    /// The eye's distance for the perspective, m34 = −1/d: far enough that the cover's free edge
    /// (at most 414 pt towards the eye) is at most 1/(1 − 0.414) ≈ 1.7× enlarged.
    static let eyeDistance: CGFloat = 1000
    static let bookSize = CGSize(width: 100, height: 146)
    /// Left edges of the three columns: equal gaps of (414 − 3·100)/4 = 28.5.
    static let columnX: [CGFloat] = [28.5, 157, 285.5]
    static let rowY: [CGFloat] = [170, 450]
    static let plankHeight: CGFloat = 16
    static let wallColor = CGColor(red: 138 / 255, green: 90 / 255, blue: 51 / 255, alpha: 1)
    static let plankColor = CGColor(red: 92 / 255, green: 58 / 255, blue: 30 / 255, alpha: 1)
    static let creamColor = CGColor(red: 246 / 255, green: 234 / 255, blue: 210 / 255, alpha: 1)
    static let paperColor = CGColor(red: 251 / 255, green: 246 / 255, blue: 234 / 255, alpha: 1)
    static let inkColor = CGColor(red: 43 / 255, green: 33 / 255, blue: 24 / 255, alpha: 1)
    static let greyColor = CGColor(red: 125 / 255, green: 111 / 255, blue: 94 / 255, alpha: 1)
    static let ruleColor = CGColor(red: 216 / 255, green: 204 / 255, blue: 180 / 255, alpha: 1)
    /// A text layer's height is its font size × this (one line with some leading).
    static let lineHeight: CGFloat = 1.2
    /// Page text: 17 pt lines 28 pt apart, wrapped at 36 characters (the 358 pt measure holds
    /// about 38 characters of 17 pt sans-serif).
    static let textSize: CGFloat = 17
    static let lineSpacing: CGFloat = 28
    static let columns = 36
    static let margin: CGFloat = 28

    /// The six books on the shelf, in shelf order (left to right, top row first).
    public static let books: [Book] = [
        Book(slug: "moby-dick", title: "Moby-Dick", author: "Herman Melville",
             opening: "Call me Ishmael. Some years ago—never mind how long precisely—having little or no money "
                 + "in my purse, and nothing particular to interest me on shore, I thought I would sail about "
                 + "a little and see the watery part of the world."),
        Book(slug: "pride-and-prejudice", title: "Pride and Prejudice", author: "Jane Austen",
             opening: "It is a truth universally acknowledged, that a single man in possession of a good "
                 + "fortune, must be in want of a wife."),
        Book(slug: "walden", title: "Walden", author: "Henry David Thoreau",
             opening: "When I wrote the following pages, or rather the bulk of them, I lived alone, in the "
                 + "woods, a mile from any neighbor, in a house which I had built myself, on the shore of "
                 + "Walden Pond, in Concord, Massachusetts, and earned my living by the labor of my hands only."),
        Book(slug: "dracula", title: "Dracula", author: "Bram Stoker",
             opening: "3 May. Bistritz.—Left Munich at 8:35 P. M., on 1st May, arriving at Vienna early next "
                 + "morning; should have arrived at 6:46, but train was an hour late."),
        Book(slug: "emma", title: "Emma", author: "Jane Austen",
             opening: "Emma Woodhouse, handsome, clever, and rich, with a comfortable home and happy "
                 + "disposition, seemed to unite some of the best blessings of existence; and had lived "
                 + "nearly twenty-one years in the world with very little to distress or vex her."),
        Book(slug: "frankenstein", title: "Frankenstein", author: "Mary Shelley",
             opening: "You will rejoice to hear that no disaster has accompanied the commencement of an "
                 + "enterprise which you have regarded with such evil forebodings. I arrived here yesterday, "
                 + "and my first task is to assure my dear sister of my welfare."),
    ]

    /// How the scene was configured when made.
    public let configuration: Configuration
    public let layer: CALayer
    /// Where the scene is now; `.shelf` at the start.
    public private(set) var state: State = .shelf
    /// The shelf's book layers, in `books` order.
    let bookLayers: [CALayer]
    /// The book being read, from the tap that opens it until its cover is back on the shelf.
    private(set) var openBook: Book?
    /// The seed's readView, in the tree from the open tap until the close rotation stops.
    private(set) var readView: CALayer?
    /// The seed's showView (tag 1001), in the tree from the open tap until it is back on the shelf.
    private(set) var showView: CALayer?
    /// The seed's _itemPosition: the tapped book's frame in the root's coordinates.
    private(set) var itemPosition: CGRect = .null
    private var events: [SceneEvent] = []

    /// `--book-flat`.
    public static var options: [SceneOption] {
        [.flag("book-flat", help: "Turn the book scene's covers flat, without perspective (the seed's look).")]
    }

    /// The book with the server's options.
    public static func controller(seed: UInt64, options: SceneOptionValues, services: SceneServices) -> any SceneController {
        let configuration = Configuration(perspective: !options.flag("book-flat"))
        return PlainSceneController(stage: SceneStage { BookScene(seed: seed, configuration: configuration) })
    }

    public convenience init(seed: UInt64) {
        self.init(seed: seed, configuration: Configuration())
    }

    /// The shelf at rest; `seed` is unused (nothing here is random).
    public init(seed: UInt64, configuration: Configuration) {
        self.configuration = configuration
        let size = Self.info.size
        layer = CALayer()
        layer.frame = CGRect(origin: .zero, size: size)
        layer.backgroundColor = Self.wallColor
        if configuration.perspective {
            var perspective = CATransform3DIdentity
            perspective.m34 = -1 / Self.eyeDistance
            layer.sublayerTransform = perspective
        }

        let shelf = CALayer()
        shelf.name = "shelf"
        shelf.frame = layer.bounds
        layer.addSublayer(shelf)

        let heading = Self.makeText("My Books", fontSize: 30, weight: 0.4, color: Self.creamColor, y: 60)
        heading.name = "heading"
        heading.alignmentMode = .center
        shelf.addSublayer(heading)

        var bookLayers: [CALayer] = []
        for (row, y) in Self.rowY.enumerated() {
            let rowLayer = CALayer()
            rowLayer.name = "row-\(row)"
            rowLayer.frame = CGRect(x: 0, y: y, width: size.width, height: Self.bookSize.height + Self.plankHeight)
            let plank = CALayer()
            plank.name = "plank"
            plank.frame = CGRect(x: 0, y: Self.bookSize.height, width: size.width, height: Self.plankHeight)
            plank.backgroundColor = Self.plankColor
            plank.shadowOpacity = 0.5
            plank.shadowOffset = CGSize(width: 0, height: 4)
            plank.shadowRadius = 4
            rowLayer.addSublayer(plank)
            for (column, x) in Self.columnX.enumerated() {
                let book = Self.books[row * Self.columnX.count + column]
                let bookLayer = CALayer()
                bookLayer.name = book.layerName
                bookLayer.frame = CGRect(origin: CGPoint(x: x, y: 0), size: Self.bookSize)
                bookLayer.contents = CGImage(named: book.cover, width: Self.bookSize.width, height: Self.bookSize.height)
                bookLayer.shadowOpacity = 0.4
                bookLayer.shadowOffset = CGSize(width: 2, height: 2)
                bookLayer.shadowRadius = 3
                rowLayer.addSublayer(bookLayer)
                bookLayers.append(bookLayer)
            }
            shelf.addSublayer(rowLayer)
        }
        self.bookLayers = bookLayers
    }

    /// The position that keeps a layer's `frame` where it is when its anchor point becomes
    /// `anchorPoint`: frame.origin + anchorPoint × frame.size. Exact for an identity transform,
    /// which the cover's model transform always is (its rotations are animations).
    static func position(keepingFrame frame: CGRect, anchorPoint: CGPoint) -> CGPoint {
        CGPoint(x: frame.minX + anchorPoint.x * frame.width, y: frame.minY + anchorPoint.y * frame.height)
    }

    /// The seed's `anchorPoint = …` followed by `frame = …` again: sets the anchor point without
    /// moving the frame.
    private static func setAnchorPoint(_ anchorPoint: CGPoint, keepingFrameOf layer: CALayer) {
        let frame = layer.frame
        layer.anchorPoint = anchorPoint
        layer.position = position(keepingFrame: frame, anchorPoint: anchorPoint)
    }

    /// The words of `text` greedily in lines of at most `columns` characters; a longer word gets a
    /// line of its own.
    static func lines(of text: String, columns: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= columns {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// A one-line text layer across the page's measure (the whole width when `x` is nil) at `y`.
    private static func makeText(_ string: String, fontSize: CGFloat, weight: CGFloat = 0, color: CGColor,
                                 x: CGFloat? = nil, y: CGFloat) -> CATextLayer {
        let text = CATextLayer()
        text.string = string
        text.fontSize = fontSize
        text.fontWeight = weight
        text.foregroundColor = color
        let width = info.size.width
        text.frame = x.map { CGRect(x: $0, y: y, width: width - 2 * $0, height: fontSize * lineHeight) }
            ?? CGRect(x: 0, y: y, width: width, height: fontSize * lineHeight)
        return text
    }

    /// The seed's CYZBookReadView: a full-screen page with a back control, the title, the author
    /// and the book's opening lines.
    private static func makeReadView(for book: Book) -> CALayer {
        let readView = CALayer()
        readView.name = "reading"
        readView.frame = CGRect(origin: .zero, size: info.size)
        readView.backgroundColor = paperColor

        let back = makeText("‹ Shelf", fontSize: 17, color: plankColor, x: 16, y: 28)
        back.name = "back"
        let title = makeText(book.title, fontSize: 26, weight: 0.4, color: inkColor, x: margin, y: 72)
        title.name = "title"
        let author = makeText(book.author, fontSize: 15, color: greyColor, x: margin, y: 106)
        author.name = "author"
        let rule = CALayer()
        rule.name = "rule"
        rule.frame = CGRect(x: margin, y: 136, width: info.size.width - 2 * margin, height: 1)
        rule.backgroundColor = ruleColor
        for sublayer in [back, title, author, rule] { readView.addSublayer(sublayer) }

        for (i, line) in lines(of: book.opening, columns: columns).enumerated() {
            let text = makeText(line, fontSize: textSize, color: inkColor, x: margin, y: 156 + CGFloat(i) * lineSpacing)
            text.name = "line-\(i)"
            readView.addSublayer(text)
        }
        let page = makeText("1", fontSize: 13, color: greyColor, y: 700)
        page.name = "page"
        page.alignmentMode = .center
        readView.addSublayer(page)
        return readView
    }

    // MARK: Input

    @discardableResult
    public func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by tapper: Tapper) -> TapOutcome {
        guard let hit else { return .ignored }
        switch state {
        case .shelf:
            guard let index = bookLayers.firstIndex(where: { $0 === hit }) else { return .ignored }
            open(Self.books[index], itemView: bookLayers[index], by: tapper.client)
            return .answered
        case .reading:
            guard let readView, Self.isLayer(hit, inside: readView) else { return .ignored }
            readViewDidBack(by: tapper.client)
            return .answered
        case .opening, .closing:
            return .ignored
        }
    }

    /// Whether `layer` is `ancestor` or lies in its subtree.
    private static func isLayer(_ layer: CALayer, inside ancestor: CALayer) -> Bool {
        var candidate: CALayer? = layer
        while let current = candidate {
            if current === ancestor { return true }
            candidate = current.superlayer
        }
        return false
    }

    // MARK: Opening

    /// The seed's preparation and open animation: reading view under the cover view, the cover at
    /// the book's place, grown to full screen over 0.5 s.
    private func open(_ book: Book, itemView: CALayer, by client: String) {
        let readView = Self.makeReadView(for: book)
        // Hidden so the page does not show while the cover still grows.
        readView.opacity = 0
        layer.addSublayer(readView)

        let showView = CALayer()
        showView.name = "cover"
        showView.contents = itemView.contents
        showView.isDoubleSided = false
        // [itemView.superview convertRect:itemView.frame toView:self.view]
        itemPosition = itemView.superlayer?.convert(itemView.frame, to: layer) ?? itemView.frame
        showView.frame = itemPosition
        layer.addSublayer(showView)

        self.readView = readView
        self.showView = showView
        openBook = book
        state = .opening
        events.append(SceneEvent(name: "open", data: ["book": .string(book.slug)], client: client))

        // [UIView animateWithDuration:0.5f animations:^{ showView.frame = self.view.bounds; } completion:…]
        CATransaction.begin()
        CATransaction.setAnimationDuration(Self.growDuration)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeInEaseOut))
        CATransaction.setCompletionBlock { [weak self] in self?.coverDidGrow() }
        showView.frame = layer.bounds
        CATransaction.commit()
    }

    /// The grow's completion: show the reading view, hinge the cover on its left edge and turn it.
    private func coverDidGrow() {
        guard let showView, let readView else { return }
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        readView.opacity = 1
        Self.setAnchorPoint(Self.openAnchor, keepingFrameOf: showView)
        CATransaction.commit()
        showView.add(rotation(from: 0, to: Self.openAngle), forKey: Self.openKey)
    }

    /// The seed's CAKeyframeAnimation on transform.rotation.y, held at its end.
    private func rotation(from start: CGFloat, to end: CGFloat) -> CAKeyframeAnimation {
        let animation = CAKeyframeAnimation(keyPath: "transform.rotation.y")
        animation.duration = Self.rotationDuration
        animation.speed = Self.rotationSpeed
        animation.isRemovedOnCompletion = false
        animation.fillMode = .forwards
        animation.values = [start, end]
        animation.delegate = BookAnimationDelegate(scene: self)
        return animation
    }

    // MARK: Closing

    /// The seed's readViewDidBackWithItem: the cover shows again and turns shut.
    private func readViewDidBack(by client: String) {
        guard let showView, let openBook else { return }
        state = .closing
        events.append(SceneEvent(name: "close", data: ["book": .string(openBook.slug)], client: client))
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        showView.opacity = 1
        Self.setAnchorPoint(Self.openAnchor, keepingFrameOf: showView)
        CATransaction.commit()
        // The held open rotation would compose with the close one.
        showView.removeAnimation(forKey: Self.openKey)
        showView.add(rotation(from: Self.openAngle, to: 0), forKey: Self.closeKey)
    }

    // MARK: Animation delegate

    /// The seed's animationDidStop:finished:, telling the rotations apart by the key they were
    /// added under (`animationForKey:` compared with the stopped animation).
    fileprivate func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        guard let showView, let openBook else { return }
        if showView.animation(forKey: Self.openKey) === anim {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            showView.opacity = 0
            CATransaction.commit()
            state = .reading
            events.append(stopEvent("opened", book: openBook, key: Self.openKey, finished: flag))
        } else if showView.animation(forKey: Self.closeKey) === anim {
            events.append(stopEvent("closed", book: openBook, key: Self.closeKey, finished: flag))
            readView?.removeFromSuperlayer()
            readView = nil
            CATransaction.begin()
            CATransaction.setAnimationDuration(Self.growDuration)
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeInEaseOut))
            CATransaction.setCompletionBlock { [weak self] in self?.coverDidShelve() }
            showView.frame = itemPosition
            CATransaction.commit()
        }
    }

    private func stopEvent(_ name: String, book: Book, key: String, finished: Bool) -> SceneEvent {
        SceneEvent(name: name, data: ["book": .string(book.slug), "key": .string(key), "finished": .bool(finished)])
    }

    /// The shrink's completion: the cover leaves and the shelf takes taps again.
    private func coverDidShelve() {
        guard let openBook else { return }
        showView?.removeFromSuperlayer()
        showView = nil
        self.openBook = nil
        state = .shelf
        events.append(SceneEvent(name: "shelved", data: ["book": .string(openBook.slug)]))
    }

    public func takeEvents() -> [SceneEvent] {
        defer { events = [] }
        return events
    }
}

/// The rotations' delegate (the seed's `animation.delegate = self`). Holds the scene weakly:
/// animations retain their delegates, and the open rotation stays on the cover.
private final class BookAnimationDelegate: CAAnimationDelegate {
    weak var scene: BookScene?

    init(scene: BookScene) { self.scene = scene }

    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        scene?.animationDidStop(anim, finished: flag)
    }
}
