import Foundation
import Testing
@testable import LayercastEngine

// Values of basic, keyframe, group and spring animations (docs/engine-model.md §3, §4, §5),
// read through `presentation(at:)` on root layers of a scene whose manual clock reads 0, so an
// animation added with beginTime 0 starts at media time 0 and, with duration 1, the media time
// is the fraction.

/// Runs `body` in a scene whose manual clock reads 0.
private func atTimeZero(_ body: () -> Void) {
    SceneContext(clock: ManualClock()).run(body)
}

private func layer(cornerRadius: CGFloat = 100) -> CALayer {
    let l = CALayer()
    l.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
    l.cornerRadius = cornerRadius
    return l
}

private func radius(_ l: CALayer, at t: CFTimeInterval) -> CGFloat {
    l.presentation(at: t)!.cornerRadius
}

private func keyframes(_ keyPath: String, _ values: [Any], keyTimes: [CGFloat]? = nil,
                       mode: CAAnimationCalculationMode = .linear, duration: CFTimeInterval = 1) -> CAKeyframeAnimation {
    let a = CAKeyframeAnimation(keyPath: keyPath)
    a.values = values
    a.keyTimes = keyTimes
    a.calculationMode = mode
    a.duration = duration
    return a
}

/// Keeps the end value after the active duration (fill forwards, not removed).
private func holding<A: CAAnimation>(_ a: A) -> A {
    a.fillMode = .forwards
    a.isRemovedOnCompletion = false
    return a
}

@Suite("Animation values")
struct AnimationValueTests {
    // MARK: §3.1 Basic

    /// A 1 s linear `cornerRadius` animation on a layer whose model value is 100, held at the end.
    private func basic(from: CGFloat?, to: CGFloat?, by: CGFloat?) -> CALayer {
        let l = layer()
        atTimeZero {
            let a = CABasicAnimation(keyPath: "cornerRadius")
            a.fromValue = from
            a.toValue = to
            a.byValue = by
            a.duration = 1
            l.add(holding(a), forKey: "a")
        }
        return l
    }

    @Test(arguments: [
        // (from, to, by, expected start, expected end); cur = the model value 100. §3.1 table.
        (CGFloat?(10), CGFloat?(20), CGFloat?.none, CGFloat(10), CGFloat(20)),   // from, to
        (10, nil, 4, 10, 14),                                                     // from, by: from ⊕ by
        (nil, 20, 4, 16, 20),                                                     // by, to: to ⊖ by
        (10, nil, nil, 10, 100),                                                  // from: → cur
        (nil, 20, nil, 100, 20),                                                  // to: cur →
        (nil, nil, 4, 100, 104),                                                  // by: cur → cur ⊕ by
        (nil, nil, nil, 100, 100),                                                // none: cur
    ])
    func basicFromToByTable(from: CGFloat?, to: CGFloat?, by: CGFloat?, start: CGFloat, end: CGFloat) {
        let l = basic(from: from, to: to, by: by)
        #expect(close(radius(l, at: 0), start))
        #expect(close(radius(l, at: 0.5), (start + end) / 2))   // lerp at f = 0.5 (§3)
        #expect(close(radius(l, at: 0.25), start + (end - start) / 4))
        #expect(close(radius(l, at: 1), end))
    }

    @Test func fromAndToAndByPrefersFromAndTo() {
        // §3.1: with from and to set, by is ignored (the table's first row).
        let l = layer()
        atTimeZero {
            let a = CABasicAnimation(keyPath: "cornerRadius")
            (a.fromValue, a.toValue, a.byValue) = (CGFloat(10), CGFloat(20), CGFloat(1000))
            a.duration = 1
            l.add(a, forKey: "a")
        }
        #expect(close(radius(l, at: 0.5), 15))
    }

    @Test func byOnAPointAddsComponentwise() {
        // §3: ⊕ is componentwise for numeric kinds; position model (10, 10), by (4, 6).
        let l = layer()
        l.position = CGPoint(x: 10, y: 10)
        atTimeZero {
            let a = CABasicAnimation(keyPath: "position")
            a.byValue = CGPoint(x: 4, y: 6)
            a.duration = 1
            l.add(a, forKey: "a")
        }
        #expect(close(l.presentation(at: 0.5)!.position, CGPoint(x: 12, y: 13)))
    }

