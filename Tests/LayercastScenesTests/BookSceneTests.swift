import Foundation
import LayercastEngine
import LayercastJSON
@testable import LayercastSceneAPI
import LayercastSceneTesting
import Testing
@testable import LayercastScenes

// The book scene (docs/scenes.md §4) run on a manual clock, checked against numbers worked out from
// the seed and docs/engine-model.md.

/// The book under the harness (a room's clock, input path and frames), with perspective unless told.
private func book(perspective: Bool = true) -> SceneHarness<BookScene> {
    SceneHarness { BookScene(seed: 7, configuration: BookScene.Configuration(perspective: perspective)) }
}

private extension SceneHarness where S == BookScene {
    /// Runs to `t` and taps `point` there through the room's path; the events announced since the
    /// last `takeEvents()`, the tap's among them.
    func tapEvents(at point: CGPoint, time t: CFTimeInterval, by client: String = "c1") -> [SceneEvent] {
        run(to: t)
        tap(at: point, by: Tapper(client: client))
        return takeEvents()
    }

    func events(advancingTo t: CFTimeInterval) -> [SceneEvent] {
        run(to: t)
        return takeEvents()
    }

    /// The cover's presented properties at `t` (in the root's coordinates: it is a root sublayer).
    func cover(at t: CFTimeInterval) throws -> LayerProperties {
        try #require(scene.showView.flatMap { presentation(of: $0, at: t) }).properties
    }

    /// Every layer's name and model frame, in tree order: what the shelf looks like at rest.
    var tree: [String] {
        var out: [String] = []
        func walk(_ layer: CALayer) {
            out.append("\(layer.name ?? "root") \(layer.frame)")
            for child in layer.sublayers ?? [] { walk(child) }
        }
        walk(scene.layer)
        return out
    }
}

private func lerp(_ a: CGRect, _ b: CGRect, _ u: Double) -> CGRect {
    CGRect(x: a.minX + (b.minX - a.minX) * u, y: a.minY + (b.minY - a.minY) * u,
           width: a.width + (b.width - a.width) * u, height: a.height + (b.height - a.height) * u)
}

private func close(_ a: CGRect, _ b: CGRect, _ tolerance: CGFloat = 1e-6) -> Bool {
    abs(a.minX - b.minX) < tolerance && abs(a.minY - b.minY) < tolerance
        && abs(a.width - b.width) < tolerance && abs(a.height - b.height) < tolerance
}

private func close(_ a: CGPoint, _ b: CGPoint, _ tolerance: CGFloat = 1e-6) -> Bool {
    abs(a.x - b.x) < tolerance && abs(a.y - b.y) < tolerance
}

/// The angle of a rotation about y: Apple's CATransform3DMakeRotation(θ, 0, 1, 0) has m11 = cos θ,
/// m13 = −sin θ, m31 = sin θ, m33 = cos θ and the identity elsewhere.
private func isRotationY(_ m: CATransform3D, by angle: Double) -> Bool {
    let c = cos(angle), s = sin(angle)
    let expected: [CGFloat] = [c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1]
    let actual = [m.m11, m.m12, m.m13, m.m14, m.m21, m.m22, m.m23, m.m24,
                  m.m31, m.m32, m.m33, m.m34, m.m41, m.m42, m.m43, m.m44]
    return zip(actual, expected).allSatisfy { abs($0 - $1) < 1e-9 }
}

private func bookEvent(_ name: String, _ book: String, by client: String? = nil) -> SceneEvent {
    SceneEvent(name: name, data: ["book": .string(book)], client: client)
}

private func stopEvent(_ name: String, _ book: String, key: String) -> SceneEvent {
    SceneEvent(name: name, data: ["book": .string(book), "key": .string(key), "finished": true])
}

// Numbers from the seed and the layout.
/// The seed's speed 0.55, as the Float CAMediaTiming stores it.
private let speed = Double(Float(0.55))
/// A rotation's 0.5 s of animation time takes 0.5/speed ≈ 0.909 s of media time.
private let rotationMedia = 0.5 / speed
private let screen = CGRect(x: 0, y: 0, width: 414, height: 736)
/// Moby-Dick: row 0 (y 170), column 0 (x 28.5), 100 × 146.
private let mobyDick = CGRect(x: 28.5, y: 170, width: 100, height: 146)
private let mobyDickCentre = CGPoint(x: 78.5, y: 243)

