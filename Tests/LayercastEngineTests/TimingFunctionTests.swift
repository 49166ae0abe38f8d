import Foundation
import Testing
@testable import LayercastEngine

/// Reference y values of the cubic Bézier (0,0)–c1–c2–(1,1) at each of `xs`, computed without any
/// root finding: sample the curve at t = 0, 1e-6, 2e-6, … 1 and interpolate linearly between the two
/// samples whose x bracket the target. The chord-to-curve gap at that spacing is ~1e-12, far below
/// the 1e-6 the tests require.
private func sampledReference(_ c1: (Double, Double), _ c2: (Double, Double), at xs: [Double]) -> [Double] {
    let count = 1_000_000
    var sampleX = [Double](repeating: 0, count: count + 1)
    var sampleY = [Double](repeating: 0, count: count + 1)
    for i in 0...count {
        let t = Double(i) / Double(count), u = 1 - t
        sampleX[i] = 3 * u * u * t * c1.0 + 3 * u * t * t * c2.0 + t * t * t
        sampleY[i] = 3 * u * u * t * c1.1 + 3 * u * t * t * c2.1 + t * t * t
    }
    return xs.map { x in
        // Last sample with sampleX <= x (the x samples are non-decreasing).
        var low = 0, high = count
        while low < high {
            let middle = (low + high + 1) / 2
            if sampleX[middle] <= x { low = middle } else { high = middle - 1 }
        }
        guard low < count, sampleX[low + 1] > sampleX[low] else { return sampleY[low] }
        let fraction = (x - sampleX[low]) / (sampleX[low + 1] - sampleX[low])
        return sampleY[low] + (sampleY[low + 1] - sampleY[low]) * fraction
    }
}

private let tenths = (0...10).map { Double($0) / 10 }

private func controlPoint(_ function: CAMediaTimingFunction, _ index: Int) -> [Float] {
    var values: [Float] = [-9, -9]
    values.withUnsafeMutableBufferPointer { function.getControlPoint(at: index, values: $0.baseAddress!) }
    return values
}

@Suite("CAMediaTimingFunction")
struct TimingFunctionTests {
    @Test func namedFunctionsUseApplesControlPoints() {
        // Values from Apple's CAMediaTimingFunctionName documentation.
        let expected: [(CAMediaTimingFunctionName, [Float])] = [
            (.linear, [0, 0, 1, 1]),
            (.easeIn, [0.42, 0, 1, 1]),
            (.easeOut, [0, 0, 0.58, 1]),
            (.easeInEaseOut, [0.42, 0, 0.58, 1]),
            (.default, [0.25, 0.1, 0.25, 1]),
        ]
        for (name, points) in expected {
            let function = CAMediaTimingFunction(name: name)
            #expect(controlPoint(function, 0) == [0, 0])
            #expect(controlPoint(function, 1) == [points[0], points[1]])
            #expect(controlPoint(function, 2) == [points[2], points[3]])
            #expect(controlPoint(function, 3) == [1, 1])
            #expect(controlPoint(function, 4) == [-9, -9])  // out of range: untouched
            let (c1, c2) = function.controlPoints
            #expect(c1 == CGPoint(x: CGFloat(points[0]), y: CGFloat(points[1])))
            #expect(c2 == CGPoint(x: CGFloat(points[2]), y: CGFloat(points[3])))
        }
        #expect(CAMediaTimingFunctionName.easeInEaseOut.rawValue == "easeInEaseOut")
        #expect(CAMediaTimingFunctionName.default.rawValue == "default")
    }

    @Test func linearReturnsItsInput() {
        let linear = CAMediaTimingFunction(name: .linear)
        for x in [0, 0.123456789, 0.5, 0.999, 1] as [CGFloat] {
            #expect(linear.evaluate(x) == x)
        }
    }

    @Test func inputIsClampedToUnitInterval() {
        // Apple's curves are defined on 0…1 only; outside it they hold their end values.
        let function = CAMediaTimingFunction(name: .default)
        #expect(function.evaluate(-0.5) == 0)
        #expect(function.evaluate(1.5) == 1)
        #expect(function.evaluate(0) == 0)
        #expect(function.evaluate(1) == 1)
    }

