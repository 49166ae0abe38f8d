import Foundation
import LayercastEngine
import LayercastJSON
@testable import LayercastWire

// Shared helpers of the wire suites.

/// Sets up `layer` with bounds `(0,0)–frame.size` centred on the frame and adds it to `parent`.
@discardableResult
func makeLayer<L: CALayer>(_ layer: L, name: String, frame: CGRect, in parent: CALayer? = nil,
                           background: CGColor? = .white) -> L {
    layer.name = name
    layer.bounds = CGRect(origin: .zero, size: frame.size)
    layer.position = CGPoint(x: frame.midX, y: frame.midY)
    layer.backgroundColor = background
    parent?.addSublayer(layer)
    return layer
}

/// A 400×400 root at the scene origin that draws nothing itself.
func makeRoot() -> CALayer {
    makeLayer(CALayer(), name: "root", frame: CGRect(x: 0, y: 0, width: 400, height: 400), background: nil)
}

/// A perspective transform with the eye at distance `d` (m34 = −1/d).
func perspective(_ d: CGFloat) -> CATransform3D {
    var t = CATransform3DIdentity
    t.m34 = -1 / d
    return t
}

func degrees(_ d: CGFloat) -> CGFloat { d * .pi / 180 }

extension DisplayList {
    var names: [String] { items.map { $0.name ?? "?" } }

    func item(named name: String) -> DrawItem? { items.first { $0.name == name } }
}

/// The layer called `name` in the subtree of `layer` (itself included).
func descendant(of layer: CALayer, named name: String) -> CALayer? {
    if layer.name == name { return layer }
    for sublayer in layer.sublayers ?? [] {
        if let found = descendant(of: sublayer, named: name) { return found }
    }
    return nil
}

/// `message` written as text and parsed back, as a client receives it.
func throughText(_ message: JSONValue) throws -> JSONValue {
    try JSONValue.parse(message.serialized())
}