    @Test func byOnATransformAppliesByFirst() {
        // §3: for transforms x ⊕ y = Concat(y, x). Model Scale(2), by Translation(10, 0, 0):
        // to = Concat(Translate(10), Scale(2)), which moves x by 20 (translate, then scale).
        let l = layer()
        l.transform = CATransform3DMakeScale(2, 2, 1)
        atTimeZero {
            let a = CABasicAnimation(keyPath: "transform")
            a.byValue = CATransform3DMakeTranslation(10, 0, 0)
            a.duration = 1
            l.add(holding(a), forKey: "a")
        }
        let end = l.presentation(at: 1)!.transform
        #expect(close(end, CATransform3DConcat(CATransform3DMakeTranslation(10, 0, 0), CATransform3DMakeScale(2, 2, 1))))
        #expect(close(end.m41, 20))
        // Half-way: scale stays 2, the translation interpolates to 10 (CSS decomposition, §3).
        let half = l.presentation(at: 0.5)!.transform
        #expect(close(half.m11, 2))
        #expect(close(half.m41, 10))
    }

    @Test func animationTimingFunctionShapesTheFraction() {
        // §2: f = timingFunction(t / d).
        let l = layer()
        atTimeZero {
            let a = CABasicAnimation(keyPath: "cornerRadius")
            (a.fromValue, a.toValue) = (CGFloat(0), CGFloat(10))
            a.duration = 1
            a.timingFunction = CAMediaTimingFunction(name: .easeIn)
            l.add(a, forKey: "a")
        }
        #expect(close(radius(l, at: 0.5), 10 * easeIn(0.5), 1e-6))
        #expect(close(radius(l, at: 0.5), 3.153568, 1e-5))
    }

    // MARK: §3.3 Additive and cumulative

    @Test func additiveAddsToTheModelValue() {
        // §3.3: result = cur ⊕ v. Model (10, 10) + lerp((0,0), (100,0), 0.5) = (60, 10).
        let l = layer()
        l.position = CGPoint(x: 10, y: 10)
        atTimeZero {
            let a = CABasicAnimation(keyPath: "position")
            a.fromValue = CGPoint(x: 0, y: 0)
            a.toValue = CGPoint(x: 100, y: 0)
            a.duration = 1
            a.isAdditive = true
            l.add(a, forKey: "a")
        }
        #expect(close(l.presentation(at: 0.5)!.position, CGPoint(x: 60, y: 10)))
        #expect(close(l.presentation(at: 0)!.position, CGPoint(x: 10, y: 10)))
    }

    @Test func additiveSubPathAddsToThatComponent() {
        // §5: position.x additive adds to the x component only.
        let l = layer()
        l.position = CGPoint(x: 10, y: 10)
        atTimeZero {
            let a = CABasicAnimation(keyPath: "position.x")
            (a.fromValue, a.toValue) = (CGFloat(0), CGFloat(-20))
            a.duration = 1
            a.isAdditive = true
            l.add(a, forKey: "a")
        }
        #expect(close(l.presentation(at: 0.5)!.position, CGPoint(x: 0, y: 10)))
    }

    @Test func animationsComposeInTheOrderTheyWereAdded() {
        // §5: each animation replaces the running value, additive ones combine with it.
        let replaceThenAdd = layer()
        let addThenReplace = layer()
        atTimeZero {
            let replace = CABasicAnimation(keyPath: "position")
            (replace.fromValue, replace.toValue) = (CGPoint(x: 50, y: 50), CGPoint(x: 50, y: 50))
            replace.duration = 1
            let add = CABasicAnimation(keyPath: "position")
            (add.fromValue, add.toValue) = (CGPoint.zero, CGPoint(x: 100, y: 0))
            add.duration = 1
            add.isAdditive = true
            replaceThenAdd.add(replace, forKey: "replace")
            replaceThenAdd.add(add, forKey: "add")
            addThenReplace.add(add, forKey: "add")
            addThenReplace.add(replace, forKey: "replace")
        }
        #expect(close(replaceThenAdd.presentation(at: 0.5)!.position, CGPoint(x: 100, y: 50)))
        #expect(close(addThenReplace.presentation(at: 0.5)!.position, CGPoint(x: 50, y: 50)))
    }

    @Test func replacingAKeyMovesTheAnimationToTheEnd() {
        // §5: "adding under an existing key removes the old one and appends the new one".
        let l = layer()
        atTimeZero {
            let a = CABasicAnimation(keyPath: "cornerRadius")
            (a.fromValue, a.toValue) = (CGFloat(1), CGFloat(1))
            a.duration = 1
            let b = CABasicAnimation(keyPath: "cornerRadius")
            (b.fromValue, b.toValue) = (CGFloat(2), CGFloat(2))
            b.duration = 1
            l.add(a, forKey: "a")
            l.add(b, forKey: "b")
            l.add(a, forKey: "a")
        }
        #expect(l.animationKeys() == ["b", "a"])
        #expect(close(radius(l, at: 0.5), 1))
    }

