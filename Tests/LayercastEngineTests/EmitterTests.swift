import Foundation
import Testing
@testable import LayercastEngine

// CAEmitterLayer and CAEmitterCell (docs/engine-model.md §9). Every layer here is a root layer
// with beginTime 0, so its local time equals the scene's media time; property changes are
// stamped with the manual clock's time. Cells get `lifetime` long enough that every particle
// born in the test is still alive, so counting particles counts births, unless a test says so.

private let flake = CGImage(named: "snow", width: 20, height: 20)
private let star = CGImage(named: "star", width: 20, height: 20)

/// Runs `body` in a scene whose manual clock starts at `now`.
private func inScene<T>(now: CFTimeInterval = 0, _ body: (ManualClock) throws -> T) rethrows -> T {
    let clock = ManualClock(now: now)
    return try SceneContext(clock: clock).run { try body(clock) }
}

/// A point emitter at the origin with one visible cell configured by `configure`.
private func makeEmitter(_ configure: (CAEmitterCell) -> Void = { _ in }) -> (CAEmitterLayer, CAEmitterCell) {
    let layer = CAEmitterLayer()
    let cell = CAEmitterCell()
    cell.contents = flake
    cell.birthRate = 10
    cell.lifetime = 1000
    configure(cell)
    layer.emitterCells = [cell]
    return (layer, cell)
}

/// The particle's position as a vector (x, y, z).
private func position(_ p: EmitterParticle) -> SIMD3<Double> {
    SIMD3(Double(p.position.x), Double(p.position.y), Double(p.zPosition))
}

private func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }

/// |count − expected| ≤ fraction · expected.
private func within(_ count: Int, _ expected: Double, _ fraction: Double) -> Bool {
    abs(Double(count) - expected) <= fraction * expected
}

@Suite("Emitter layers")
struct EmitterTests {
    // MARK: Birth rates (§9.2)

    @Test(arguments: [Float(0.5), 2, 7, 20])
    func birthsOverSixtySecondsMatchTheRate(rate: Float) {
        inScene { _ in
            let (layer, _) = makeEmitter { $0.birthRate = rate }
            // Births every 1/rate s from local time 0: rate × 60 (30, 120, 420, 1200) within ±3%.
            let count = layer.particles(at: 60).count
            #expect(within(count, Double(rate) * 60, 0.03), "rate \(rate): \(count)")
        }
    }

    @Test func layerBirthRateMultipliesTheCellRate() {
        inScene { _ in
            let (layer, _) = makeEmitter { $0.birthRate = 2 }
            layer.birthRate = 3
            // 2/s × 3 over 60 s = 360.
            #expect(within(layer.particles(at: 60).count, 360, 0.03))
        }
    }

    /// The seed's container cell (docs/scenes.md §3): an invisible cell (birthRate 10, velocity 0,
    /// lifetime 0.35) whose particles each emit the snowflake cell.
    private func containerSnow(innerRate: Float) -> (CAEmitterLayer, CAEmitterCell) {
        let layer = CAEmitterLayer()
        layer.emitterPosition = CGPoint(x: 160, y: -30)
        layer.emitterSize = CGSize(width: 640, height: 0)
        layer.emitterShape = .line
        layer.emitterMode = .outline
        let container = CAEmitterCell()
        container.name = "containerLayer"
        container.birthRate = 10
        container.velocity = 0
        container.lifetime = 0.35
        let snow = CAEmitterCell()
        snow.name = "snow"
        snow.birthRate = innerRate
        snow.lifetime = 120
        snow.velocity = -100
        snow.yAcceleration = 2
        snow.emissionRange = 0.5 * .pi
        snow.spinRange = 0.25 * .pi
        snow.contents = flake
        snow.color = CGColor(red: 0.600, green: 0.658, blue: 0.743, alpha: 1)
        container.emitterCells = [snow]
        layer.emitterCells = [container]
        return (layer, container)
    }

