import Foundation
import LayercastEngine
import LayercastJSON

/// The PATH value of docs/sample.md: an array of elements `["move", x, y]`, `["line", x, y]`,
/// `["quad", cx, cy, x, y]`, `["curve", c1x, c1y, c2x, c2y, x, y]`, `["close"]`, starting with a move.
extension CGPath {
    /// The most elements a sample path may have.
    static let sampleElementLimit = 10_000

    /// Decodes a PATH; the error names the element (`root.path[2]`) or the number at fault.
    static func sample(_ json: JSONValue, path: String) throws(SampleError) -> CGPath {
        guard let items = json.arrayValue else {
            throw SampleError(path: path, message: "must be an array of path elements, not \(json.typeName)")
        }
        guard items.count <= sampleElementLimit else {
            throw SampleError(path: path, message: "has \(items.count) elements, more than \(sampleElementLimit)")
        }
        var elements: [CGPathElement] = []
        for (i, item) in items.enumerated() {
            let itemPath = "\(path)[\(i)]"
            guard let parts = item.arrayValue, let op = parts.first?.stringValue else {
                throw SampleError(path: itemPath, message: "must be an array starting with move, line, quad, curve or close")
            }
            let counts = ["move": 2, "line": 2, "quad": 4, "curve": 6, "close": 0]
            guard let count = counts[op] else {
                throw SampleError(path: itemPath, message: "unknown path element '\(op)' (move, line, quad, curve, close)")
            }
            guard parts.count == count + 1 else {
                throw SampleError(path: itemPath, message: "\(op) takes \(count) numbers, not \(parts.count - 1)")
            }
            var c: [CGFloat] = []
            for (j, part) in parts.dropFirst().enumerated() {
                c.append(CGFloat(try JSONReader.number(part, path: "\(itemPath)[\(j + 1)]")))
            }
            if i == 0, op != "move" { throw SampleError(path: itemPath, message: "a path starts with a move") }
            switch op {
            case "move": elements.append(.moveToPoint(CGPoint(x: c[0], y: c[1])))
            case "line": elements.append(.addLineToPoint(CGPoint(x: c[0], y: c[1])))
            case "quad": elements.append(.addQuadCurveToPoint(control: CGPoint(x: c[0], y: c[1]), end: CGPoint(x: c[2], y: c[3])))
            case "curve":
                elements.append(.addCurveToPoint(control1: CGPoint(x: c[0], y: c[1]), control2: CGPoint(x: c[2], y: c[3]),
                                                 end: CGPoint(x: c[4], y: c[5])))
            default: elements.append(.closeSubpath)
            }
        }
        return CGPath(elements: elements)
    }

    /// The path as a PATH value.
    var sampleJSON: JSONValue {
        func element(_ op: String, _ points: CGPoint...) -> JSONValue {
            .array([.string(op)] + points.flatMap { [JSONValue.number(Double($0.x)), .number(Double($0.y))] })
        }
        return .array(elements.map { e in
            switch e {
            case let .moveToPoint(p): element("move", p)
            case let .addLineToPoint(p): element("line", p)
            case let .addQuadCurveToPoint(c, p): element("quad", c, p)
            case let .addCurveToPoint(c1, c2, p): element("curve", c1, c2, p)
            case .closeSubpath: element("close")
            }
        })
    }
}
