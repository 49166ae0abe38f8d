import LayercastJSON

/// One particle of an emitter item (protocol.md, "Particles"), every number quantised: the tuple
/// `[id, x, y, s, r, a, k]`, trailing `a` = 1 and `k` = 0 left out.
public struct DrawParticle: Hashable, Sendable {
    /// Stable while the particle lives and is sent, unique in its item for the room's life.
    public var id: Int
    /// Centre in the item's rect coordinates (before `m`), 1e-2 pt.
    public var x: Double
    public var y: Double
    /// Scale of the image's natural size, 1e-4.
    public var scale: Double
    /// Rotation in radians (clockwise on screen, y down), 1e-3.
    public var rotation: Double
    /// Alpha multiplied with the item's `o`, 1e-3.
    public var alpha: Double
    /// Index into the item's `pimg` table.
    public var image: Int

    public init(id: Int, x: Double, y: Double, scale: Double, rotation: Double = 0, alpha: Double = 1, image: Int = 0) {
        (self.id, self.x, self.y, self.scale, self.rotation, self.alpha, self.image) = (id, x, y, scale, rotation, alpha, image)
    }

    /// Whether only x, y and rotation differ from `old`, so a delta may send `[id, x, y, r]`.
    func onlyMoved(from old: DrawParticle) -> Bool {
        scale == old.scale && alpha == old.alpha && image == old.image
    }

    /// `[id, x, y, s, r]`, then `a` and `k` when not at their defaults.
    var tree: JSONTree {
        let tuple = JSONTree.array()
        for n in [Double(id), x, y, scale, rotation] { tuple.append(n) }
        if alpha != 1 || image != 0 { tuple.append(alpha) }
        if image != 0 { tuple.append(Double(image)) }
        return tuple
    }

    /// `[id, x, y, r]`: a delta's move of a particle whose other numbers did not change.
    var moveTree: JSONTree {
        let tuple = JSONTree.array()
        for n in [Double(id), x, y, rotation] { tuple.append(n) }
        return tuple
    }

    /// Reads a 5-, 6- or 7-number tuple as `tree` writes it.
    init(_ field: FieldReader) throws(ProtocolError) {
        let numbers = try field.array("[id, x, y, s, r, a?, k?]")
        guard (5...7).contains(numbers.count) else { throw field.error("[id, x, y, s, r, a?, k?]") }
        self.init(id: try numbers[0].integer(), x: try numbers[1].number(), y: try numbers[2].number(),
                  scale: try numbers[3].number(), rotation: try numbers[4].number(),
                  alpha: numbers.count > 5 ? try numbers[5].number() : 1,
                  image: numbers.count > 6 ? try numbers[6].integer() : 0)
    }
}
