import Foundation
import Testing
@testable import LayercastEngine

// Animations of emitter key paths (docs/engine-model.md §9.7). Every layer is a root layer with
// beginTime 0 under a manual clock starting at 0, so layer time is media time; animations added at
// time 0 begin at 0. Lifetimes are long enough that counting particles counts births.

private let heartImage = CGImage(named: "heart", width: 20, height: 20)

/// An emitter with one visible cell named "heart" (birthRate 0 unless `configure` sets it).
private func heartEmitter(_ configure: (CAEmitterCell) -> Void = { _ in }) -> (CAEmitterLayer, CAEmitterCell) {
    let layer = CAEmitterLayer()
    let cell = CAEmitterCell()
    cell.name = "heart"
    cell.contents = heartImage
    cell.lifetime = 1000
    configure(cell)
    layer.emitterCells = [cell]
    return (layer, cell)
}

/// A linear basic animation of `keyPath` from `from` to `to` over `duration` seconds.
private func ramp(_ keyPath: String, from: Any, to: Any, duration: CFTimeInterval) -> CABasicAnimation {
    let animation = CABasicAnimation(keyPath: keyPath)
    animation.fromValue = from
    animation.toValue = to
    animation.duration = duration
    return animation
}

@Suite("Emitter animations")
struct EmitterAnimationTests {
    // MARK: Rates (§9.7)

    @Test func heartBurstEmitsTheIntegralOfTheAnimatedRate() {
        let clock = ManualClock(now: 0)
        let context = SceneContext(clock: clock)
        context.run {
            let (layer, _) = heartEmitter()
            layer.add(ramp("emitterCells.heart.birthRate", from: 0, to: 283, duration: 1), forKey: "burst")
            // r(t) = 283·t on [0, 1): N(t) = 283·t²/2. At 0.5: 35.375 → 35 births; by the end 141.5 → 141.
            let half = layer.particles(at: 0.5)
            #expect(half.count == 35)
            let during = layer.particles(at: 0.9)
            // Birth k is where N = k, t = √(2k/283), to within one 1/60 s step of the grid.
            for (k, particle) in during.enumerated() {
                #expect(abs(particle.birthTime - (2 * Double(k + 1) / 283).squareRoot()) < 1.0 / 60, "birth \(k + 1)")
            }
            clock.advance(by: 2)
            context.advance()
            #expect(layer.animationKeys() == nil)
            // After the burst is removed (model birthRate 0): 141 particles, the same ones as before.
            let after = layer.particles(at: 2)
            #expect(after.count == 141)
            let early = after.filter { $0.birthTime <= 0.9 }
            #expect(early.map(\.id) == during.map(\.id))
            #expect(early.map(\.birthTime) == during.map(\.birthTime))
            #expect(layer.particles(at: 0.5).map(\.id) == half.map(\.id))
        }
    }

    @Test func layerBirthRateAnimationMultipliesEveryCell() {
        SceneContext(clock: ManualClock(now: 0)).run {
            let (layer, _) = heartEmitter { $0.birthRate = 10 }
            // The layer's birthRate held at 3 for 2 s (from = to): 30/s, then 10/s again. N(1.95) = 58.5,
            // N(3.05) = 60 + 10.5 (counts off whole numbers, which the grid's sum meets only up to rounding).
            let hold = ramp("birthRate", from: 3, to: 3, duration: 2)
            layer.add(hold, forKey: "hold")
            #expect(layer.particles(at: 1.95).count == 58)
            #expect(layer.particles(at: 3.05).count == 70)
        }
    }

    @Test func filledAnimationHoldsItsEndRate() {
        SceneContext(clock: ManualClock(now: 0)).run {
            let (layer, _) = heartEmitter()
            let rise = ramp("emitterCells.heart.birthRate", from: 0, to: 11, duration: 1)
            rise.fillMode = .forwards
            rise.isRemovedOnCompletion = false
            layer.add(rise, forKey: "rise")
            // N(1) = 11 × 1 / 2 = 5.5, then 11/s held: N(3) = 27.5 (counts off whole numbers, which the
            // sum over the grid reaches only up to rounding).
            #expect(layer.particles(at: 1).count == 5)
            #expect(layer.particles(at: 3).count == 27)
        }
    }