@Suite("Book scene")
struct BookSceneTests {
    // MARK: Catalogue and shelf

    @Test func infoAndCatalogue() {
        let info = BookScene.info
        #expect(info.id == "book")
        #expect(info.size == CGSize(width: 414, height: 736))
        #expect(info.interactions == ["tap"])
        let slugs = ["moby-dick", "pride-and-prejudice", "walden", "dracula", "emma", "frankenstein"]
        #expect(AssetRow.rows(info) == slugs.map { AssetRow(id: "cover-\($0)", url: "/assets/book/book-\($0).svg", width: 100, height: 146) })
        #expect(AssetRow.notShipped(info) == [])
        #expect(SceneCatalog.scene(id: "book") == BookScene.self)
    }

    @Test func shelfLayout() throws {
        let h = book()
        let root = h.scene.layer
        #expect(root.frame == screen)
        #expect(h.scene.state == .shelf)
        // Three columns with equal gaps (414 − 300)/4 = 28.5; rows at y 170 and 450.
        let expected: [(String, CGRect)] = [
            ("book-moby-dick", mobyDick),
            ("book-pride-and-prejudice", CGRect(x: 157, y: 170, width: 100, height: 146)),
            ("book-walden", CGRect(x: 285.5, y: 170, width: 100, height: 146)),
            ("book-dracula", CGRect(x: 28.5, y: 450, width: 100, height: 146)),
            ("book-emma", CGRect(x: 157, y: 450, width: 100, height: 146)),
            ("book-frankenstein", CGRect(x: 285.5, y: 450, width: 100, height: 146)),
        ]
        for (name, rect) in expected {
            let book = try #require(h.layer(named: name))
            #expect(book.superlayer?.convert(book.frame, to: root) == rect, "\(name)")
            #expect(book.contents == CGImage(named: "cover-" + name.dropFirst(5), width: 100, height: 146))
        }
        // No reading view or cover until a book is tapped.
        #expect(h.layer(named: "reading") == nil && h.layer(named: "cover") == nil)
    }

    @Test func perspectiveByDefaultFlatAsAnOption() {
        // m34 = −1/d with the chosen d = 1000.
        #expect(book().scene.layer.sublayerTransform.m34 == -0.001)
        var perspective = CATransform3DIdentity
        perspective.m34 = -0.001
        #expect(book().scene.layer.sublayerTransform == perspective)
        #expect(book(perspective: false).scene.layer.sublayerTransform == CATransform3DIdentity)
    }

    // MARK: Hit testing

    @Test func tappingABookOpensIt() {
        let h = book()
        #expect(h.tapEvents(at: mobyDickCentre, time: 1, by: "c9") == [bookEvent("open", "moby-dick", by: "c9")])
        #expect(h.scene.state == .opening)
        #expect(h.scene.openBook?.slug == "moby-dick")
    }

    @Test func tappingTheShelfDoesNothing() {
        let h = book()
        let before = h.tree
        // The plank under row 0 (y 316…332), the gap between two books (x 128.5…157), the heading,
        // the wall below the rows, and a point outside the scene.
        for point in [CGPoint(x: 207, y: 324), CGPoint(x: 140, y: 243), CGPoint(x: 207, y: 70),
                      CGPoint(x: 207, y: 700), CGPoint(x: -5, y: 243)] {
            #expect(h.tapEvents(at: point, time: 1).isEmpty, "\(point)")
        }
        #expect(h.scene.state == .shelf)
        #expect(h.tree == before)
    }

    @Test func bookEdgesAreHalfOpen() {
        // CGRectContainsPoint: minX is inside, maxX is not (book-moby-dick spans x 28.5 ..< 128.5).
        let h = book()
        #expect(h.tapEvents(at: CGPoint(x: 128.5, y: 243), time: 1).isEmpty)
        #expect(h.tapEvents(at: CGPoint(x: 28.5, y: 243), time: 1) == [bookEvent("open", "moby-dick", by: "c1")])
    }

    // MARK: The anchor/position rule

