import LayercastJSON
import LayercastSceneAPI

/// A shape item's stroke: `{"path":3,"c":"#000000","w":2,"cap":"round","join":"bevel","ml":4,"dash":[6,3],"dp":1.5}`.
/// `path` is already trimmed to `strokeStart…strokeEnd` by the server; `dp` is the dash offset
/// along it. Left out when at the default: `cap` butt, `join` miter, `ml` 10, `dash` none (solid), `dp` 0.
public struct DrawStroke: Hashable, Sendable {
    public var path: Int
    public var color: DrawColor
    /// Line width, 1e-2 pt.
    public var width: Double
    /// `butt`, `round` or `square`.
    public var cap: String
    /// `miter`, `round` or `bevel`.
    public var join: String
    /// Miter limit, 1e-2.
    public var miterLimit: Double
    /// Painted and unpainted lengths, 1e-2 pt; empty is a solid line.
    public var dash: [Double]
    /// Dash offset, 1e-2 pt.
    public var dashPhase: Double

    static let caps = ["butt", "round", "square"]
    static let joins = ["miter", "round", "bevel"]

    public init(path: Int, color: DrawColor, width: Double, cap: String = "butt", join: String = "miter",
                miterLimit: Double = 10, dash: [Double] = [], dashPhase: Double = 0) {
        (self.path, self.color, self.width, self.cap, self.join) = (path, color, width, cap, join)
        (self.miterLimit, self.dash, self.dashPhase) = (miterLimit, dash, dashPhase)
    }

    var tree: JSONTree {
        let object = JSONTree.object()
        object.set("path", Double(path))
        object.set("c", color.hex)
        object.set("w", width)
        if cap != "butt" { object.set("cap", cap) }
        if join != "miter" { object.set("join", join) }
        if miterLimit != 10 { object.set("ml", miterLimit) }
        if !dash.isEmpty {
            let array = JSONTree.array()
            for length in dash { array.append(length) }
            object.set("dash", array)
            if dashPhase != 0 { object.set("dp", dashPhase) }
        }
        return object
    }

    init(_ field: FieldReader) throws(ProtocolError) {
        _ = try field.object()
        func name(_ key: String, _ allowed: [String]) throws(ProtocolError) -> String {
            let member = field.member(key)
            if member.isAbsent { return allowed[0] }
            let value = try member.string()
            guard allowed.contains(value) else { throw member.error(allowed.map { "\"\($0)\"" }.joined(separator: ", ")) }
            return value
        }
        var dash: [Double] = []
        let dashField = field.member("dash")
        if !dashField.isAbsent { for length in try dashField.array() { dash.append(try length.number()) } }
        let ml = field.member("ml"), dp = field.member("dp")
        self.init(path: try field.member("path").integer(), color: try field.member("c").color(),
                  width: try field.member("w").number(), cap: try name("cap", Self.caps), join: try name("join", Self.joins),
                  miterLimit: ml.isAbsent ? 10 : try ml.number(), dash: dash, dashPhase: dp.isAbsent ? 0 : try dp.number())
    }
}
