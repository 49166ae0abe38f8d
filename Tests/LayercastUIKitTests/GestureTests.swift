import Foundation
import LayercastEngine
import LayercastSceneAPI
import LayercastUIKit
import Testing

/// `UIViewInput` hands the scene's resolved taps and drags to recognizers and controls (§12.6).
@Suite struct GestureTests {
    /// A root view standing for a scene's, and the input over it.
    private func scene() -> (SceneClock, UIView, UIViewInput) {
        let stage = SceneClock()
        let root = stage.view(CGRect(x: 0, y: 0, width: 400, height: 400))
        return (stage, root, UIViewInput(rootView: root))
    }

    @Test func aTapOnAButtonsLabelSendsTheButtonsActions() {
        let (stage, root, input) = scene()
        let button = UIButton(frame: CGRect(x: 100, y: 100, width: 80, height: 40))
        button.setTitle("Like", for: .normal)
        root.addSubview(button)
        var sent = 0
        button.addAction(UIAction { _ in sent += 1 }, for: .touchUpInside)
        let point = CGPoint(x: 140, y: 120)
        let hit = stage.root.hitTest(point, at: 0)
        #expect(hit === button.titleLabel?.layer)   // the label is on top; it takes no input itself
        #expect(input.tap(hit, at: point, time: 0))
        #expect(sent == 1)
        button.isEnabled = false
        #expect(!input.tap(hit, at: point, time: 0))
        #expect(sent == 1)
    }

    @Test func aTapIsJudgedWhereTheViewWasShownAndAskedInItsCoordinates() {
        let (stage, root, input) = scene()
        let card = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        root.addSubview(card)
        var location: CGPoint?
        card.addGestureRecognizer(UITapGestureRecognizer { location = $0.location(in: card) })
        stage.run { UIView.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { card.center = CGPoint(x: 250, y: 50) }) }
        // At 0.5 the card is shown at x 100…200 although its model is at 200…300.
        let point = CGPoint(x: 150, y: 50)
        let hit = stage.root.hitTest(point, at: 0.5)
        #expect(hit === card.layer)
        #expect(input.tap(hit, at: point, time: 0.5))
        #expect(location == CGPoint(x: -50, y: 50))   // location(in:) uses the model, as UIKit's
    }

    @Test func doubleTapsNeedTwoTapsCloseTogether() {
        let (_, root, input) = scene()
        var fired = 0
        let recognizer = UITapGestureRecognizer { _ in fired += 1 }
        recognizer.numberOfTapsRequired = 2
        root.addGestureRecognizer(recognizer)
        input.tap(root.layer, at: .zero, time: 0)
        input.tap(root.layer, at: .zero, time: 1)     // too late: starts again
        #expect(fired == 0)
        input.tap(root.layer, at: .zero, time: 1.2)
        #expect(fired == 1)
    }

    @Test func viewsThatTakeNoInputPassItToTheirSuperview() {
        let (_, root, input) = scene()
        let panel = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        let child = UIView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        panel.addSubview(child)
        root.addSubview(panel)
        var tapped: [String] = []
        root.addGestureRecognizer(UITapGestureRecognizer { _ in tapped.append("root") })
        panel.addGestureRecognizer(UITapGestureRecognizer { _ in tapped.append("panel") })
        input.tap(child.layer, at: CGPoint(x: 10, y: 10), time: 0)
        panel.isUserInteractionEnabled = false
        input.tap(child.layer, at: CGPoint(x: 10, y: 10), time: 0)
        #expect(tapped == ["panel", "root"])
        #expect(root.hitTest(CGPoint(x: 10, y: 10), with: nil) === root)
    }

    @Test func aPanReportsStatesTranslationAndVelocity() {
        let (_, root, input) = scene()
        let knob = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        knob.transform = CGAffineTransform(scaleX: 2, y: 2)   // its coordinates are half the scene's
        root.addSubview(knob)
        var log: [(UIGestureRecognizer.State, CGPoint, CGPoint)] = []
        knob.addGestureRecognizer(UIPanGestureRecognizer { pan in
            log.append((pan.state, pan.translation(in: root), pan.velocity(in: knob)))
        })
        input.drag(.began, hit: knob.layer, at: CGPoint(x: 50, y: 50), time: 0, by: "c1")
        #expect(log.isEmpty)
        input.drag(.moved, hit: nil, at: CGPoint(x: 60, y: 50), time: 0.1, by: "c1")
        input.drag(.moved, hit: nil, at: CGPoint(x: 80, y: 70), time: 0.2, by: "c1")
        input.drag(.ended, hit: nil, at: CGPoint(x: 80, y: 70), time: 0.2, by: "c1")
        #expect(log.map(\.0) == [.began, .changed, .ended])
        #expect(log.map(\.1) == [CGPoint(x: 10, y: 0), CGPoint(x: 30, y: 20), CGPoint(x: 30, y: 20)])
        #expect(abs(log[1].2.x - 100) < 1e-9 && abs(log[1].2.y - 100) < 1e-9)   // 20 scene points in 0.1 s, halved
    }
}