    @Test func cumulativeBuildsOnEachRepeat() {
        // §3.3: v ⊕ (i × e) with e = 10 (the value at f = 1). repeatCount 3, duration 1.
        let l = layer()
        atTimeZero {
            let a = CABasicAnimation(keyPath: "cornerRadius")
            (a.fromValue, a.toValue) = (CGFloat(0), CGFloat(10))
            a.duration = 1
            a.repeatCount = 3
            a.isCumulative = true
            l.add(holding(a), forKey: "a")
        }
        #expect(close(radius(l, at: 0.5), 5))
        #expect(close(radius(l, at: 1.5), 15))            // i = 1: 5 + 10
        #expect(close(radius(l, at: 2.5), 25))            // i = 2: 5 + 20
        #expect(close(radius(l, at: 3), 30))              // end of the last cycle (i = 2, f = 1)
    }

    @Test func cumulativeKeyframes() {
        // §3.3 with a keyframe animation: e = the last value (20); i = 1 at t = 1.25.
        let l = layer()
        atTimeZero {
            let a = keyframes("cornerRadius", [CGFloat(0), CGFloat(20)])
            a.repeatCount = 2
            a.isCumulative = true
            l.add(a, forKey: "a")
        }
        #expect(close(radius(l, at: 1.25), 25))
    }

    // MARK: §3.2 Keyframes

    @Test func linearKeyframesWithKeyTimesAndSegmentTimingFunctions() {
        // §3.2 linear: u = (f − kᵢ)/(kᵢ₊₁ − kᵢ), then timingFunctions[i](u).
        let l = layer()
        atTimeZero {
            let a = keyframes("cornerRadius", [CGFloat(0), CGFloat(10), CGFloat(30)], keyTimes: [0, 0.25, 1])
            a.timingFunctions = [CAMediaTimingFunction(name: .linear), CAMediaTimingFunction(name: .easeIn)]
            l.add(holding(a), forKey: "a")
        }
        #expect(close(radius(l, at: 0.125), 5))                                    // u = 0.5, linear
        #expect(close(radius(l, at: 0.25), 10))                                     // at k₁
        #expect(close(radius(l, at: 0.625), 10 + 20 * easeIn(0.5), 1e-6))          // u = 0.5, easeIn
        #expect(close(radius(l, at: 0.625), 16.307136, 1e-5))                      // easeIn(0.5) ≈ 0.3153568
        #expect(close(radius(l, at: 1), 30))
    }

    @Test func keyframesBeforeTheFirstKeyTimeHoldTheFirstValue() {
        // §3.2 linear: f ≤ k₀ → v₀; f ≥ kₙ₋₁ → vₙ₋₁.
        let l = layer()
        atTimeZero {
            l.add(keyframes("cornerRadius", [CGFloat(5), CGFloat(15)], keyTimes: [0.2, 0.6]), forKey: "a")
        }
        #expect(close(radius(l, at: 0.1), 5))
        #expect(close(radius(l, at: 0.4), 10))
        #expect(close(radius(l, at: 0.8), 15))
    }

    @Test func keyframeTimingFunctionAppliesBeforeKeyTimes() {
        // §3.2: "f is the fraction after the animation's timingFunction".
        let l = layer()
        atTimeZero {
            let a = keyframes("cornerRadius", [CGFloat(0), CGFloat(10), CGFloat(20)])
            a.timingFunction = CAMediaTimingFunction(name: .easeIn)
            l.add(a, forKey: "a")
        }
        #expect(close(radius(l, at: 0.5), 20 * easeIn(0.5), 1e-6))
    }

    @Test func singleKeyframeIsConstantAndNoKeyframesHaveNoEffect() {
        // §3.2: n = 1 → constant; n = 0 → no effect.
        let one = layer()
        let none = layer()
        atTimeZero {
            one.add(keyframes("cornerRadius", [CGFloat(7)]), forKey: "a")
            none.add(keyframes("cornerRadius", []), forKey: "a")
        }
        #expect(close(radius(one, at: 0.3), 7))
        #expect(close(radius(none, at: 0.3), 100))
    }

    @Test func discreteWithoutKeyTimes() {
        // §3.2 discrete: kᵢ = i/n → [0, 1/3, 2/3] for three values.
        let l = layer()
        atTimeZero {
            l.add(holding(keyframes("cornerRadius", [CGFloat(1), CGFloat(2), CGFloat(3)], mode: .discrete)), forKey: "a")
        }
        #expect(radius(l, at: 0) == 1)
        #expect(radius(l, at: 0.3) == 1)
        #expect(radius(l, at: 0.34) == 2)
        #expect(radius(l, at: 0.66) == 2)
        #expect(radius(l, at: 0.67) == 3)
        #expect(radius(l, at: 1) == 3)
    }

