import Foundation
import Testing
@testable import LayercastEngine

// CAShapeLayer's defaults, its animatable key paths and path interpolation (docs/engine-model.md §10.1),
// in a scene whose manual clock reads 0: a 1 s animation added now has fraction = media time.

private func atTimeZero(_ body: () -> Void) {
    SceneContext(clock: ManualClock()).run(body)
}

private func basic(_ keyPath: String, from: Any?, to: Any?) -> CABasicAnimation {
    let a = CABasicAnimation(keyPath: keyPath)
    a.fromValue = from
    a.toValue = to
    a.duration = 1
    return a
}

private func line(to end: CGPoint) -> CGPath {
    let p = CGMutablePath()
    p.move(to: .zero)
    p.addLine(to: end)
    return p.copy()!
}

@Suite("CAShapeLayer")
struct ShapeLayerTests {
    @Test func defaultsAreApples() {
        // Apple's CAShapeLayer reference: fill opaque black, no stroke, width 1, miter limit 10,
        // butt caps, miter joins, non-zero fill, stroke 0…1.
        let s = CAShapeLayer()
        #expect(s.path == nil)
        #expect(s.fillColor == .black)
        #expect(s.strokeColor == nil)
        #expect(s.lineWidth == 1)
        #expect(s.miterLimit == 10)
        #expect(s.lineCap == .butt)
        #expect(s.lineJoin == .miter)
        #expect(s.fillRule == .nonZero)
        #expect(s.lineDashPattern == nil)
        #expect(s.lineDashPhase == 0)
        #expect(s.strokeStart == 0 && s.strokeEnd == 1)
        #expect(CALayer().properties.shape == nil)
    }

    @Test func dashPatternRoundTripsAsNumbers() {
        let s = CAShapeLayer()
        s.lineDashPattern = [4, 2.5]
        #expect(s.properties.shape?.lineDashPattern == [4, 2.5])
        #expect(s.lineDashPattern == [4, 2.5])
    }

    @Test func strokeEndAndWidthArePresented() {
        atTimeZero {
            let s = CAShapeLayer()
            s.path = line(to: CGPoint(x: 100, y: 0))
            s.add(basic("strokeEnd", from: 0, to: 1), forKey: "progress")
            s.add(basic("lineWidth", from: 2, to: 10), forKey: "width")
            s.add(basic("lineDashPhase", from: 0, to: 8), forKey: "phase")
            s.add(basic("miterLimit", from: 10, to: 0), forKey: "miter")
            let p = s.presentation(at: 0.25)!
            #expect(close(p.strokeEnd, 0.25))
            #expect(close(p.lineWidth, 4))
            #expect(close(p.lineDashPhase, 2))
            #expect(close(p.miterLimit, 7.5))
            #expect(s.strokeEnd == 1)
        }
    }

    @Test func colorsInterpolateUnpremultiplied() {
        atTimeZero {
            let s = CAShapeLayer()
            s.add(basic("fillColor", from: CGColor(red: 1, green: 0, blue: 0, alpha: 1),
                        to: CGColor(red: 0, green: 0, blue: 1, alpha: 0)), forKey: "fill")
            s.add(basic("strokeColor", from: CGColor.white, to: CGColor.black), forKey: "stroke")
            let p = s.presentation(at: 0.25)!
            #expect(p.fillColor == CGColor(red: 0.75, green: 0, blue: 0.25, alpha: 0.75))
            #expect(p.strokeColor == CGColor(gray: 0.75, alpha: 1))
        }
    }

    @Test func pathsOfTheSameStructureInterpolatePointwise() {
        atTimeZero {
            let s = CAShapeLayer()
            let a = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
            let b = CGPath(rect: CGRect(x: 10, y: 20, width: 30, height: 40))
            s.add(basic("path", from: a, to: b), forKey: "morph")
            // Every point moves a quarter of the way: the rect (2.5, 5, 15, 17.5).
            #expect(s.presentation(at: 0.25)!.path == CGPath(rect: CGRect(x: 2.5, y: 5, width: 15, height: 17.5)))
        }
    }

    @Test func pathsOfOtherStructuresSwitchAtTheMidpoint() {
        atTimeZero {
            let s = CAShapeLayer()
            let a = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
            let b = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10, height: 10))
            s.add(basic("path", from: a, to: b), forKey: "morph")
            #expect(s.presentation(at: 0.49)!.path == a)
            #expect(s.presentation(at: 0.5)!.path == b)
        }
    }

    @Test func cubicKeyframesOverPathsOfOtherStructuresAreLinear() {
        // A spline needs one shape for all four values around a segment; otherwise the segment
        // is §3's interpolation, which switches at 0.5 (this used to index out of range).
        atTimeZero {
            let s = CAShapeLayer()
            let rect = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
            let a = CAKeyframeAnimation(keyPath: "path")
            a.values = [line(to: CGPoint(x: 10, y: 0)), rect, line(to: CGPoint(x: 30, y: 0))]
            a.calculationMode = .cubic
            a.duration = 1
            s.add(a, forKey: "morph")
            #expect(s.presentation(at: 0.2)!.path == line(to: CGPoint(x: 10, y: 0)))
            #expect(s.presentation(at: 0.3)!.path == rect)
        }
    }

    @Test func pathIsNotImplicitlyAnimated() {
        // Apple: "Unlike most animatable properties, path … does not support implicit animation."
        atTimeZero {
            let parent = CALayer()
            let s = CAShapeLayer()
            parent.addSublayer(s)
            s.path = line(to: CGPoint(x: 1, y: 1))
            #expect(s.animationKeys() == nil)
            s.strokeEnd = 0.5
            #expect(s.animationKeys() == ["strokeEnd"])
        }
    }

    @Test func mutablePathValuesAreAccepted() {
        atTimeZero {
            let s = CAShapeLayer()
            let m = CGMutablePath()
            m.move(to: .zero)
            m.addLine(to: CGPoint(x: 8, y: 0))
            s.add(basic("path", from: line(to: .zero), to: m), forKey: "grow")
            #expect(s.presentation(at: 0.5)!.path == line(to: CGPoint(x: 4, y: 0)))
        }
    }
}
