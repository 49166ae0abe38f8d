import Foundation

/// One visible particle of an emitter layer at one time, in the layer's coordinates.
/// `id` is stable for the particle's whole life (a hash of its cell path and birth indices).
public struct EmitterParticle: Hashable, Sendable {
    /// Stable identity of the particle over its life, the same on every evaluation.
    public var id: UInt64
    /// The name of the cell it was born from, as the cell was named at its birth.
    public var cellName: String?
    /// Indices from the layer's `emitterCells` down through each cell's `emitterCells`.
    public var cellPath: [Int]
    /// The image to draw, from its cell's `contents` at its birth.
    public var contents: CGImage
    /// The particle's centre in the layer's coordinates at this time.
    public var position: CGPoint
    /// The particle's z in the layer's coordinates at this time.
    public var zPosition: CGFloat
    /// The size factor for `contents` at this time, ≥ 0.
    public var scale: CGFloat
    /// The spin angle in radians (spin × age).
    public var rotation: CGFloat
    /// Unpremultiplied colour, each component clamped to 0…1.
    public var color: CGColor
    /// Layer local time of birth.
    public var birthTime: CFTimeInterval
    /// Seconds since its birth, in 0 ..< `lifetime`.
    public var age: CFTimeInterval
    /// Seconds it lives in all, fixed at its birth.
    public var lifetime: CFTimeInterval
}
