import Foundation

/// One visible particle of an emitter layer at one time, in the layer's coordinates.
/// `id` is stable for the particle's whole life (a hash of its cell path and birth indices).
public struct EmitterParticle: Hashable, Sendable {
    public var id: UInt64
    /// The name of the cell it was born from, as the cell was named at its birth.
    public var cellName: String?
    /// Indices from the layer's `emitterCells` down through each cell's `emitterCells`.
    public var cellPath: [Int]
    public var contents: CGImage
    public var position: CGPoint
    public var zPosition: CGFloat
    public var scale: CGFloat
    /// The spin angle in radians (spin × age).
    public var rotation: CGFloat
    /// Unpremultiplied colour, each component clamped to 0…1.
    public var color: CGColor
    /// Layer local time of birth.
    public var birthTime: CFTimeInterval
    public var age: CFTimeInterval
    public var lifetime: CFTimeInterval
}
