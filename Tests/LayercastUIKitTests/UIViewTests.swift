import Foundation
import LayercastEngine
import LayercastUIKit
import Testing

@Suite struct UIViewTests {
    @Test func frameSetsCenterAndBoundsOnTheLayer() {
        let view = UIView(frame: CGRect(x: 10, y: 20, width: 100, height: 50))
        #expect(view.layer.position == CGPoint(x: 60, y: 45))
        #expect(view.layer.bounds == CGRect(x: 0, y: 0, width: 100, height: 50))
        #expect(view.center == CGPoint(x: 60, y: 45))
        #expect(view.frame == CGRect(x: 10, y: 20, width: 100, height: 50))
    }
}