    @Test func positionKeepingFrame() {
        // frame.origin + anchor × size.
        #expect(BookScene.position(keepingFrame: screen, anchorPoint: CGPoint(x: 0, y: 0.5)) == CGPoint(x: 0, y: 368))
        #expect(BookScene.position(keepingFrame: mobyDick, anchorPoint: CGPoint(x: 0.25, y: 1))
                == CGPoint(x: 28.5 + 25, y: 170 + 146))
        #expect(BookScene.position(keepingFrame: mobyDick, anchorPoint: CGPoint(x: 0.5, y: 0.5)) == CGPoint(x: 78.5, y: 243))
    }

    @Test func anchorChangeWithoutTheRuleShowsHalfTheCover() {
        // The seed's warning: the anchor alone moves a full-screen layer right by 0.5 × 414 = 207.
        let layer = CALayer()
        layer.frame = screen
        layer.anchorPoint = CGPoint(x: 0, y: 0.5)
        #expect(layer.frame == CGRect(x: 207, y: 0, width: 414, height: 736))
        // With the rule the frame stays put.
        let fixed = CALayer()
        fixed.frame = screen
        let frame = fixed.frame
        fixed.anchorPoint = CGPoint(x: 0, y: 0.5)
        fixed.position = BookScene.position(keepingFrame: frame, anchorPoint: fixed.anchorPoint)
        #expect(fixed.frame == screen)
    }

    // MARK: Opening

    @Test func coverGrowsFromTheBookToTheScreen() throws {
        let h = book()
        _ = h.tapEvents(at: mobyDickCentre, time: 1)
        let cover = try #require(h.layer(named: "cover"))
        #expect(cover.superlayer === h.scene.layer)
        #expect(cover.contents == CGImage(named: "cover-moby-dick", width: 100, height: 146))
        #expect(!cover.isDoubleSided)
        #expect(h.scene.itemPosition == mobyDick)
        // The model is the end of the grow; the presentation starts at the book's rect.
        #expect(cover.frame == screen)
        #expect(close(try h.cover(at: 1).frame, mobyDick))
        // UIView's 0.5 s with easeInEaseOut, at 0.1, 0.25 and 0.4 s into the grow.
        for dt in [0.1, 0.25, 0.4] {
            let expected = lerp(mobyDick, screen, easeInEaseOut(dt / 0.5))
            #expect(close(try h.cover(at: 1 + dt).frame, expected, 1e-4), "\(dt)")
        }
        // The reading view waits, transparent, under the cover.
        let reading = try #require(h.layer(named: "reading"))
        #expect(reading.opacity == 0)
        #expect(h.scene.layer.sublayers?.suffix(2).map(\.name) == ["reading", "cover"])
        #expect(h.events(advancingTo: 1.49).isEmpty)
        #expect(reading.opacity == 0 && cover.anchorPoint == CGPoint(x: 0.5, y: 0.5))
    }

    @Test func afterTheGrowTheCoverHingesOnItsLeftEdge() throws {
        let h = book()
        _ = h.tapEvents(at: mobyDickCentre, time: 1)
        #expect(h.events(advancingTo: 1.5).isEmpty)
        let cover = try #require(h.scene.showView)
        let reading = try #require(h.scene.readView)
        #expect(reading.opacity == 1)
        #expect(cover.anchorPoint == CGPoint(x: 0, y: 0.5))
        // Frame unchanged by the anchor change: position = (0, 0.5 × 736).
        #expect(cover.position == CGPoint(x: 0, y: 368))
        #expect(cover.frame == screen)
        // The anchor and opacity changes were not animated (UIKit's plain setters).
        #expect(reading.animationKeys() == nil)
        #expect(cover.animationKeys() == ["rotateToOpenBook"])
        let rotation = try #require(cover.animation(forKey: "rotateToOpenBook") as? CAKeyframeAnimation)
        #expect(rotation.keyPath == "transform.rotation.y")
        #expect(rotation.duration == 0.5 && rotation.speed == 0.55)
        #expect(!rotation.isRemovedOnCompletion && rotation.fillMode == .forwards)
        #expect(rotation.values?.compactMap { $0 as? CGFloat } == [0, -CGFloat.pi / 2])
    }

    @Test func openRotationAtAQuarterSecond() throws {
        let h = book()
        _ = h.tapEvents(at: mobyDickCentre, time: 1)
        h.run(to: 1.5)
        // 0.25 s of media time into the rotation is 0.25 × 0.55 = 0.1375 s of its 0.5 s: fraction
        // 0.275 of the way from 0 to −π/2 (linear keyframes).
        let angle = -Double.pi / 2 * (0.25 * speed / 0.5)
        let props = try h.cover(at: 1.75)
        #expect(isRotationY(props.transform, by: angle))
        #expect(abs(angle - -0.431969) < 1e-6)
        #expect(props.anchorPoint == CGPoint(x: 0, y: 0.5) && props.position == CGPoint(x: 0, y: 368))
        #expect(props.opacity == 1)
    }

    @Test func openedWhenTheOpenRotationStops() throws {
        let h = book()
        _ = h.tapEvents(at: mobyDickCentre, time: 1)
        let openedAt = 1.5 + rotationMedia
        #expect(h.events(advancingTo: openedAt - 1e-6).isEmpty)
        #expect(h.scene.state == .opening)
        #expect(h.events(advancingTo: openedAt + 1e-6) == [stopEvent("opened", "moby-dick", key: "rotateToOpenBook")])
        #expect(h.scene.state == .reading)
        let cover = try #require(h.scene.showView)
        // Hidden for the close, still holding −π/2 (fill forwards, not removed).
        #expect(cover.opacity == 0)
        #expect(cover.animationKeys() == ["rotateToOpenBook"])
        #expect(isRotationY(try h.cover(at: 5).transform, by: -.pi / 2))
    }

    @Test func tapsWhileAnimatingAreIgnored() {
        let h = book()
        _ = h.tapEvents(at: mobyDickCentre, time: 1)
        // Mid-grow on another book, mid-rotation anywhere.
        #expect(h.tapEvents(at: CGPoint(x: 335.5, y: 243), time: 1.2).isEmpty)
        #expect(h.tapEvents(at: CGPoint(x: 207, y: 368), time: 2).isEmpty)
        #expect(h.scene.state == .opening && h.scene.openBook?.slug == "moby-dick")
    }

    @Test func readingViewShowsTheBook() throws {
        let h = book()
        _ = h.tapEvents(at: mobyDickCentre, time: 1)
        h.run(to: 3)
        let title = try #require(h.layer(named: "title") as? CATextLayer)
        #expect(title.string == "Moby-Dick")
        #expect((h.layer(named: "author") as? CATextLayer)?.string == "Herman Melville")
        #expect((h.layer(named: "line-0") as? CATextLayer)?.string == "Call me Ishmael. Some years")
        #expect((h.layer(named: "back") as? CATextLayer)?.string == "‹ Shelf")
        // The cover, seen edge-on (flat) or from behind (perspective), is never what a tap finds.
        #expect(h.hit(at: CGPoint(x: 1, y: 368))?.name == "reading")
    }

    // MARK: Closing

    @Test func closeTurnsTheCoverShutAndShelvesIt() throws {
        let h = book()
        let shelf = h.tree
        _ = h.tapEvents(at: mobyDickCentre, time: 1)
        _ = h.events(advancingTo: 3)
        // A tap on the page (a text line) closes.
        #expect(h.tapEvents(at: CGPoint(x: 100, y: 165), time: 3, by: "c4") == [bookEvent("close", "moby-dick", by: "c4")])
        #expect(h.scene.state == .closing)
        let cover = try #require(h.scene.showView)
        #expect(cover.opacity == 1)
        #expect(cover.anchorPoint == CGPoint(x: 0, y: 0.5) && cover.frame == screen)
        // The held open rotation is gone; only the close one runs.
        #expect(cover.animationKeys() == ["rotateToCloseBook"])
        let rotation = try #require(cover.animation(forKey: "rotateToCloseBook") as? CAKeyframeAnimation)
        #expect(rotation.values?.compactMap { $0 as? CGFloat } == [-CGFloat.pi / 2, 0])
        #expect(rotation.duration == 0.5 && rotation.speed == 0.55 && !rotation.isRemovedOnCompletion)
        // At 0.25 s: fraction 0.275 from −π/2 back to 0.
        #expect(isRotationY(try h.cover(at: 3.25).transform, by: -Double.pi / 2 * (1 - 0.25 * speed / 0.5)))
        #expect(isRotationY(try h.cover(at: 3).transform, by: -.pi / 2))

        let closedAt = 3 + rotationMedia
        #expect(h.events(advancingTo: closedAt - 1e-6).isEmpty)
        #expect(h.events(advancingTo: closedAt + 1e-6) == [stopEvent("closed", "moby-dick", key: "rotateToCloseBook")])
        // The reading view has left; the cover shrinks back to the book over 0.5 s.
        #expect(h.layer(named: "reading") == nil)
        #expect(cover.frame == mobyDick)
        #expect(close(try h.cover(at: closedAt + 0.25).frame, lerp(screen, mobyDick, easeInEaseOut(0.5)), 1e-4))
        #expect(close(try h.cover(at: closedAt + 0.1).frame, lerp(screen, mobyDick, easeInEaseOut(0.2)), 1e-4))
        #expect(h.events(advancingTo: closedAt + 0.5 - 1e-6).isEmpty)
        #expect(h.events(advancingTo: closedAt + 0.5 + 1e-6) == [bookEvent("shelved", "moby-dick")])
        #expect(h.scene.state == .shelf && h.scene.showView == nil && h.scene.openBook == nil)
        #expect(h.tree == shelf)
        // The shelf takes taps again.
        #expect(h.tapEvents(at: CGPoint(x: 207, y: 523), time: 6) == [bookEvent("open", "emma", by: "c1")])
    }

    @Test func tapsOutsideThePageDoNotClose() {
        let h = book()
        _ = h.tapEvents(at: mobyDickCentre, time: 1)
        _ = h.events(advancingTo: 3)
        #expect(h.tapEvents(at: CGPoint(x: 500, y: 368), time: 3).isEmpty)
        #expect(h.scene.state == .reading)
    }

    // MARK: Perspective

    @Test func coverCornerMidTurn() throws {
        // Halfway (fraction 0.5, θ = −π/4) is 0.25 s of animation time, 0.25/0.55 s of media time.
        let t = 1.5 + 0.25 / speed
        let s = sin(Double.pi / 4)
        // The top-right corner (414, 0) relative to the hinge (0, 368): x' = 414 cos θ, z = 414 sin(π/4).
        let x = 414 * s, z = 414 * s
        // Perspective about the screen's centre (207, 368): w = 1 − z/1000.
        let w = 1 - z / 1000
        let expectations: [(Bool, CGPoint)] = [
            (true, CGPoint(x: 207 + (x - 207) / w, y: 368 + (0 - 368) / w)),
            (false, CGPoint(x: x, y: 0)),
        ]
        for (perspective, expected) in expectations {
            let h = book(perspective: perspective)
            _ = h.tapEvents(at: mobyDickCentre, time: 1)
            h.run(to: t)
            // The root's copy holds the presentation tree (superlayers are weak).
            let root = try #require(h.scene.layer.presentation(at: t))
            let cover = try #require(root.sublayers?.last)
            #expect(cover.name == "cover")
            #expect(close(cover.convert(CGPoint(x: 414, y: 0), to: root), expected, 1e-6), "perspective \(perspective)")
        }
        // The numbers themselves: (328.23, −152.32) with perspective.
        #expect(abs((207 + (x - 207) / w) - 328.23) < 0.01 && abs((368 - 368 / w) - -152.32) < 0.01)
    }

    // MARK: Lifetime and text

    @Test func sceneIsReleasedWhileABookIsOpen() {
        // The open rotation stays on the cover and retains its delegate: the delegate holds the
        // scene weakly, so an open book does not keep the scene alive.
        weak var released: BookScene?
        do {
            let h = book()
            _ = h.tapEvents(at: mobyDickCentre, time: 1)
            h.run(to: 3)
            released = h.scene
            #expect(released != nil)
        }
        #expect(released == nil)
    }

    @Test func linesWrapAtWordsWithinTheColumns() {
        for book in BookScene.books {
            let lines = BookScene.lines(of: book.opening, columns: 36)
            #expect(lines.allSatisfy { $0.count <= 36 }, "\(book.slug)")
            #expect(lines.joined(separator: " ") == book.opening, "\(book.slug)")
        }
        #expect(BookScene.lines(of: "a bb ccc", columns: 4) == ["a bb", "ccc"])
        #expect(BookScene.lines(of: "abcdef gh", columns: 4) == ["abcdef", "gh"])
        #expect(BookScene.lines(of: "", columns: 4) == [])
    }
}
