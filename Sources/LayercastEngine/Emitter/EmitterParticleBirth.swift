import Foundation

/// A drawn particle as born (docs/engine-model.md §9.4): everything its state at any age follows
/// from, in closed form. `particle(at:)` gives the state `particles(at:)` would give at that time.
public struct EmitterParticleBirth: Hashable, Sendable {
    /// The particle's id, as `EmitterParticle.id`.
    public var id: UInt64
    /// The name of the cell it was born from, as named at its birth.
    public var cellName: String?
    /// Indices from the layer's `emitterCells` down through each cell's `emitterCells`.
    public var cellPath: [Int]
    /// The image it shows: its cell's `contents` at its birth.
    public var contents: CGImage
    /// Layer local time of birth; the particle is alive for `0 ≤ t − birthTime < lifetime`.
    public var birthTime: CFTimeInterval
    /// Seconds it lives.
    public var lifetime: CFTimeInterval
    /// Position (x, y, z) at birth, in the layer's coordinates.
    public var origin: SIMD3<Double>
    /// Velocity at birth, points a second in the layer's coordinates.
    public var velocity: SIMD3<Double>
    /// Acceleration, points a second squared (the cell's x, y and zAcceleration).
    public var acceleration: SIMD3<Double>
    /// Scale at birth and its change per second (the scale is clamped at 0).
    public var scale: Double
    /// The scale's change per second.
    public var scaleSpeed: Double
    /// Radians per second: the rotation is `spin × age`.
    public var spin: Double
    /// Unpremultiplied (r, g, b, a) at birth, unclamped, and its change per second (clamped to 0…1 when evaluated).
    public var color: SIMD4<Double>
    /// The colour's change per second, per component.
    public var colorSpeed: SIMD4<Double>

    /// The position (x, y, z) at `age` seconds: origin + v·age + ½·acceleration·age².
    public func position(atAge age: Double) -> SIMD3<Double> {
        origin + velocity * age + acceleration * (0.5 * age * age)
    }

    /// The particle at layer time `t`; nil when it is not alive then.
    public func particle(at t: CFTimeInterval) -> EmitterParticle? {
        let age = t - birthTime
        guard age >= 0, age < lifetime else { return nil }
        let p = position(atAge: age)
        let c = (color + colorSpeed * age).clamped(lowerBound: .zero, upperBound: .one)
        return EmitterParticle(
            id: id, cellName: cellName, cellPath: cellPath, contents: contents,
            position: CGPoint(x: p.x, y: p.y), zPosition: CGFloat(p.z),
            scale: CGFloat(max(0, scale + scaleSpeed * age)), rotation: CGFloat(spin * age),
            color: CGColor(red: c.x, green: c.y, blue: c.z, alpha: c.w),
            birthTime: birthTime, age: age, lifetime: lifetime)
    }
}
