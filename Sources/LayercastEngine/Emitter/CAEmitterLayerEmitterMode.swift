import Foundation

/// Which part of the emitter shape particles are born on (docs/engine-model.md §9.3).
public struct CAEmitterLayerEmitterMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// At the shape's vertices (a circle's or sphere's centre).
    public static let points = CAEmitterLayerEmitterMode(rawValue: "points")
    /// Along the shape's edges or on its outline.
    public static let outline = CAEmitterLayerEmitterMode(rawValue: "outline")
    /// On the shape's surface (a 2D shape's inside, a cuboid's faces).
    public static let surface = CAEmitterLayerEmitterMode(rawValue: "surface")
    /// Anywhere inside the shape.
    public static let volume = CAEmitterLayerEmitterMode(rawValue: "volume")
}
