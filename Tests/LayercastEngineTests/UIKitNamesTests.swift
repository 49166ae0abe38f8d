import Foundation
import Testing
import LayercastEngine

// What code ported from UIKit leans on: `CALayer.center` as `UIView.center`, and the system
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
