import LayercastJSON
import LayercastSceneAPI

/// An entry of an emitter item's `pk` table (protocol.md, "Particles"): what a cell fixes for
/// every particle it emits under one set of parameters, written
/// `[kid, image, ax, ay, ds, da, dr, dg, db]` with trailing zeros left out.
public struct DrawParticleKind: Hashable, Sendable {
    /// Stable for the room's life, never reused in the item.
    public var id: Int
    /// Image id, a key of `welcome.assets`.
    public var image: String
    /// Acceleration, pt/s², 1e-2.
    public var ax: Double
    public var ay: Double
    /// Scale speed (/s, 1e-4) and alpha speed (/s, 1e-3).
    public var scaleSpeed: Double
    public var alphaSpeed: Double
    /// Colour speeds (/s, components 0…1, 1e-3).
    public var redSpeed: Double
    public var greenSpeed: Double
    public var blueSpeed: Double

    public init(id: Int, image: String, ax: Double = 0, ay: Double = 0, scaleSpeed: Double = 0, alphaSpeed: Double = 0,
                redSpeed: Double = 0, greenSpeed: Double = 0, blueSpeed: Double = 0) {
        (self.id, self.image, self.ax, self.ay) = (id, image, ax, ay)
        (self.scaleSpeed, self.alphaSpeed, self.redSpeed, self.greenSpeed, self.blueSpeed) =
            (scaleSpeed, alphaSpeed, redSpeed, greenSpeed, blueSpeed)
    }

    private var numbers: [Double] { [ax, ay, scaleSpeed, alphaSpeed, redSpeed, greenSpeed, blueSpeed] }

    var tree: JSONTree {
        let entry = JSONTree.array()
        entry.append(Double(id))
        entry.append(image)
        let numbers = numbers
        let kept = (numbers.lastIndex { $0 != 0 } ?? -1) + 1
        for n in numbers.prefix(kept) { entry.append(n) }
        return entry
    }

    /// Reads `[kid, image, …]` with 0 to 7 numbers after the image.
    init(_ field: FieldReader) throws(ProtocolError) {
        let requirement = "[kid, image, ax?, ay?, ds?, da?, dr?, dg?, db?]"
        let parts = try field.array(requirement)
        guard (2...9).contains(parts.count) else { throw field.error(requirement) }
        var numbers = [Double](repeating: 0, count: 7)
        for i in 2..<parts.count { numbers[i - 2] = try parts[i].number() }
        self.init(id: try parts[0].integer(), image: try parts[1].string(), ax: numbers[0], ay: numbers[1],
                  scaleSpeed: numbers[2], alphaSpeed: numbers[3], redSpeed: numbers[4], greenSpeed: numbers[5],
                  blueSpeed: numbers[6])
    }
}
