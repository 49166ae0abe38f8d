import Foundation
import LayercastEngine

/// A path of a draw item, quantised (1e-2 pt) and written as SVG path data in the item's rect
/// coordinates: `M x y`, `L x y`, `Q cx cy x y`, `C c1x c1y c2x c2y x y`, `Z` (protocol.md, "Paths"),
/// which a canvas reads with `new Path2D(data)`. Two paths with the same data are the same path:
/// a frame's path table sends each once, by id.
public struct DrawPath: Hashable, Sendable {
    public var data: String

    public init(data: String) {
        self.data = data
    }

    /// `elements` moved by −`origin` (the bounds origin folded in, as in `m`) and quantised; nil when
    /// the path is empty or a coordinate is not finite.
    init?(_ elements: [CGPathElement], origin: CGPoint) {
        guard !elements.isEmpty else { return nil }
        var text = ""
        text.reserveCapacity(elements.count * 16)
        var finite = true
        func put(_ command: Character, _ points: CGPoint...) {
            text.append(command)
            for p in points {
                let x = Quantize.points(Double(p.x - origin.x)), y = Quantize.points(Double(p.y - origin.y))
                finite = finite && x.isFinite && y.isFinite
                text.append(Self.number(x))
                text.append(" ")
                text.append(Self.number(y))
                text.append(" ")
            }
            if !points.isEmpty { text.removeLast() }
        }
        for element in elements {
            switch element {
            case .moveToPoint(let p): put("M", p)
            case .addLineToPoint(let p): put("L", p)
            case .addQuadCurveToPoint(let c, let p): put("Q", c, p)
            case .addCurveToPoint(let c1, let c2, let p): put("C", c1, c2, p)
            case .closeSubpath: put("Z")
            }
        }
        guard finite else { return nil }
        self.init(data: text)
    }

    /// A quantised coordinate as JSON would print it: integral values without a fraction.
    static func number(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x)
    }
}
