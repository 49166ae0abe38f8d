import LayercastEngine
import LayercastJSON
import LayercastSceneAPI

/// One field of a draw item with its value: what a delta's `set` entry replaces. A field at its
/// default is written `null` there ("returns to its default").
public enum DrawField: Hashable, Sendable {
    case name(String?)
    case matrix(DrawMatrix)
    case size(width: Double, height: Double)
    case opacity(Double)
    case background(DrawColor?)
    case borderColor(DrawColor?)
    case borderWidth(Double)
    case cornerRadius(Double)
    case image(String?)
    case imageTint(DrawColor?)
    case gravity(CALayerContentsGravity)
    case text(DrawText?)
    case shadow(DrawShadow?)
    case gradient(DrawGradient?)
    case fill(DrawFill?)
    case stroke(DrawStroke?)
    case renderMode(String?)
    case group(DrawGroup?)

    /// The JSON keys, in the order items and `set` entries write them.
    public enum Key: String, CaseIterable, Sendable {
        case name, matrix = "m", size = "s", opacity = "o", background = "bg", borderColor = "bc"
        case borderWidth = "bw", cornerRadius = "cr", image = "img", imageTint = "it", gravity = "g", text, shadow = "sh"
        case gradient = "grad", fill, stroke, renderMode = "rm", group = "grp"
    }

    /// The gravities protocol.md lists.
    static let gravities: [CALayerContentsGravity] = [
        .resize, .resizeAspect, .resizeAspectFill, .center, .top, .bottom, .left, .right,
        .topLeft, .topRight, .bottomLeft, .bottomRight,
    ]

    public var key: Key {
        switch self {
        case .name: .name
        case .matrix: .matrix
        case .size: .size
        case .opacity: .opacity
        case .background: .background
        case .borderColor: .borderColor
        case .borderWidth: .borderWidth
        case .cornerRadius: .cornerRadius
        case .image: .image
        case .imageTint: .imageTint
        case .gravity: .gravity
        case .text: .text
        case .shadow: .shadow
        case .gradient: .gradient
        case .fill: .fill
        case .stroke: .stroke
        case .renderMode: .renderMode
        case .group: .group
        }
    }

    /// The field at its default: no name, identity, `[0,0]`, opacity 1, no colours, 0, no image
    /// or image tint, `resize`, no text, no shadow, gradient, fill, stroke, render mode or group.
    public static func defaultValue(_ key: Key) -> DrawField {
        defaults.field(key)
    }

    private static let defaults = DrawItem(id: 0)

    public var isDefault: Bool { self == Self.defaultValue(key) }

    /// Sets this field's member of `object` (named `key.rawValue`): its value, `null` at the default.
    func write(to object: JSONTree) {
        if isDefault { object.setNull(key.rawValue) } else { writeValue(to: object) }
    }

    /// Sets this field's member of `object` to its value, for a field not at its default.
    func writeValue(to object: JSONTree) {
        let name = key.rawValue
        switch self {
        case .name(let v?), .image(let v?), .renderMode(let v?): object.set(name, v)
        case .matrix(let m): object.set(name, m.tree)
        case .size(let w, let h):
            let size = JSONTree.array()
            size.append(w)
            size.append(h)
            object.set(name, size)
        case .opacity(let x), .borderWidth(let x), .cornerRadius(let x): object.set(name, x)
        case .background(let c?), .borderColor(let c?), .imageTint(let c?): object.set(name, c.hex)
        case .gravity(let g): object.set(name, g.rawValue)
        case .text(let t?): object.set(name, t.tree)
        case .shadow(let s?): object.set(name, s.tree)
        case .gradient(let g?): object.set(name, g.tree)
        case .fill(let f?): object.set(name, f.tree)
        case .stroke(let s?): object.set(name, s.tree)
        case .group(let g?): object.set(name, g.tree)
        case .name(nil), .image(nil), .imageTint(nil), .background(nil), .borderColor(nil), .text(nil), .shadow(nil),
             .gradient(nil), .fill(nil), .stroke(nil), .renderMode(nil), .group(nil): object.setNull(name)
        }
    }

    /// Reads the value of `key`; `null` is the default.
    init(_ key: Key, _ field: FieldReader) throws(ProtocolError) {
        if field.isAbsentOrNull {
            self = Self.defaultValue(key)
            return
        }
        switch key {
        case .name: self = .name(try field.string())
        case .matrix: self = .matrix(try DrawMatrix(field))
        case .size:
            let elements = try field.array("[width, height]")
            guard elements.count == 2 else { throw field.error("[width, height]") }
            self = .size(width: try elements[0].number(), height: try elements[1].number())
        case .opacity: self = .opacity(try field.number())
        case .background: self = .background(try field.color())
        case .borderColor: self = .borderColor(try field.color())
        case .borderWidth: self = .borderWidth(try field.number())
        case .cornerRadius: self = .cornerRadius(try field.number())
        case .image: self = .image(try field.string())
        case .imageTint:
            let tint = try field.color()
            guard tint.alpha == 255 else { throw field.error("an opaque colour \"#rrggbb\"") }
            self = .imageTint(tint)
        case .gravity:
            let gravity = CALayerContentsGravity(rawValue: try field.string())
            guard Self.gravities.contains(gravity) else { throw field.error("a contents gravity such as \"resizeAspect\"") }
            self = .gravity(gravity)
        case .text: self = .text(try DrawText(field))
        case .shadow: self = .shadow(try DrawShadow(field))
        case .gradient: self = .gradient(try DrawGradient(field))
        case .fill: self = .fill(try DrawFill(field))
        case .stroke: self = .stroke(try DrawStroke(field))
        case .renderMode:
            let mode = try field.string()
            guard mode == "additive" else { throw field.error("\"additive\"") }
            self = .renderMode(mode)
        case .group: self = .group(try DrawGroup(field))
        }
    }
}
