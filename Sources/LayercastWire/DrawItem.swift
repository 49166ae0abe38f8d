import LayercastEngine
import LayercastJSON
import LayercastSceneAPI

/// One visible layer of a frame (protocol.md, "Draw items"), every number already quantised.
/// A field at its default is left out of the JSON.
public struct DrawItem: Hashable, Sendable {
    public var id: Int
    public var name: String?
    public var matrix: DrawMatrix
    /// Bounds size, 1e-2 pt.
    public var width: Double
    public var height: Double
    /// Effective opacity, 1e-3.
    public var opacity: Double
    public var background: DrawColor?
    public var borderColor: DrawColor?
    /// 1e-2 pt.
    public var borderWidth: Double
    /// 1e-2 pt.
    public var cornerRadius: Double
    /// Image id, a key of `welcome.assets`.
    public var image: String?
    /// The colour the image is multiplied by (a replicator copy's colour, protocol.md,
    /// "Replicators"); nil for none (white). Only an item with an image has one.
    public var imageTint: DrawColor?
    public var gravity: CALayerContentsGravity
    public var text: DrawText?
    public var shadow: DrawShadow?
    /// A gradient layer's ramp.
    public var gradient: DrawGradient?
    /// A shape layer's fill and stroke.
    public var fill: DrawFill?
    public var stroke: DrawStroke?
    /// `additive` for an emitter whose `renderMode` is `.additive` (drawn with `lighter`), else nil.
    public var renderMode: String?
    /// The clip and mask on the items of the sublayers that follow.
    public var group: DrawGroup?
    /// An emitter layer's particles (`pk`, `pt`, `pb`); empty for other layers.
    public var births: DrawBirths

    public init(id: Int, name: String? = nil, matrix: DrawMatrix = .identity, width: Double = 0, height: Double = 0,
                opacity: Double = 1, background: DrawColor? = nil, borderColor: DrawColor? = nil, borderWidth: Double = 0,
                cornerRadius: Double = 0, image: String? = nil, imageTint: DrawColor? = nil, gravity: CALayerContentsGravity = .resize,
                text: DrawText? = nil, shadow: DrawShadow? = nil, gradient: DrawGradient? = nil, fill: DrawFill? = nil,
                stroke: DrawStroke? = nil, renderMode: String? = nil, group: DrawGroup? = nil,
                births: DrawBirths = DrawBirths()) {
        self.id = id
        self.name = name
        self.matrix = matrix
        self.width = width
        self.height = height
        self.opacity = opacity
        self.background = background
        self.borderColor = borderColor
        self.borderWidth = borderWidth
        self.cornerRadius = cornerRadius
        self.image = image
        self.imageTint = imageTint
        self.gravity = gravity
        self.text = text
        self.shadow = shadow
        self.gradient = gradient
        self.fill = fill
        self.stroke = stroke
        self.renderMode = renderMode
        self.group = group
        self.births = births
    }

    /// The current value of one field.
    public func field(_ key: DrawField.Key) -> DrawField {
        switch key {
        case .name: .name(name)
        case .matrix: .matrix(matrix)
        case .size: .size(width: width, height: height)
        case .opacity: .opacity(opacity)
        case .background: .background(background)
        case .borderColor: .borderColor(borderColor)
        case .borderWidth: .borderWidth(borderWidth)
        case .cornerRadius: .cornerRadius(cornerRadius)
        case .image: .image(image)
        case .imageTint: .imageTint(imageTint)
        case .gravity: .gravity(gravity)
        case .text: .text(text)
        case .shadow: .shadow(shadow)
        case .gradient: .gradient(gradient)
        case .fill: .fill(fill)
        case .stroke: .stroke(stroke)
        case .renderMode: .renderMode(renderMode)
        case .group: .group(group)
        }
    }

    /// Replaces one field.
    public mutating func apply(_ field: DrawField) {
        switch field {
        case .name(let v): name = v
        case .matrix(let v): matrix = v
        case .size(let w, let h): (width, height) = (w, h)
        case .opacity(let v): opacity = v
        case .background(let v): background = v
        case .borderColor(let v): borderColor = v
        case .borderWidth(let v): borderWidth = v
        case .cornerRadius(let v): cornerRadius = v
        case .image(let v): image = v
        case .imageTint(let v): imageTint = v
        case .gravity(let v): gravity = v
        case .text(let v): text = v
        case .shadow(let v): shadow = v
        case .gradient(let v): gradient = v
        case .fill(let v): fill = v
        case .stroke(let v): stroke = v
        case .renderMode(let v): renderMode = v
        case .group(let v): group = v
        }
    }

    /// The fields whose value differs from `old`'s, in key order.
    public func changes(from old: DrawItem) -> [DrawField] {
        DrawField.Key.allCases.compactMap { key in
            let new = field(key)
            return new == old.field(key) ? nil : new
        }
    }

    /// `{"id":…, then every field not at its default, in key order, then `pk`, `pt` and `pb`}`.
    public var json: JSONValue { tree.value }

    /// `json` as a jansson tree.
    var tree: JSONTree {
        let object = JSONTree.object()
        object.set("id", Double(id))
        for key in DrawField.Key.allCases {
            let value = field(key)
            if !value.isDefault { value.writeValue(to: object) }
        }
        births.write(to: object)
        return object
    }

    /// Reads an item as `json` writes it; absent or null fields take their default, unknown keys
    /// are ignored.
    init(_ item: FieldReader) throws(ProtocolError) {
        _ = try item.object()
        self.init(id: try item.member("id").integer())
        for key in DrawField.Key.allCases {
            let member = item.member(key.rawValue)
            if !member.isAbsent { apply(try DrawField(key, member)) }
        }
        births = try DrawBirths(item: item)
    }
}
