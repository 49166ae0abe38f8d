import LayercastJSON

/// An entry of an emitter item's `pimg` table: the image a particle shows and the colour it is
/// tinted with (multiplied, as Core Animation multiplies a cell's colour into its contents).
/// Written `["snowflake"]` when the tint is white, else `["snowflake","#99a8bd"]`.
public struct DrawParticleImage: Hashable, Sendable {
    /// Image id, a key of `welcome.assets`.
    public var image: String
    /// Opaque: the colour's alpha travels in each particle's `a`.
    public var tint: DrawColor

    public init(image: String, tint: DrawColor = DrawColor(red: 255, green: 255, blue: 255)) {
        self.image = image
        self.tint = tint
    }

    var tree: JSONTree {
        let entry = JSONTree.array()
        entry.append(image)
        if tint != DrawColor(red: 255, green: 255, blue: 255) { entry.append(tint.hex) }
        return entry
    }

    init(_ field: FieldReader) throws(ProtocolError) {
        let parts = try field.array("[image, colour?]")
        guard (1...2).contains(parts.count) else { throw field.error("[image, colour?]") }
        self.init(image: try parts[0].string())
        if parts.count == 2 { tint = try parts[1].color() }
    }
}