    @Test func containerCellMultipliesRatesAsOnIOS() {
        inScene { _ in
            // The seed: 10 containers/s × 0.35 s × 2/s = 7 snowflakes per second → 420 in 60 s.
            let (layer, _) = containerSnow(innerRate: 2)
            let particles = layer.particles(at: 60)
            #expect(within(particles.count, 420, 0.03), "\(particles.count)")
            #expect(particles.allSatisfy { $0.cellPath == [0, 0] && $0.cellName == "snow" })
            // The layer's birthRate multiplies every cell, so with two levels it counts twice:
            // (10 × 2) × 0.35 × (2 × 2) = 28 per second → 1680.
            layer.birthRate = 2
            #expect(within(layer.particles(at: 60).count, 1680, 0.03))
        }
    }

    @Test func containerSnowStartsAtTheTopWhilePlainSnowFillsTheScreen() {
        // The seed's demo 1 vs demo 2 on a layer whose emission began long ago (beginTime 0 while
        // the clock reads 10 000 s, as on a device that has been up for hours).
        inScene(now: 10_000) { _ in
            let (plain, _) = makeEmitter {
                $0.birthRate = 10
                $0.lifetime = 120
            }
            // Demo 1: the steady state at once, 10/s × 120 s = 1200 particles.
            #expect(within(plain.particles(at: 10_000).count, 1200, 0.02))

            // Demo 2: containers are warm-started, but sub-cells emit only from the moment the
            // cells were set, so the snow begins now, at the top.
            let (layer, _) = containerSnow(innerRate: 2)
            #expect(layer.particles(at: 10_000).isEmpty)
            let later = layer.particles(at: 10_001)
            #expect(!later.isEmpty && later.count <= 10)
            #expect(later.allSatisfy { $0.age <= 1 && $0.position.y < -30 + 110 })
        }
    }

    // MARK: Warm start (§9.2)

    @Test func warmStartShowsTheSteadyState() {
        inScene(now: 5_000) { clock in
            // Emission began at local time 0: the steady state is rate × mean lifetime = 5 × 10 = 50.
            let (layer, _) = makeEmitter {
                $0.birthRate = 5
                $0.lifetime = 10
                $0.lifetimeRange = 4
            }
            #expect(within(layer.particles(at: 5_000).count, 50, 0.10))

            // beginTime = now (the iOS way to avoid the pre-filled state) starts from nothing:
            // layer time 0 is now, and the first birth comes 1/rate = 0.2 s later.
            let fresh = makeEmitter { $0.birthRate = 5 }.0
            fresh.beginTime = clock.now
            #expect(fresh.particles(at: fresh.localTime(atMedia: 5_000)).isEmpty)
            #expect(fresh.particles(at: fresh.localTime(atMedia: 5_001)).count == 5)
        }
    }

    // MARK: Emitter shapes (§9.3)

    /// Birth positions (velocity 0) of 500 particles on a shape centred at (100, 200, 5) with size
    /// 80 × 40 and depth 20.
    private func origins(_ shape: CAEmitterLayerEmitterShape, _ mode: CAEmitterLayerEmitterMode) -> [SIMD3<Double>] {
        inScene { _ in
            let (layer, _) = makeEmitter { $0.birthRate = 50 }
            layer.emitterPosition = CGPoint(x: 100, y: 200)
            layer.emitterZPosition = 5
            layer.emitterSize = CGSize(width: 80, height: 40)
            layer.emitterDepth = 20
            layer.emitterShape = shape
            layer.emitterMode = mode
            return layer.particles(at: 10).map { position($0) - SIMD3(100, 200, 5) }
        }
    }

    private let e = 1e-9

    @Test(arguments: [CAEmitterLayerEmitterMode.points, .outline, .surface, .volume])
    func pointShapeEmitsFromThePosition(mode: CAEmitterLayerEmitterMode) {
        let o = origins(.point, mode)
        #expect(o.count == 500 && o.allSatisfy { length($0) < e })
    }

