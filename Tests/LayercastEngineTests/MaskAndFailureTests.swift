import Foundation
import Testing
@testable import LayercastEngine

// Masks, masksToBounds clips (docs/engine-model.md §10.4) and refused animations (§11).

@Suite("Masks, clips and refused animations")
struct MaskAndFailureTests {
    @Test func clipIsTheRoundedBounds() {
        var p = LayerProperties()
        p.bounds = CGRect(x: 0, y: 0, width: 100, height: 40)
        p.cornerRadius = 30
        #expect(p.sublayerClip == nil)
        p.masksToBounds = true
        // The radius is clamped to half the shorter side, 20.
        #expect(p.sublayerClip == LayerClip(rect: p.bounds, cornerRadius: 20))
        let clip = p.sublayerClip!
        #expect(!clip.contains(CGPoint(x: 2, y: 2)))        // in the corner's cut-off
        #expect(clip.contains(CGPoint(x: 20, y: 2)))
        #expect(clip.contains(CGPoint(x: 50, y: 20)))
    }

    @Test func hitTestingIgnoresRoundedCornersAndMasks() {
        // Apple: hitTest returns nil only outside the bounds rectangle; the mask is not consulted.
        let parent = CALayer()
        parent.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        parent.masksToBounds = true
        parent.cornerRadius = 50
        let child = CALayer()
        child.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        parent.addSublayer(child)
        let mask = CALayer()
        mask.frame = CGRect(x: 50, y: 50, width: 10, height: 10)
        parent.mask = mask
        #expect(parent.hitTest(CGPoint(x: 1, y: 1)) === child)
        #expect(parent.hitTest(CGPoint(x: 90, y: 10)) === parent)
        #expect(parent.hitTest(CGPoint(x: 101, y: 10)) == nil)
    }

    @Test func maskRunsInTheMaskedLayersTimeAndIsPresented() {
        SceneContext(clock: ManualClock()).run {
            let root = CALayer()
            let layer = CALayer()
            root.addSublayer(layer)
            layer.speed = 2
            let mask = CAShapeLayer()
            layer.mask = mask
            #expect(mask.superlayer == nil && mask.rootLayer === root)
            let grow = CABasicAnimation(keyPath: "strokeEnd")
            grow.fromValue = 0
            grow.toValue = 1
            grow.duration = 1
            mask.add(grow, forKey: "grow")
            // At media time 0.25 the masked layer's time is 0.5.
            #expect(abs(layer.presentation(at: 0.25)!.mask!.properties.shape!.strokeEnd - 0.5) < 1e-9)
            #expect(abs(mask.presentation(at: 0.25)!.strokeEnd - 0.5) < 1e-9)
            // A mask takes implicit animations as a layer in a tree does.
            mask.opacity = 0.5
            #expect(mask.animationKeys() == ["grow", "opacity"])
        }
    }

    @Test func refusedAnimationsAreCountedAndReportedOncePerKeyPath() {
        let failures = CALayer.unsupportedAnimations
        failures.isFatal = false
        defer { failures.isFatal = true }
        let reports = ReportLog()
        failures.report = { keyPath, message in reports.append("\(keyPath): \(message)") }
        defer { failures.report = nil }
        SceneContext(clock: ManualClock()).run {
            let before = failures.count
            let plain = CALayer()
            plain.add(CABasicAnimation(keyPath: "strokeEnd"), forKey: "a")
            plain.add(CABasicAnimation(keyPath: "strokeEnd"), forKey: "b")
            let group = CAAnimationGroup()
            group.animations = [CABasicAnimation(keyPath: "emitterCells.heart.birthRate")]
            plain.add(group, forKey: "c")
            #expect(failures.count - before == 3)
            #expect(reports.lines == [
                "strokeEnd: keyPath: 'strokeEnd' is a CAShapeLayer property, not one of this layer",
                "emitterCells.heart.birthRate: animations[0].keyPath: 'emitterCells.heart.birthRate' is a CAEmitterLayer property, not one of this layer",
            ])
            // Still attached, as on iOS; a supported animation is not counted.
            #expect(plain.animationKeys() == ["a", "b", "c"])
            CAShapeLayer().add(CABasicAnimation(keyPath: "strokeEnd"), forKey: "ok")
            #expect(failures.count - before == 3)
            #expect(CABasicAnimation(keyPath: "strokeEnd").validationError(for: CAShapeLayer()) == nil)
        }
    }
}

/// Lines collected from the report hook.
private final class ReportLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var lines: [String] { lock.withLock { stored } }
    func append(_ line: String) { lock.withLock { stored.append(line) } }
}