    @Test func removedAnimationStopsLaterBirthsButKeepsEarlierOnes() {
        let clock = ManualClock(now: 0)
        let context = SceneContext(clock: clock)
        context.run {
            let (layer, _) = heartEmitter()
            layer.add(ramp("emitterCells.heart.birthRate", from: 20, to: 20, duration: 10), forKey: "steady")
            clock.advance(by: 1.01)
            context.advance()
            layer.removeAnimation(forKey: "steady")
            // 20/s for the 1.01 s it was attached (N = 20.2), nothing after.
            #expect(layer.particles(at: 1.01).count == 20)
            #expect(layer.particles(at: 5).count == 20)
        }
    }

    // MARK: Values at birth (§9.7)

    @Test func animatedEmitterPositionMovesBirths() {
        SceneContext(clock: ManualClock(now: 0)).run {
            let (layer, _) = heartEmitter { $0.birthRate = 10 }
            layer.add(ramp("emitterPosition", from: CGPoint(x: 0, y: 50), to: CGPoint(x: 100, y: 50), duration: 1), forKey: "slide")
            // Velocity 0: the particle born at k/10 s stays where the emitter was then, x = 100·k/10.
            let particles = layer.particles(at: 0.95)
            #expect(particles.count == 9)
            for (i, particle) in particles.enumerated() {
                #expect(close(particle.position, CGPoint(x: 10 * CGFloat(i + 1), y: 50), 1e-6), "\(particle.position)")
            }
            // After the animation the model position (0, 0) applies again.
            #expect(close(layer.particles(at: 1.15).last!.position, .zero))
        }
    }

    @Test func emitterPositionSubPathDrivesOneCoordinate() {
        SceneContext(clock: ManualClock(now: 0)).run {
            let (layer, _) = heartEmitter { $0.birthRate = 4 }
            layer.emitterPosition = CGPoint(x: 7, y: 9)
            layer.add(ramp("emitterPosition.y", from: 0, to: -40, duration: 1), forKey: "rise")
            // Births at 0.25, 0.5, 0.75: y = −10, −20, −30; x keeps the model's 7.
            let positions = layer.particles(at: 0.8).map(\.position)
            #expect(positions.count == 3)
            for (i, p) in positions.enumerated() {
                #expect(close(p, CGPoint(x: 7, y: -10 * CGFloat(i + 1)), 1e-6), "\(p)")
            }
        }
    }

    @Test func animatedCellVelocityIsTakenAtBirthAndKept() {
        SceneContext(clock: ManualClock(now: 0)).run {
            let (layer, _) = heartEmitter { $0.birthRate = 2 }
            layer.add(ramp("emitterCells.heart.velocity", from: 0, to: 100, duration: 2), forKey: "speed")
            // Born at τ = 0.5, 1, 1.5 with speed 50·τ along +x; at t = 3 each is at 50·τ·(3 − τ).
            let particles = layer.particles(at: 3)
            #expect(particles.count == 6)
            for particle in particles.prefix(3) {
                let tau = particle.birthTime
                #expect(close(particle.position.x, 50 * tau * (3 - tau), 1e-4), "born \(tau): \(particle.position)")
            }
            // Born at 2, 2.5, 3 (after the animation): the model velocity 0.
            #expect(particles.suffix(3).allSatisfy { close($0.position, .zero) })
        }
    }

    @Test func animatedCellColourIsInterpolatedAtBirth() {
        SceneContext(clock: ManualClock(now: 0)).run {
            let (layer, _) = heartEmitter { $0.birthRate = 4 }
            let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            layer.add(ramp("emitterCells.heart.color", from: red, to: blue, duration: 1), forKey: "tint")
            // Born at 0.25, 0.5, 0.75: red 1 − τ, blue τ.
            let colors = layer.particles(at: 0.8).map(\.color)
            #expect(colors.count == 3)
            for (i, c) in colors.enumerated() {
                let tau = 0.25 * CGFloat(i + 1)
                #expect(close(c.red, 1 - tau) && close(c.blue, tau) && close(c.green, 0), "\(c)")
            }
        }
    }

