import Foundation
import LayercastEngine
import LayercastSceneAPI
import LayercastUIKit
import Testing

/// Image views, labels and buttons write through to their layers; images come from registered assets.
@Suite struct ViewKindsTests {
    @Test func anImageViewShowsARegisteredAssetAtItsSize() throws {
        UIImage.register([SceneAsset(id: "uikit-test-star", url: "/star.svg", width: 40, height: 30)])
        let star = try #require(UIImage(named: "uikit-test-star"))
        let view = UIImageView(image: star)
        #expect(view.frame == CGRect(x: 0, y: 0, width: 40, height: 30))
        #expect(view.layer.contents == CGImage(named: "uikit-test-star", width: 40, height: 30))
        view.contentMode = .scaleAspectFit
        #expect(view.layer.contentsGravity == .resizeAspect)
        #expect(!view.isUserInteractionEnabled)
    }

    @Test func aLabelIsATextLayer() throws {
        let label = UILabel(frame: CGRect(x: 0, y: 0, width: 100, height: 20))
        label.text = "+8"
        label.font = .systemFont(ofSize: 22, weight: .bold)
        label.textColor = .orange
        label.textAlignment = .center
        let text = try #require(label.layer as? CATextLayer)
        #expect(text.string == "+8" && text.fontSize == 22 && text.fontWeight == 0.4)
        #expect(text.foregroundColor == CGColor.orange && text.alignmentMode == .center)
    }

    @Test func aButtonShowsTheTitleOfItsState() {
        let button = UIButton(frame: CGRect(x: 0, y: 0, width: 80, height: 40))
        button.setTitle("Like", for: .normal)
        button.setTitle("Liked", for: .selected)
        #expect(button.titleLabel?.text == "Like")
        button.isSelected = true
        #expect(button.titleLabel?.text == "Liked" && button.currentTitle == "Liked")
        button.isEnabled = false   // selected and disabled: no title of its own, the selected one stands in
        #expect(button.titleLabel?.text == "Liked")
        button.frame = CGRect(x: 0, y: 0, width: 120, height: 50)
        #expect(button.titleLabel?.frame == CGRect(x: 0, y: 0, width: 120, height: 50))
    }

    @Test func anImageChangeInAFlipSwitchesHalfWay() throws {
        let stage = SceneClock()
        let card = stage.view(CGRect(x: 0, y: 0, width: 60, height: 90))
        let face = UIImageView(frame: card.bounds)
        card.addSubview(face)
        face.image = UIImage(cgImage: CGImage(named: "back", width: 60, height: 90))
        stage.run {
            UIView.transition(with: card, duration: 1, options: .transitionFlipFromRight, animations: {
                face.image = UIImage(cgImage: CGImage(named: "front", width: 60, height: 90))
            })
        }
        #expect(try #require(face.layer.presentation(at: 0.45)).contents?.name == "back")
        #expect(try #require(face.layer.presentation(at: 0.55)).contents?.name == "front")
    }

    @Test func transitionFromToReplacesTheViewAtTheEnd() {
        let stage = SceneClock()
        let box = stage.view(CGRect(x: 0, y: 0, width: 100, height: 100))
        let old = UIView(frame: box.bounds), new = UIView(frame: box.bounds)
        box.addSubview(old)
        var finished: Bool?
        stage.run { UIView.transition(from: old, to: new, duration: 0.5, options: .transitionFlipFromTop, completion: { finished = $0 }) }
        #expect(new.superview === box && old.superview === box)
        stage.advance(to: 0.5)
        #expect(finished == true)
        #expect(old.superview == nil && box.subviews.count == 1 && box.subviews.first === new)
        #expect(!new.isHidden && !old.isHidden)
    }

    @Test func anAnimatorOfNoDurationFinishesAtTheNextTurn() {
        let stage = SceneClock()
        let view = stage.view(CGRect(x: 0, y: 0, width: 10, height: 10))
        var ended: UIViewAnimatingPosition?
        stage.run {
            let animator = UIViewPropertyAnimator(duration: 0, curve: .linear) { view.alpha = 0.5 }
            animator.addCompletion { ended = $0 }
            animator.startAnimation()
        }
        #expect(view.alpha == 0.5 && view.layer.animationKeys() == nil)
        stage.advance(to: 0)
        #expect(ended == .end)
    }
}