    @Test func easeInEaseOutIsSymmetricAtHalf() {
        // c2 = (1, 1) − c1, so the curve is point-symmetric about (0.5, 0.5) and y(0.5) = 0.5. The
        // control points are stored as Float (as Apple does), and Float(0.42) + Float(0.58) misses 1 by
        // 3e-8, so the symmetry holds to ~1e-8 rather than bit-exactly.
        let function = CAMediaTimingFunction(name: .easeInEaseOut)
        #expect(abs(function.evaluate(0.5) - 0.5) < 1e-7)
        for x in tenths {
            #expect(abs(function.evaluate(CGFloat(x)) + function.evaluate(CGFloat(1 - x)) - 1) < 1e-7)
        }
    }

    @Test func defaultCurveMatchesDenseSampling() {
        // Reference: independent dense sampling of the Bézier with Apple's (0.25, 0.1), (0.25, 1).
        // Float storage of the control points moves y by < 1e-8, inside the 1e-6 budget.
        let function = CAMediaTimingFunction(name: .default)
        let reference = sampledReference((0.25, 0.1), (0.25, 1), at: tenths)
        for (x, expected) in zip(tenths, reference) {
            #expect(abs(Double(function.evaluate(CGFloat(x))) - expected) < 1e-6, "x = \(x)")
        }
    }

    @Test func easeInAtHalf() {
        // ≈ 0.3153568 for (0.42, 0), (1, 1): the brief's figure, confirmed here by dense sampling.
        let function = CAMediaTimingFunction(name: .easeIn)
        let reference = sampledReference((0.42, 0), (1, 1), at: [0.5])[0]
        #expect(abs(reference - 0.3153568) < 1e-6)
        #expect(abs(Double(function.evaluate(0.5)) - reference) < 1e-6)
    }

    @Test func otherCurvesMatchDenseSampling() {
        // Reference: the same sampling. The (0, 0.5), (1, 0.5) curve has dx/dt = 0 at both ends, where
        // Newton's method stalls and the bisection fallback has to deliver; the (0.3, −0.5), (0.7, 1.5)
        // curve overshoots below 0 and above 1 in y, which Apple allows.
        let cases: [((Double, Double), (Double, Double))] = [
            ((0.42, 0), (0.58, 1)),
            ((0, 0), (0.58, 1)),
            ((0, 0.5), (1, 0.5)),
            ((0.3, -0.5), (0.7, 1.5)),
        ]
        let xs = tenths + [0.001, 0.05, 0.95, 0.999]
        for (c1, c2) in cases {
            let function = CAMediaTimingFunction(controlPoints: Float(c1.0), Float(c1.1), Float(c2.0), Float(c2.1))
            let reference = sampledReference(c1, c2, at: xs)
            for (x, expected) in zip(xs, reference) {
                #expect(abs(Double(function.evaluate(CGFloat(x))) - expected) < 1e-6, "c1 \(c1) c2 \(c2) x \(x)")
            }
        }
    }

    @Test func namedCurvesAreMonotonic() {
        // All five named curves have y control values in 0…1, so y(x) never decreases.
        for name in [CAMediaTimingFunctionName.linear, .easeIn, .easeOut, .easeInEaseOut, .default] {
            let function = CAMediaTimingFunction(name: name)
            var previous = function.evaluate(0)
            for step in 1...1000 {
                let value = function.evaluate(CGFloat(step) / 1000)
                #expect(value >= previous, "\(name.rawValue) at \(step)")
                previous = value
            }
        }
    }

    @Test func equalityAndHashingUseControlPoints() {
        let named = CAMediaTimingFunction(name: .easeIn)
        let explicit = CAMediaTimingFunction(controlPoints: 0.42, 0, 1, 1)
        let fromTuple = CAMediaTimingFunction(controlPoints: (0.42, 0, 1, 1))
        #expect(named == explicit)
        #expect(named == fromTuple)
        #expect(named != CAMediaTimingFunction(name: .easeOut))
        #expect(Set([named, explicit, fromTuple, CAMediaTimingFunction(name: .linear)]).count == 2)
    }

    @Test func controlPointXIsClampedToUnitInterval() {
        // Apple rejects control-point x outside 0…1; here they clamp, so (−0.5, 0), (1.5, 1) becomes
        // (0, 0), (1, 1): the linear curve.
        let clamped = CAMediaTimingFunction(controlPoints: -0.5, 0, 1.5, 1)
        #expect(clamped == CAMediaTimingFunction(name: .linear))
        #expect(clamped.evaluate(0.3) == 0.3)
    }
}
