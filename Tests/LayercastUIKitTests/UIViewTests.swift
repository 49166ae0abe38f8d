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

@Suite struct UIViewTreeTests {
    @Test func subviewsMirrorTheLayerTree() {
        let root = UIView(), a = UIView(), b = UIView(), c = UIView()
        root.addSubview(a)
        root.addSubview(b)
        root.insertSubview(c, belowSubview: b)
        #expect(root.subviews.map(ObjectIdentifier.init) == [a, c, b].map(ObjectIdentifier.init))
        #expect(root.layer.sublayers?.map(ObjectIdentifier.init) == [a, c, b].map { ObjectIdentifier($0.layer) })
        root.bringSubviewToFront(a)
        #expect(root.layer.sublayers?.last === a.layer)
        b.tag = 7
        #expect(root.viewWithTag(7) === b)
        b.removeFromSuperview()
        #expect(b.superview == nil && b.layer.superlayer == nil && root.subviews.count == 2)
    }

    @Test func layerClassMakesTheBackingLayer() {
        final class RingView: UIView {
            override class var layerClass: AnyClass { CAShapeLayer.self }
        }
        let ring = RingView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(ring.layer is CAShapeLayer)
        #expect((ring.layer as? CAShapeLayer)?.lineWidth == 1)   // a shape layer's defaults
        #expect(UILabel().layer is CATextLayer)
    }

    @Test func propertiesWriteThroughToTheLayer() {
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        view.alpha = 0.4
        view.backgroundColor = .red
        view.isHidden = true
        view.clipsToBounds = true
        view.transform = CGAffineTransform(rotationAngle: .pi / 2)
        #expect(view.layer.opacity == 0.4)
        #expect(view.layer.backgroundColor == CGColor.red)
        #expect(view.layer.isHidden && view.layer.masksToBounds)
        #expect(abs(view.layer.transform.m12 - 1) < 1e-12 && abs(view.transform.b - 1) < 1e-12)
        #expect(UIColor.systemBlue.cgColor == CGColor.systemBlue)
    }
}