    @Test(arguments: [CAEmitterLayerEmitterMode.outline, .surface, .volume])
    func lineEmitsAlongItsWidth(mode: CAEmitterLayerEmitterMode) {
        // Apple: from (x − width/2, y, z) to (x + width/2, y, z).
        let o = origins(.line, mode)
        #expect(o.allSatisfy { abs($0.y) < e && abs($0.z) < e && abs($0.x) <= 40 + e })
        #expect(o.map(\.x).min()! < -35 && o.map(\.x).max()! > 35)
    }

    @Test func shapesInPointsModeEmitFromTheirVertices() {
        #expect(origins(.line, .points).allSatisfy { abs(abs($0.x) - 40) < e && abs($0.y) < e })
        #expect(origins(.rectangle, .points).allSatisfy { abs(abs($0.x) - 40) < e && abs(abs($0.y) - 20) < e && abs($0.z) < e })
        #expect(origins(.cuboid, .points).allSatisfy { abs(abs($0.x) - 40) < e && abs(abs($0.y) - 20) < e && abs(abs($0.z) - 10) < e })
        #expect(Set(origins(.cuboid, .points).map { [$0.x, $0.y, $0.z] }).count == 8)
        // Circles and spheres have no vertices: their centre.
        #expect(origins(.circle, .points).allSatisfy { length($0) < e })
        #expect(origins(.sphere, .points).allSatisfy { length($0) < e })
    }

