import Foundation
import Testing
@testable import LayercastEngine

// CAGradientLayer's colour function and animations (docs/engine-model.md §10.2), against hand derivations.

private let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
private let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
private let green = CGColor(red: 0, green: 1, blue: 0, alpha: 1)

private func gradient(_ type: CAGradientLayerType, _ start: CGPoint, _ end: CGPoint,
                      colors: [CGColor] = [red, blue], locations: [CGFloat]? = nil) -> GradientLayerProperties {
    var g = GradientLayerProperties()
    g.type = type
    g.startPoint = start
    g.endPoint = end
    g.colors = colors
    g.locations = locations
    return g
}

private func closeColor(_ a: CGColor?, _ b: CGColor, _ tolerance: CGFloat = 1e-9) -> Bool {
    guard let a else { return false }
    return zip(a.components, b.components).allSatisfy { abs($0 - $1) < tolerance }
}

@Suite("CAGradientLayer")
struct GradientLayerTests {
    @Test func defaultsAreApples() {
        let g = CAGradientLayer()
        #expect(g.colors == nil && g.locations == nil)
        #expect(g.startPoint == CGPoint(x: 0.5, y: 0))
        #expect(g.endPoint == CGPoint(x: 0.5, y: 1))
        #expect(g.type == .axial)
        #expect(g.properties.gradient?.color(at: CGPoint(x: 0.5, y: 0.5)) == nil)
    }

    @Test func axialDefaultRunsTopToBottom() {
        let g = gradient(.axial, CGPoint(x: 0.5, y: 0), CGPoint(x: 0.5, y: 1))
        #expect(closeColor(g.color(at: CGPoint(x: 0.9, y: 0.25)), CGColor(red: 0.75, green: 0, blue: 0.25, alpha: 1)))
        // Padded beyond the ends.
        #expect(g.color(at: CGPoint(x: 0.5, y: -1)) == red)
        #expect(g.color(at: CGPoint(x: 0.5, y: 2)) == blue)
    }

    @Test func axialDiagonalIsPerpendicularInTheBoundsNotTheUnitSquare() {
        // (0,0) → (1,1) on a 200×100 layer: the axis is (200, 100) in points; the point (0.5, 0)
        // is (100, 0), which projects to t = (100·200)/(200² + 100²) = 0.4.
        let g = gradient(.axial, .zero, CGPoint(x: 1, y: 1))
        #expect(close(g.parameter(at: CGPoint(x: 0.5, y: 0), aspect: 2), 0.4))
        #expect(close(g.parameter(at: CGPoint(x: 0.5, y: 0), aspect: 1), 0.25))
    }

    @Test func locationsPlaceTheStops() {
        let g = gradient(.axial, CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 0), colors: [red, green, blue], locations: [0.2, 0.4, 1])
        #expect(g.color(at: CGPoint(x: 0.1, y: 0)) == red)
        #expect(closeColor(g.color(at: CGPoint(x: 0.3, y: 0)), CGColor(red: 0.5, green: 0.5, blue: 0, alpha: 1)))
        #expect(closeColor(g.color(at: CGPoint(x: 0.7, y: 0)), CGColor(red: 0, green: 0.5, blue: 0.5, alpha: 1)))
        // A locations array of another length is ignored: even stops at 0, 0.5, 1.
        let uneven = gradient(.axial, .zero, CGPoint(x: 1, y: 0), colors: [red, green, blue], locations: [0, 1])
        #expect(uneven.color(at: CGPoint(x: 0.5, y: 0.3)) == green)
    }

    @Test func radialUsesEndPointAsTheEllipseRadii() {
        // Centre (0.5, 0.5), end (1, 0.75): radii 0.5 and 0.25 of the unit square.
        let g = gradient(.radial, CGPoint(x: 0.5, y: 0.5), CGPoint(x: 1, y: 0.75))
        #expect(close(g.parameter(at: CGPoint(x: 0.75, y: 0.5)), 0.5))
        #expect(close(g.parameter(at: CGPoint(x: 0.5, y: 0.625)), 0.5))
        #expect(close(g.parameter(at: CGPoint(x: 0.5 + 0.3, y: 0.5 + 0.1)), (0.36 + 0.16).squareRoot()))
        #expect(g.color(at: CGPoint(x: 0.5, y: 0.5)) == red)
        #expect(g.color(at: CGPoint(x: 0, y: 0)) == blue)
    }

    @Test func conicTurnsClockwiseFromTheEndPoint() {
        // Centre (0.5, 0.5), towards (1, 0.5) (+x); y grows down, so +y is a quarter turn clockwise.
        let g = gradient(.conic, CGPoint(x: 0.5, y: 0.5), CGPoint(x: 1, y: 0.5))
        #expect(close(g.parameter(at: CGPoint(x: 0.9, y: 0.5)), 0))
        #expect(close(g.parameter(at: CGPoint(x: 0.5, y: 0.9)), 0.25))
        #expect(close(g.parameter(at: CGPoint(x: 0.1, y: 0.5)), 0.5))
        #expect(close(g.parameter(at: CGPoint(x: 0.5, y: 0.1)), 0.75))
        #expect(closeColor(g.color(at: CGPoint(x: 0.1, y: 0.5)), CGColor(red: 0.5, green: 0, blue: 0.5, alpha: 1)))
    }

    @Test func colorsLocationsAndPointsAnimate() {
        SceneContext(clock: ManualClock()).run {
            let layer = CAGradientLayer()
            layer.colors = [red, blue]
            let colors = CABasicAnimation(keyPath: "colors")
            colors.fromValue = [red, blue]
            colors.toValue = [blue, red]
            colors.duration = 1
            layer.add(colors, forKey: "colors")
            let locations = CABasicAnimation(keyPath: "locations")
            locations.fromValue = [NSNumber(value: -0.4), NSNumber(value: -0.2)]
            locations.toValue = [1.0, 1.2] as [CGFloat]
            locations.duration = 1
            layer.add(locations, forKey: "shimmer")
            let start = CABasicAnimation(keyPath: "startPoint.x")
            start.toValue = 1.0
            start.duration = 1
            layer.add(start, forKey: "start")
            let p = layer.presentation(at: 0.5)!
            #expect(p.colors == [CGColor(red: 0.5, green: 0, blue: 0.5, alpha: 1), CGColor(red: 0.5, green: 0, blue: 0.5, alpha: 1)])
            #expect(zip(p.locations!.map(\.doubleValue), [0.3, 0.5]).allSatisfy { abs($0 - $1) < 1e-9 })
            #expect(close(p.startPoint.x, 0.75) && p.startPoint.y == 0)
            #expect(layer.locations == nil)
        }
    }

    @Test func colorListsOfDifferentLengthsSwitch() {
        SceneContext(clock: ManualClock()).run {
            let layer = CAGradientLayer()
            let colors = CABasicAnimation(keyPath: "colors")
            colors.fromValue = [red, blue]
            colors.toValue = [green, green, green]
            colors.duration = 1
            layer.add(colors, forKey: "colors")
            #expect(layer.presentation(at: 0.4)!.colors == [red, blue])
            #expect(layer.presentation(at: 0.6)!.colors == [green, green, green])
        }
    }
}