    @Test func nestedSubCellKeyPathReachesTheSubCell() {
        SceneContext(clock: ManualClock(now: 0)).run {
            let layer = CAEmitterLayer()
            let rocket = CAEmitterCell()
            rocket.name = "rocket"
            rocket.birthRate = 1
            rocket.lifetime = 10
            let spark = CAEmitterCell()
            spark.name = "spark"
            spark.contents = heartImage
            spark.lifetime = 100
            rocket.emitterCells = [spark]
            layer.emitterCells = [rocket]
            layer.add(ramp("emitterCells.rocket.emitterCells.spark.birthRate", from: 10, to: 10, duration: 2), forKey: "sparks")
            // Rockets are born at 1, 2, 3…; sparks are born at 10/s only while the animation runs (to 2):
            // the rocket born at 1 emits ⌊φ + 10 × 1⌋ = 10 of them, later rockets none.
            let sparks = layer.particles(at: 5)
            #expect(sparks.count == 10)
            #expect(sparks.allSatisfy { $0.cellPath == [0, 0] && $0.birthTime >= 1 && $0.birthTime < 2 })
            // The same key path without the parent's name reaches nothing.
            #expect(CABasicAnimation(keyPath: "emitterCells.spark.birthRate").validationError(for: layer) != nil)
        }
    }

    @Test func groupChildrenDriveEmitterKeyPaths() {
        SceneContext(clock: ManualClock(now: 0)).run {
            let (layer, _) = heartEmitter()
            let group = CAAnimationGroup()
            group.duration = 2
            group.animations = [ramp("emitterCells.heart.birthRate", from: 5.5, to: 5.5, duration: 1)]
            layer.add(group, forKey: "group")
            // The child runs for the first second of the group: N = 5.5, 5 births.
            #expect(layer.particles(at: 3).count == 5)
        }
    }

    // MARK: Key paths (§9.7, §11)

    @Test func supportedEmitterKeyPathsValidate() {
        SceneContext(clock: ManualClock(now: 0)).run {
            let (layer, _) = heartEmitter()
            for path in ["emitterCells.heart.birthRate", "emitterCells.heart.scale", "emitterCells.heart.alphaSpeed",
                         "emitterCells.heart.emissionLongitude", "birthRate", "lifetime", "velocity", "scale", "spin",
                         "emitterPosition", "emitterPosition.x", "emitterZPosition", "emitterSize"] {
                #expect(CABasicAnimation(keyPath: path).validationError(for: layer) == nil, "\(path)")
            }
            let color = CABasicAnimation(keyPath: "emitterCells.heart.color")
            color.toValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            #expect(color.validationError(for: layer) == nil)
        }
    }

    @Test func unsupportedEmitterKeyPathsAreRefused() {
        SceneContext(clock: ManualClock(now: 0)).run {
            let (layer, _) = heartEmitter()
            // Not animatable per Apple (seed, emitterDepth, shape and mode), not a cell property, a cell
            // property on the layer, a layer property on a cell, or a cell the layer does not have.
            for path in ["seed", "emitterDepth", "emitterShape", "emitterCells.heart.emitterShape",
                         "emitterCells.heart.seed", "lifetimeRange", "emitterCells.heart.emitterPosition",
                         "emitterCells.nosuch.birthRate", "emitterCells..birthRate", "emitterCells.heart"] {
                #expect(CABasicAnimation(keyPath: path).validationError(for: layer) != nil, "\(path)")
            }
            #expect(CABasicAnimation(keyPath: "emitterPosition").validationError(for: CALayer()) != nil)
            let wrongKind = ramp("emitterCells.heart.birthRate", from: CGPoint.zero, to: CGPoint.zero, duration: 1)
            #expect(wrongKind.validationError(for: layer) != nil)
        }
    }
}