    @Test func discreteWithNKeyTimes() {
        let l = layer()
        atTimeZero {
            l.add(keyframes("cornerRadius", [CGFloat(1), CGFloat(2), CGFloat(3)], keyTimes: [0.1, 0.5, 0.8], mode: .discrete),
                  forKey: "a")
        }
        #expect(radius(l, at: 0.05) == 1)   // f < k₀ → v₀
        #expect(radius(l, at: 0.49) == 1)
        #expect(radius(l, at: 0.5) == 2)
        #expect(radius(l, at: 0.79) == 2)
        #expect(radius(l, at: 0.8) == 3)
    }

    @Test func discreteWithNPlusOneKeyTimes() {
        // Apple documents n + 1 key times for discrete mode; the last index is capped to n − 1.
        let l = layer()
        atTimeZero {
            l.add(holding(keyframes("cornerRadius", [CGFloat(1), CGFloat(2), CGFloat(3)], keyTimes: [0, 0.25, 0.5, 1],
                                    mode: .discrete)), forKey: "a")
        }
        #expect(radius(l, at: 0.2) == 1)
        #expect(radius(l, at: 0.3) == 2)
        #expect(radius(l, at: 0.6) == 3)
        #expect(radius(l, at: 1) == 3)
    }

    @Test func pacedIgnoresKeyTimes() {
        // §3.2 paced: L = 10 + 20 = 30; f = 1/3 → distance 10 → the second value, whatever keyTimes say.
        let l = layer()
        atTimeZero {
            let a = keyframes("cornerRadius", [CGFloat(0), CGFloat(10), CGFloat(30)], keyTimes: [0, 0.9, 1], mode: .paced)
            a.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .easeIn)]
            l.add(a, forKey: "a")
        }
        #expect(close(radius(l, at: 1.0 / 3), 10))
        #expect(close(radius(l, at: 0.1), 3))
        #expect(close(radius(l, at: 0.5), 15))
        #expect(close(radius(l, at: 0.9), 27))
    }

    @Test func pacedPointsUseEuclideanDistance() {
        // §3.2 paced: (0,0) → (30,40) is 50 long, → (30,90) another 50: f = 0.25 → (15, 20).
        let l = layer()
        atTimeZero {
            l.add(keyframes("position", [CGPoint(x: 0, y: 0), CGPoint(x: 30, y: 40), CGPoint(x: 30, y: 90)], mode: .paced),
                  forKey: "a")
        }
        #expect(close(l.presentation(at: 0.25)!.position, CGPoint(x: 15, y: 20)))
        #expect(close(l.presentation(at: 0.75)!.position, CGPoint(x: 30, y: 65)))
    }

    @Test func pacedTransformsFallBackToEvenlySpacedLinear() {
        // §3.2 paced (choice): transform values fall back to evenly spaced linear (keyTimes ignored).
        let l = layer()
        atTimeZero {
            l.add(keyframes("transform", [CATransform3DMakeTranslation(0, 0, 0), CATransform3DMakeTranslation(90, 0, 0),
                                          CATransform3DMakeTranslation(100, 0, 0)], keyTimes: [0, 0.9, 1], mode: .paced),
                  forKey: "a")
        }
        #expect(close(l.presentation(at: 0.5)!.transform, CATransform3DMakeTranslation(90, 0, 0)))
        #expect(close(l.presentation(at: 0.25)!.transform, CATransform3DMakeTranslation(45, 0, 0)))
    }

    @Test func pathWithAMoveJumps() {
        // §3.2 path: "a move-to element jumps straight to its point". Key points (0,0), (100,0),
        // (100,100) [move], (200,100): three elements after the first, key times [0, 1/3, 2/3, 1].
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 0))
        path.move(to: CGPoint(x: 100, y: 100))
        path.addLine(to: CGPoint(x: 200, y: 100))
        let l = layer()
        atTimeZero {
            let a = CAKeyframeAnimation(keyPath: "position")
            a.path = path.copy()
            a.duration = 3
            l.add(a, forKey: "a")
        }
        #expect(close(l.presentation(at: 0.5)!.position, CGPoint(x: 50, y: 0)))
        #expect(close(l.presentation(at: 1.5)!.position, CGPoint(x: 100, y: 100)))
        #expect(close(l.presentation(at: 2.5)!.position, CGPoint(x: 150, y: 100)))
    }

    @Test func cubicPassesThroughItsValuesAtTheKeyTimes() {
        // §3.2 cubic: Catmull-Rom with mᵢ = (vᵢ₊₁ − vᵢ₋₁)/2 and clamped ends.
        let l = layer()
        atTimeZero {
            l.add(holding(keyframes("cornerRadius", [CGFloat(0), CGFloat(10), CGFloat(5), CGFloat(20)],
                                    keyTimes: [0, 0.2, 0.7, 1], mode: .cubic)), forKey: "a")
        }
        #expect(close(radius(l, at: 0), 0))
        #expect(close(radius(l, at: 0.2), 10))
        #expect(close(radius(l, at: 0.7), 5))
        #expect(close(radius(l, at: 1), 20))
        // Segment 1 (10 → 5) at u = 0.5: m₁ = (5 − 0)/2 = 2.5, m₂ = (20 − 10)/2 = 5; Hermite
        // h00 = h01 = 0.5, h10 = 0.125, h11 = −0.125 → 5 + 0.3125 + 2.5 − 0.625 = 7.1875.
        #expect(close(radius(l, at: 0.45), 7.1875))
        // Segment 0 (0 → 10), u = 0.5, tangents m₀ = (10 − 0)/2 = 5 (v₋₁ = v₀), m₁ = 2.5:
        // 0 + 0.125·5 + 5 − 0.125·2.5 = 5.3125.
        #expect(close(radius(l, at: 0.1), 5.3125))
    }

    @Test func cubicPacedEndpoints() {
        // §3.2 cubicPaced: the spline at constant speed; it starts at v₀ and ends at vₙ₋₁.
        let l = layer()
        atTimeZero {
            l.add(holding(keyframes("position", [CGPoint(x: 0, y: 0), CGPoint(x: 40, y: 10), CGPoint(x: 60, y: 80)],
                                    keyTimes: [0, 0.9, 1], mode: .cubicPaced)), forKey: "a")
        }
        #expect(close(l.presentation(at: 0)!.position, CGPoint(x: 0, y: 0)))
        #expect(close(l.presentation(at: 1)!.position, CGPoint(x: 60, y: 80)))
    }

    @Test func cubicPacedOnAMonotoneScalarIsUniform() {
        // [0, 10, 30] is monotone under the spline, so its arc length is 30 and constant speed
        // puts it at 30·f (up to the 64-chord approximation).
        let l = layer()
        atTimeZero {
            l.add(keyframes("cornerRadius", [CGFloat(0), CGFloat(10), CGFloat(30)], mode: .cubicPaced), forKey: "a")
        }
        for f in [0.1, 0.25, 0.5, 0.8] {
            #expect(close(radius(l, at: f), 30 * f, 0.05))
        }
    }

    @Test func pathAnimationWithAutoRotationFollowsAnLPath() {
        // §3.2 path: key points (0,0), (100,0), (100,100), evenly spaced key times [0, 0.5, 1];
        // rotationMode auto adds Rotation(tangent, z), composed as Concat(R, transform).
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 100))
        let l = layer()
        l.transform = CATransform3DMakeScale(2, 2, 1)
        let reverse = layer()
        atTimeZero {
            let a = CAKeyframeAnimation(keyPath: "position")
            a.path = path.copy()
            a.duration = 1
            a.rotationMode = .rotateAuto
            l.add(a, forKey: "a")
            let b = a.copy()
            b.rotationMode = .rotateAutoReverse
            reverse.add(b, forKey: "b")
        }
        let first = l.presentation(at: 0.25)!
        #expect(close(first.position, CGPoint(x: 50, y: 0)))
        #expect(close(first.transform, CATransform3DMakeScale(2, 2, 1)))             // tangent 0
        let second = l.presentation(at: 0.75)!
        #expect(close(second.position, CGPoint(x: 100, y: 50)))
        #expect(close(second.transform, CATransform3DConcat(CATransform3DMakeRotation(.pi / 2, 0, 0, 1),
                                                             CATransform3DMakeScale(2, 2, 1))))
        // autoReverse: tangent + π.
        #expect(close(reverse.presentation(at: 0.75)!.transform, CATransform3DMakeRotation(.pi / 2 + .pi, 0, 0, 1)))
    }

    @Test func pacedPathTravelsAtConstantSpeed() {
        // §3.2 path, paced: by arc length. The L path is 100 + 200 long; f = 0.5 → 150 along.
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 200))
        let l = layer()
        atTimeZero {
            let a = CAKeyframeAnimation(keyPath: "position")
            a.path = path.copy()
            a.duration = 1
            a.calculationMode = .paced
            l.add(a, forKey: "a")
        }
        #expect(close(l.presentation(at: 0.5)!.position, CGPoint(x: 100, y: 50)))
        #expect(close(l.presentation(at: 0.25)!.position, CGPoint(x: 75, y: 0)))
    }

    // MARK: §4 Groups

    @Test func groupClipsALongerChild() {
        // §4: a 10 s child in a 5 s group shows only its first half; nothing after the group.
        let l = layer()
        atTimeZero {
            let child = CABasicAnimation(keyPath: "cornerRadius")
            (child.fromValue, child.toValue) = (CGFloat(0), CGFloat(10))
            child.duration = 10
            let group = CAAnimationGroup()
            group.animations = [child]
            group.duration = 5
            l.add(group, forKey: "g")
        }
        #expect(close(radius(l, at: 2.5), 2.5))
        #expect(close(radius(l, at: 4.9), 4.9))
        #expect(close(radius(l, at: 5), 100))
        #expect(close(radius(l, at: 7.5), 100))
    }

    @Test func groupChildWithDurationZeroTakesTheGroupsDuration() {
        // §2 Duration: "for a child of a group, the group's duration" (not the 0.25 s default).
        let l = layer()
        atTimeZero {
            let child = CABasicAnimation(keyPath: "cornerRadius")
            (child.fromValue, child.toValue) = (CGFloat(0), CGFloat(10))
            let group = CAAnimationGroup()
            group.animations = [child]
            group.duration = 4
            l.add(group, forKey: "g")
        }
        #expect(close(radius(l, at: 1), 2.5))
        #expect(close(radius(l, at: 2), 5))
        #expect(close(radius(l, at: 3.9), 9.75))
    }

    @Test func groupChildrenFillByTheirOwnFillModeInsideTheGroup() {
        // §2 Fill: children ignore removedOnCompletion and fill forwards inside the group's active
        // time by their own fillMode. Child: duration 1, beginTime 1 (group time), group 5 s.
        func make(_ fill: CAMediaTimingFillMode) -> CALayer {
            let l = layer()
            atTimeZero {
                let child = CABasicAnimation(keyPath: "cornerRadius")
                (child.fromValue, child.toValue) = (CGFloat(0), CGFloat(10))
                child.duration = 1
                child.beginTime = 1
                child.fillMode = fill
                let group = CAAnimationGroup()
                group.animations = [child]
                group.duration = 5
                l.add(group, forKey: "g")
            }
            return l
        }
        let removed = make(.removed), forwards = make(.forwards), backwards = make(.backwards)
        #expect(close(radius(removed, at: 0.5), 100))
        #expect(close(radius(removed, at: 1.5), 5))       // child beginTime 1 stays in group time
        #expect(close(radius(removed, at: 3), 100))
        #expect(close(radius(forwards, at: 0.5), 100))
        #expect(close(radius(forwards, at: 3), 10))
        #expect(close(radius(forwards, at: 6), 100))      // clipped: the group is over
        #expect(close(radius(backwards, at: 0.5), 0))
        #expect(close(radius(backwards, at: 3), 100))
    }

    @Test func groupTimingFunctionShapesTheChildrensTime() {
        // §4: children see p = d_group · f_group. Group 2 s with easeIn; linear child 0 → 10 over 2 s.
        let l = layer()
        atTimeZero {
            let child = CABasicAnimation(keyPath: "cornerRadius")
            (child.fromValue, child.toValue) = (CGFloat(0), CGFloat(10))
            let group = CAAnimationGroup()
            group.animations = [child]
            group.duration = 2
            group.timingFunction = CAMediaTimingFunction(name: .easeIn)
            l.add(group, forKey: "g")
        }
        #expect(close(radius(l, at: 1), 10 * easeIn(0.5), 1e-6))
    }

    @Test func groupChildrenApplyInArrayOrder() {
        // §4: "Children's values are applied in array order": the later child wins.
        let l = layer()
        atTimeZero {
            let a = CABasicAnimation(keyPath: "cornerRadius")
            (a.fromValue, a.toValue) = (CGFloat(1), CGFloat(1))
            let b = CABasicAnimation(keyPath: "cornerRadius")
            (b.fromValue, b.toValue) = (CGFloat(2), CGFloat(2))
            let group = CAAnimationGroup()
            group.animations = [a, b]
            group.duration = 1
            l.add(group, forKey: "g")
        }
        #expect(close(radius(l, at: 0.5), 2))
    }

    @Test func groupRepeatsItsChildren() {
        // §2 + §4: group duration 2, repeatCount 2: at T = 2.5 the child sees group time 0.5.
        let l = layer()
        atTimeZero {
            let child = CABasicAnimation(keyPath: "cornerRadius")
            (child.fromValue, child.toValue) = (CGFloat(0), CGFloat(10))
            child.duration = 1
            let group = CAAnimationGroup()
            group.animations = [child]
            group.duration = 2
            group.repeatCount = 2
            l.add(group, forKey: "g")
        }
        #expect(close(radius(l, at: 2.5), 5))
        #expect(close(radius(l, at: 1.5), 100))   // the child (1 s, no fill) is done inside cycle 1
    }

    // MARK: §3.4 Spring

    @Test func springOvershootsAndSettlesWithDefaultParameters() {
        // §3.4 defaults m = 1, k = 100, c = 10: ζ = c/(2√(km)) = 0.5, ω₀ = 10, ω_d = ω₀√(1 − ζ²) = 5√3.
        // x(t) = 1 − e^(−5t)(cos ω_d t + (5/ω_d) sin ω_d t); the first peak is at t = π/ω_d with
        // overshoot e^(−ζπ/√(1 − ζ²)) ≈ 0.163.
        let spring = CASpringAnimation()
        spring.keyPath = "cornerRadius"
        spring.fromValue = CGFloat(0)
        spring.toValue = CGFloat(100)
        spring.duration = spring.settlingDuration
        #expect(spring.settlingDuration > 1)
        let l = layer(cornerRadius: 0)
        atTimeZero { l.add(holding(spring), forKey: "s") }

        let wd = 5 * 3.0.squareRoot()
        func x(_ t: Double) -> Double { 1 - exp(-5 * t) * (cos(wd * t) + 5 / wd * sin(wd * t)) }
        let peak = Double.pi / wd
        #expect(close(radius(l, at: peak), 100 * x(peak), 1e-6))
        #expect(radius(l, at: peak) > 116)                               // overshoots the toValue
        #expect(close(radius(l, at: 0.1), 100 * x(0.1), 1e-6))
        #expect(abs(radius(l, at: spring.settlingDuration) - 100) < 0.1) // settled to within 0.001
        #expect(abs(radius(l, at: spring.settlingDuration + 10) - 100) < 0.1)
    }

    @Test func springIgnoresTheTimingFunction() {
        // §3.4 (choice): springs use t in seconds and ignore timingFunction.
        let plain = CASpringAnimation()
        plain.keyPath = "cornerRadius"
        (plain.fromValue, plain.toValue) = (CGFloat(0), CGFloat(100))
        plain.duration = 2
        let eased = plain.copy()
        eased.timingFunction = CAMediaTimingFunction(name: .easeIn)
        let a = layer(), b = layer()
        atTimeZero {
            a.add(plain, forKey: "s")
            b.add(eased, forKey: "s")
        }
        #expect(close(radius(a, at: 0.2), radius(b, at: 0.2)))
    }

    // MARK: §5 Transform sub-paths

    @Test func rotationSubPathComposesIntoTheModelTransform() {
        // §5: transform.rotation.z → Concat(Rotation(v, z), cur); model Scale(2).
        let l = layer()
        l.transform = CATransform3DMakeScale(2, 2, 1)
        atTimeZero {
            let a = CABasicAnimation(keyPath: "transform.rotation.z")
            (a.fromValue, a.toValue) = (CGFloat(0), CGFloat.pi / 2)
            a.duration = 1
            l.add(a, forKey: "a")
        }
        let expected = CATransform3DConcat(CATransform3DMakeRotation(.pi / 4, 0, 0, 1), CATransform3DMakeScale(2, 2, 1))
        #expect(close(l.presentation(at: 0.5)!.transform, expected))
    }

    @Test func rotationKeyPathMeansZ() {
        // §5: transform.rotation = .z.
        let l = layer()
        atTimeZero {
            let a = CABasicAnimation(keyPath: "transform.rotation")
            (a.fromValue, a.toValue) = (CGFloat(0), CGFloat.pi)
            a.duration = 1
            l.add(a, forKey: "a")
        }
        #expect(close(l.presentation(at: 0.5)!.transform, CATransform3DMakeRotation(.pi / 2, 0, 0, 1)))
    }

    @Test func rotationYSubPathAsTheBookCoverUsesIt() {
        // Seed 4: transform.rotation.y keyframes [0, −π/2]; §5 → Concat(Rotation(v, y), cur).
        let l = layer()
        atTimeZero {
            l.add(keyframes("transform.rotation.y", [CGFloat(0), -CGFloat.pi / 2]), forKey: "a")
        }
        #expect(close(l.presentation(at: 0.5)!.transform, CATransform3DMakeRotation(-.pi / 4, 0, 1, 0)))
    }

    @Test func wholeTransformKeyframesRotateTheShortWay() {
        // §3: rotation slerps the short way: 350° → 10° about z passes through 0° at the midpoint.
        let l = layer()
        let degrees = CGFloat.pi / 180
        atTimeZero {
            l.add(keyframes("transform", [CATransform3DMakeRotation(350 * degrees, 0, 0, 1),
                                          CATransform3DMakeRotation(10 * degrees, 0, 0, 1)]), forKey: "a")
        }
        #expect(close(l.presentation(at: 0.5)!.transform, CATransform3DIdentity))
        #expect(close(l.presentation(at: 0.25)!.transform, CATransform3DMakeRotation(355 * degrees, 0, 0, 1)))
        #expect(close(l.presentation(at: 0.75)!.transform, CATransform3DMakeRotation(5 * degrees, 0, 0, 1)))
    }

    @Test func scaleSubPathFromZero() {
        // §5: transform.scale → Concat(Scale(v, v, v), cur); 0 → 1.5 at half is 0.75.
        let l = layer()
        atTimeZero {
            let a = CABasicAnimation(keyPath: "transform.scale")
            a.fromValue = Double(0)     // as the radar seed writes it
            a.toValue = Double(1.5)
            a.duration = 1
            l.add(a, forKey: "a")
        }
        #expect(close(l.presentation(at: 0.5)!.transform, CATransform3DMakeScale(0.75, 0.75, 0.75)))
        #expect(close(l.presentation(at: 0)!.transform, CATransform3DMakeScale(0, 0, 0)))
    }

    @Test func translationSubPaths() {
        // §5: transform.translation.x scalar; transform.translation takes a size (w, h).
        let x = layer(), both = layer()
        atTimeZero {
            let a = CABasicAnimation(keyPath: "transform.translation.x")
            (a.fromValue, a.toValue) = (CGFloat(0), CGFloat(40))
            a.duration = 1
            x.add(a, forKey: "a")
            let b = CABasicAnimation(keyPath: "transform.translation")
            (b.fromValue, b.toValue) = (CGSize(width: 0, height: 0), CGSize(width: 20, height: -10))
            b.duration = 1
            both.add(b, forKey: "b")
        }
        #expect(close(x.presentation(at: 0.5)!.transform, CATransform3DMakeTranslation(20, 0, 0)))
        #expect(close(both.presentation(at: 0.5)!.transform, CATransform3DMakeTranslation(10, -5, 0)))
    }

    @Test func opacityKeyframesAsTheRadarUsesThem() {
        // §3.2 linear: [1, 0.7, 0] at [0, 0.5, 1]: f = 0.25 → 0.85, f = 0.75 → 0.35.
        let l = layer()
        atTimeZero {
            l.add(keyframes("opacity", [Double(1), Double(0.7), Double(0)], keyTimes: [0, 0.5, 1]), forKey: "a")
        }
        // opacity is a Float, as in Core Animation.
        #expect(abs(Double(l.presentation(at: 0.25)!.opacity) - 0.85) < 1e-6)
        #expect(abs(Double(l.presentation(at: 0.5)!.opacity) - 0.7) < 1e-6)
        #expect(abs(Double(l.presentation(at: 0.75)!.opacity) - 0.35) < 1e-6)
    }

    @Test func colorsInterpolateComponentwise() {
        // §3: colours interpolate unpremultiplied r, g, b, a.
        let l = layer()
        atTimeZero {
            let a = CABasicAnimation(keyPath: "backgroundColor")
            a.fromValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            a.toValue = CGColor(red: 0, green: 0, blue: 1, alpha: 0)
            a.duration = 1
            l.add(a, forKey: "a")
        }
        let c = l.presentation(at: 0.25)!.backgroundColor!
        #expect(close(c.red, 0.75) && close(c.green, 0) && close(c.blue, 0.25) && close(c.alpha, 0.75))
    }

    @Test func boolValuesSwitchAtHalf() {
        // §3 (choice): bool values are not interpolable and switch at u = 0.5.
        let l = layer()
        atTimeZero {
            let a = CABasicAnimation(keyPath: "hidden")
            (a.fromValue, a.toValue) = (false, true)
            a.duration = 1
            l.add(a, forKey: "a")
        }
        #expect(l.presentation(at: 0.49)!.isHidden == false)
        #expect(l.presentation(at: 0.5)!.isHidden == true)
    }
}
