import Foundation

/// How a client composites the particles; the engine stores it and orders particles by birth.
public struct CAEmitterLayerRenderMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Particles drawn in no particular order (the default).
    public static let unordered = CAEmitterLayerRenderMode(rawValue: "unordered")
    /// The oldest particles drawn first, under the newer ones.
    public static let oldestFirst = CAEmitterLayerRenderMode(rawValue: "oldestFirst")
    /// The oldest particles drawn last, over the newer ones.
    public static let oldestLast = CAEmitterLayerRenderMode(rawValue: "oldestLast")
    /// Particles sorted by depth, the farthest drawn first.
    public static let backToFront = CAEmitterLayerRenderMode(rawValue: "backToFront")
    /// Particles add their light to one another (a canvas `lighter` blend on clients).
    public static let additive = CAEmitterLayerRenderMode(rawValue: "additive")
}
