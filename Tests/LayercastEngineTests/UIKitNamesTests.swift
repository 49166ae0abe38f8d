import Foundation
import Testing
import LayercastEngine

// What code ported from UIKit leans on: `CALayer.center` as `UIView.center`, and the system and named
// colours as `CGColor` statics.

@Test func centerIsTheMiddleOfTheFrameWhateverTheAnchor() {
    let layer = CALayer()
    layer.anchorPoint = CGPoint(x: 0, y: 0)
    layer.frame = CGRect(x: 10, y: 20, width: 100, height: 40)
    #expect(layer.center == CGPoint(x: 60, y: 40))

    layer.center = CGPoint(x: 200, y: 300)
    #expect(layer.frame == CGRect(x: 150, y: 280, width: 100, height: 40))
    #expect(layer.position == CGPoint(x: 150, y: 280))
    #expect(layer.bounds.size == CGSize(width: 100, height: 40))
}

@Test func centerIsThePositionWithTheDefaultAnchorUnderARotation() {
    let layer = CALayer()
    layer.frame = CGRect(x: 0, y: 0, width: 80, height: 20)
    layer.transform = CATransform3DMakeRotation(.pi / 3, 0, 0, 1)
    layer.center = CGPoint(x: 50, y: 70)
    #expect(abs(layer.position.x - 50) < 1e-9)
    #expect(abs(layer.position.y - 70) < 1e-9)
}

/// A colour's components in 0…255, as the HIG lists them.
private func rgb255(_ color: CGColor) -> [Int] {
    [color.red, color.green, color.blue].map { Int(($0 * 255).rounded()) }
}

@Test func systemColoursHaveUIKitsLightValues() {
    #expect(rgb255(.systemRed) == [255, 59, 48])
    #expect(rgb255(.systemGreen) == [52, 199, 89])
    #expect(rgb255(.systemBlue) == [0, 122, 255])
    #expect(rgb255(.systemGray6) == [242, 242, 247])
    #expect(CGColor.systemRed.alpha == 1)
    #expect(rgb255(.gray) == [128, 128, 128])
}

@Test func namedColoursHaveUIKitsComponents() {
    // Apple's UIColor reference: "A color object whose RGB values are 1.0, 0.0, and 0.0 and whose
    // alpha value is 1.0" (red), and likewise for the others.
    let expected: [(CGColor, [CGFloat])] = [
        (.red, [1, 0, 0]), (.green, [0, 1, 0]), (.blue, [0, 0, 1]),
        (.cyan, [0, 1, 1]), (.yellow, [1, 1, 0]), (.magenta, [1, 0, 1]),
        (.orange, [1, 0.5, 0]), (.purple, [0.5, 0, 0.5]), (.brown, [0.6, 0.4, 0.2]),
    ]
    for (color, rgb) in expected {
        #expect(color.components == rgb + [1])
    }
    // The statics do not hide the instance components of the same name.
    #expect(CGColor.orange.green == 0.5)
    #expect(CGColor.brown.red == 0.6)
    let stroke: CGColor? = .red   // `layer.strokeColor = UIColor.red.cgColor` becomes `= .red`
    #expect(stroke == CGColor(red: 1, green: 0, blue: 0, alpha: 1))
}
