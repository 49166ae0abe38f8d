import Foundation

/// A particle as born: everything it keeps for life, drawn from the parameters in effect at its
/// birth and its counter-based randomness; its state at any age is closed-form (docs/engine-model.md §9.4).
struct ParticleBirth {
    var id: UInt64
    var time: CFTimeInterval
    var lifetime: Double
    var origin: SIMD3<Double>
    var velocity: SIMD3<Double>
    var acceleration: SIMD3<Double>
    var spin: Double
    var scale: Double
    var scaleSpeed: Double
    var color: SIMD4<Double>
    var colorSpeed: SIMD4<Double>
    var name: String?
    var contents: CGImage?

    /// Birth `id` at `time`; `origin` nil means a point on the layer's emitter shape.
    init(id: UInt64, time: CFTimeInterval, origin: SIMD3<Double>?, layer: EmitterLayerParameters, cell: EmitterCellParameters) {
        let random = ParticleRandom(seed: layer.seed, id: id)
        self.id = id
        self.time = time
        lifetime = Double(layer.lifetime) * max(0, random.spread(Double(cell.lifetime), Double(cell.lifetimeRange), .lifetime))
        self.origin = origin ?? EmitterShapeSampler.origin(layer, SIMD3(random.unit(.shapeA), random.unit(.shapeB), random.unit(.shapeC)))
        let speed = Double(layer.velocity) * random.spread(Double(cell.velocity), Double(cell.velocityRange), .velocity)
        velocity = speed * Self.direction(cell, cosine: random.unit(.coneCosine), turn: random.unit(.coneTurn))
        acceleration = SIMD3(Double(cell.xAcceleration), Double(cell.yAcceleration), Double(cell.zAcceleration))
        spin = Double(layer.spin) * random.spread(Double(cell.spin), Double(cell.spinRange), .spin)
        scale = Double(layer.scale) * random.spread(Double(cell.scale), Double(cell.scaleRange), .scale)
        scaleSpeed = Double(layer.scale) * Double(cell.scaleSpeed)
        let base = cell.color ?? .white
        color = SIMD4(random.spread(Double(base.red), Double(cell.redRange), .red),
                      random.spread(Double(base.green), Double(cell.greenRange), .green),
                      random.spread(Double(base.blue), Double(cell.blueRange), .blue),
                      random.spread(Double(base.alpha), Double(cell.alphaRange), .alpha))
        colorSpeed = SIMD4(Double(cell.redSpeed), Double(cell.greenSpeed), Double(cell.blueSpeed), Double(cell.alphaSpeed))
        name = cell.name
        contents = cell.contents
    }

    /// A unit direction in the cone of half-angle `emissionRange` about the axis at
    /// `emissionLongitude` (in the x-y plane from +x towards +y) tilted by `emissionLatitude` towards +z,
    /// uniform over the cone's solid angle.
    static func direction(_ cell: EmitterCellParameters, cosine u: Double, turn v: Double) -> SIMD3<Double> {
        let lon = Double(cell.emissionLongitude), lat = Double(cell.emissionLatitude)
        let axis = SIMD3(cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat))
        // Two unit vectors perpendicular to the axis: one in the x-y plane, one towards +z.
        let across = SIMD3(-sin(lon), cos(lon), 0)
        let up = SIMD3(-sin(lat) * cos(lon), -sin(lat) * sin(lon), cos(lat))
        let range = min(max(Double(cell.emissionRange), 0), .pi)
        let cosTheta = 1 - u * (1 - cos(range))
        let sinTheta = (max(0, 1 - cosTheta * cosTheta)).squareRoot()
        let phi = 2 * Double.pi * v
        return cosTheta * axis + sinTheta * (cos(phi) * across + sin(phi) * up)
    }

    /// The position at `age` seconds: origin + v·a + ½·acc·a².
    func position(atAge age: Double) -> SIMD3<Double> {
        origin + velocity * age + acceleration * (0.5 * age * age)
    }

    /// Its public record, reached through the cell at `path`; nil when it has no image (it is never drawn).
    func record(path: [Int]) -> EmitterParticleBirth? {
        guard let contents else { return nil }
        return EmitterParticleBirth(
            id: id, cellName: name, cellPath: path, contents: contents, birthTime: time, lifetime: lifetime,
            origin: origin, velocity: velocity, acceleration: acceleration, scale: scale, scaleSpeed: scaleSpeed,
            spin: spin, color: color, colorSpeed: colorSpeed)
    }

    /// The particle at layer time `t`; nil when it has not been born, has died, or has no image.
    func particle(at t: CFTimeInterval, path: [Int]) -> EmitterParticle? {
        let age = t - time
        guard age >= 0, age < lifetime, contents != nil else { return nil }
        return record(path: path)?.particle(at: t)
    }
}