    @Test func rectangleOutlineIsThePerimeterAndSurfaceTheInside() {
        let outline = origins(.rectangle, .outline)
        #expect(outline.allSatisfy { o in
            abs(o.z) < e && ((abs(abs(o.x) - 40) < e && abs(o.y) <= 20 + e) || (abs(abs(o.y) - 20) < e && abs(o.x) <= 40 + e))
        })
        for mode in [CAEmitterLayerEmitterMode.surface, .volume] {
            let inside = origins(.rectangle, mode)
            #expect(inside.allSatisfy { abs($0.x) <= 40 && abs($0.y) <= 20 && abs($0.z) < e })
            #expect(inside.filter { abs($0.x) < 30 && abs($0.y) < 15 }.count > 200)   // area share 0.56 of 500
        }
    }

    @Test func circleRadiusIsTheWidth() {
        // Apple: a circle "of radius emitterSize.width" (80 here), in the x-y plane.
        #expect(origins(.circle, .outline).allSatisfy { abs(length($0) - 80) < 1e-6 && abs($0.z) < e })
        for mode in [CAEmitterLayerEmitterMode.surface, .volume] {
            let disc = origins(.circle, mode)
            #expect(disc.allSatisfy { length($0) <= 80 + e && abs($0.z) < e })
            #expect(disc.filter { length($0) < 40 }.count > 80)   // a quarter of the area: ~125 of 500
        }
    }

    @Test func cuboidOutlineSurfaceAndVolume() {
        // Extremes of the box: |x| = 40, |y| = 20, |z| = 10 (depth 20).
        func extremes(_ o: SIMD3<Double>) -> Int {
            [abs(abs(o.x) - 40) < e, abs(abs(o.y) - 20) < e, abs(abs(o.z) - 10) < e].filter { $0 }.count
        }
        func inside(_ o: SIMD3<Double>) -> Bool { abs(o.x) <= 40 + e && abs(o.y) <= 20 + e && abs(o.z) <= 10 + e }
        #expect(origins(.cuboid, .outline).allSatisfy { inside($0) && extremes($0) >= 2 })
        #expect(origins(.cuboid, .surface).allSatisfy { inside($0) && extremes($0) >= 1 })
        let volume = origins(.cuboid, .volume)
        #expect(volume.allSatisfy(inside))
        #expect(volume.filter { extremes($0) == 0 }.count == 500)
        #expect(volume.contains { $0.z > 5 } && volume.contains { $0.z < -5 })
    }

    @Test func sphereSurfaceAndVolume() {
        #expect(origins(.sphere, .surface).allSatisfy { abs(length($0) - 80) < 1e-6 })
        #expect(origins(.sphere, .outline).allSatisfy { abs(length($0) - 80) < 1e-6 })
        let ball = origins(.sphere, .volume)
        #expect(ball.allSatisfy { length($0) <= 80 + e })
        #expect(ball.filter { length($0) < 40 }.count > 30)   // an eighth of the volume: ~62 of 500
    }

    // MARK: Attributes (§9.4)

    @Test func velocityAndEmissionAngleStayInTheirRanges() {
        inScene { _ in
            // Speed 100 ± 40/2, axis at longitude π/3 in the x-y plane, cone half-angle 0.2 rad.
            let (layer, _) = makeEmitter {
                $0.velocity = 100
                $0.velocityRange = 40
                $0.emissionLongitude = .pi / 3
                $0.emissionRange = 0.2
            }
            let axis = SIMD3(cos(Double.pi / 3), sin(Double.pi / 3), 0)
            let particles = layer.particles(at: 20)
            #expect(particles.count == 200)
            let moving = particles.filter { $0.age > 0 }
            let speeds = moving.map { length(position($0)) / $0.age }
            let angles = moving.map { acos(min(1, (position($0) * axis).sum() / length(position($0)))) }
            #expect(speeds.allSatisfy { $0 >= 80 - 1e-9 && $0 <= 120 + 1e-9 })
            #expect(speeds.min()! < 82 && speeds.max()! > 118)
            #expect(angles.allSatisfy { $0 <= 0.2 + 1e-9 })
            #expect(angles.max()! > 0.18)
            // Latitude 0 keeps the axis in the plane; the cone reaches out of it on both sides.
            #expect(particles.contains { $0.zPosition > 0 } && particles.contains { $0.zPosition < 0 })
        }
    }

    @Test func longitudeIsMeasuredFromXTowardsYDown() {
        inScene { _ in
            // The seed's demo 1: longitude −π/2 ("up") with a negative velocity (−10) falls down.
            let (layer, _) = makeEmitter {
                $0.velocity = -10
                $0.emissionLongitude = -.pi / 2
            }
            let p = layer.particles(at: 5).first!
            #expect(close(p.position.x, 0, 1e-9) && close(p.position.y, 10 * p.age, 1e-9))
        }
    }

    @Test func accelerationMovesParticlesByHalfATSquared() {
        inScene { _ in
            let (layer, _) = makeEmitter {
                $0.xAcceleration = -4
                $0.yAcceleration = 10
                $0.zAcceleration = 1
            }
            layer.emitterPosition = CGPoint(x: 50, y: 60)
            for p in layer.particles(at: 7) {
                let a = p.age
                #expect(close(p.position.x, 50 - 2 * a * a, 1e-9))
                #expect(close(p.position.y, 60 + 5 * a * a, 1e-9))
                #expect(close(p.zPosition, 0.5 * a * a, 1e-9))
            }
        }
    }

    @Test func spinScaleColourAndLifetimeStayInTheirRanges() {
        inScene { _ in
            let (layer, _) = makeEmitter {
                $0.birthRate = 50
                $0.lifetime = 10
                $0.lifetimeRange = 4
                $0.spin = 2
                $0.spinRange = 1
                $0.scale = 0.5
                $0.scaleRange = 0.2
                $0.scaleSpeed = 0.01
                $0.color = CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
                $0.redRange = 0.2
                $0.redSpeed = -0.01
                $0.alphaSpeed = -0.05
            }
            layer.spin = 2
            layer.lifetime = 1.5
            let particles = layer.particles(at: 100)
            // Lifetime (10 ± 2) × 1.5 ∈ [12, 18]; the oldest alive is younger than its lifetime.
            #expect(particles.allSatisfy { $0.lifetime >= 12 && $0.lifetime <= 18 && $0.age < $0.lifetime })
            #expect(particles.map(\.lifetime).min()! < 12.5 && particles.map(\.lifetime).max()! > 17.5)
            // Steady state 50/s × mean lifetime 15 s = 750.
            #expect(within(particles.count, 750, 0.05))
            // Spin (2 ± 0.5) × layer spin 2 ∈ [3, 5] rad/s; rotation = spin × age.
            let spins = particles.filter { $0.age > 0.1 }.map { Double($0.rotation) / $0.age }
            #expect(spins.allSatisfy { $0 >= 3 - 1e-9 && $0 <= 5 + 1e-9 })
            #expect(spins.min()! < 3.1 && spins.max()! > 4.9)
            // Scale 0.5 ± 0.1, growing 0.01/s.
            #expect(particles.allSatisfy { abs(Double($0.scale) - 0.01 * $0.age - 0.5) <= 0.1 + 1e-9 })
            // Red 0.5 ± 0.1 falling 0.01/s; alpha 1 − 0.05·age clamped at 0 (speeds are Floats,
            // so −0.05 is −0.0500000007: 1e-6 tolerance).
            #expect(particles.allSatisfy { abs(Double($0.color.red) + 0.01 * $0.age - 0.5) <= 0.1 + 1e-6 })
            #expect(particles.allSatisfy { close($0.color.alpha, max(0, 1 - 0.05 * $0.age), 1e-6) })
            #expect(particles.allSatisfy { $0.color.green == 0.5 && $0.color.blue == 0.5 })
        }
    }

    @Test func subCellsAreBornWhereTheirParentIs() {
        inScene { _ in
            // Parents fly along +x at 50 pt/s for 1 s; each emits one child (1/s × 1 s) that stays put.
            let layer = CAEmitterLayer()
            let parent = CAEmitterCell()
            parent.birthRate = 1
            parent.lifetime = 1
            parent.velocity = 50
            let child = CAEmitterCell()
            child.birthRate = 1
            child.lifetime = 1000
            child.contents = star
            parent.emitterCells = [child]
            layer.emitterCells = [parent]
            let children = layer.particles(at: 30.5)
            #expect(children.count == 29 || children.count == 30)
            for c in children {
                // Parent k is born at k s, so the child's parent age is its birth time's fraction.
                let parentAge = c.birthTime - (c.birthTime - 1e-9).rounded(.down)
                #expect(close(c.position.x, 50 * parentAge, 1e-6) && c.position.y == 0)
            }
        }
    }

    // MARK: Determinism (§9.2)

    @Test func particlesAreAPureFunctionOfTime() {
        inScene { _ in
            func make(seed: UInt32) -> CAEmitterLayer {
                let (layer, _) = makeEmitter {
                    $0.velocity = 30
                    $0.velocityRange = 20
                    $0.emissionRange = .pi
                    $0.spinRange = 1
                }
                layer.emitterShape = .rectangle
                layer.emitterSize = CGSize(width: 100, height: 100)
                layer.seed = seed
                return layer
            }
            let a = make(seed: 7), b = make(seed: 7)
            let direct = a.particles(at: 42)
            _ = b.particles(at: 10)
            _ = b.particles(at: 80)
            #expect(b.particles(at: 42) == direct)
            #expect(a.particles(at: 42) == direct)
            #expect(make(seed: 8).particles(at: 42).map(\.position) != direct.map(\.position))
            // Ids are stable over a particle's life: a second later the same ids, one frame older.
            let next = Dictionary(uniqueKeysWithValues: a.particles(at: 43).map { ($0.id, $0) })
            #expect(direct.allSatisfy { next[$0.id]?.birthTime == $0.birthTime })
        }
    }

    // MARK: Runtime changes (§9.1)

    @Test func raisingBirthRateAffectsOnlyLaterBirths() {
        inScene { clock in
            let (layer, cell) = makeEmitter { $0.birthRate = 2 }
            let before = layer.particles(at: 20)
            clock.now = 30
            cell.birthRate = 6
            // 2/s for 30 s, then 6/s for 30 s.
            let particles = layer.particles(at: 60)
            #expect(particles.filter { $0.birthTime <= 30 }.count == 60)
            #expect(within(particles.filter { $0.birthTime > 30 }.count, 180, 0.02))
            #expect(layer.particles(at: 20) == before)
            // The layer multiplier too: stopping emission at 60 s leaves the births before it.
            clock.now = 60
            layer.birthRate = 0
            #expect(layer.particles(at: 90).count == particles.count)
        }
    }

    @Test func changingContentsAffectsOnlyLaterBirths() {
        inScene { clock in
            let (layer, cell) = makeEmitter { $0.birthRate = 4 }
            clock.now = 15
            cell.contents = star
            let particles = layer.particles(at: 30)
            #expect(particles.count == 120)
            #expect(particles.allSatisfy { $0.contents == ($0.birthTime <= 15 ? flake : star) })
        }
    }

    @Test func replacedCellsTakeTheirParticlesWithThem() {
        inScene { clock in
            let (layer, _) = makeEmitter { $0.birthRate = 4 }
            clock.now = 10
            let other = CAEmitterCell()
            other.contents = star
            other.birthRate = 1
            other.lifetime = 1000
            layer.emitterCells = [other]
            // The new top-level cell is warm-started from layer time 0, as on iOS.
            #expect(layer.particles(at: 10).count == 10)
            #expect(layer.particles(at: 10).allSatisfy { $0.contents == star })
        }
    }

    // MARK: Cap (§9.5)

    @Test func capKeepsTheNewestParticles() {
        inScene { _ in
            // 1000/s × 10 s = 10 000 alive; the newest 500 were born in the last 0.5 s.
            let (layer, _) = makeEmitter {
                $0.birthRate = 1000
                $0.lifetime = 10
            }
            layer.maxParticles = 500
            let particles = layer.particles(at: 100)
            #expect(particles.count == 500)
            #expect(particles.first!.birthTime > 100 - 0.5 && particles.last!.birthTime <= 100)
            #expect(zip(particles, particles.dropFirst()).allSatisfy { $0.birthTime <= $1.birthTime })
            layer.maxParticles = 0
            #expect(layer.particles(at: 100).isEmpty)
        }
    }

    @Test func particlesLiveToTheEndOfTheirDrawnLifetime() throws {
        try inScene { _ in
            // lifetime 1 ± 2⁻²⁴: the longest is 1 + 2⁻²⁴, which single precision rounds to 1 (ties to
            // even), but drawn lifetimes are doubles up to just below it. Particles born at 1, 2, …,
            // seen 1 + 3e-8 s later, are alive exactly when they drew a lifetime above that age.
            let (layer, _) = makeEmitter {
                $0.birthRate = 1
                $0.lifetime = 1
                $0.lifetimeRange = 0x1p-23
            }
            var longLived = 0
            for k in 1...40 {
                let born = Double(k), t = born + 1 + 3e-8
                let lifetime = try #require(layer.particles(at: born + 0.5).first { $0.birthTime == born }?.lifetime)
                let alive = layer.particles(at: t).contains { $0.birthTime == born }
                #expect(alive == (t - born < lifetime), "birth \(k): lifetime \(lifetime)")
                if alive { longLived += 1 }
            }
            #expect(longLived > 0)
        }
    }

    @Test func cellTimingBoundsEmission() {
        inScene { _ in
            // beginTime 5, duration 10: births at 5.5, 6, …, 15 → 20 at 2/s.
            let (layer, cell) = makeEmitter { $0.birthRate = 2 }
            cell.beginTime = 5
            cell.duration = 10
            let particles = layer.particles(at: 40)
            #expect(particles.count == 20)
            #expect(particles.allSatisfy { $0.birthTime > 5 && $0.birthTime <= 15 })
        }
    }
}
