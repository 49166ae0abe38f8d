import Foundation
import LayercastEngine

/// Engine benchmark: presentation of trees of animated layers, in ns per layer per frame.
/// Run with `swift run -c release LayercastBench [LAYERS:FRAMES …]`. Prints numbers; asserts nothing.

/// A root with `count` leaf layers in groups of ten, each leaf carrying the animation mix of the
/// shipped scenes: a keyframe fall, a spin on `transform`, and a pulse group.
func makeTree(count: Int) -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 414, height: 736)
    var parent = root
    for i in 0..<count {
        if i % 10 == 0 {
            parent = CALayer()
            parent.bounds = root.bounds
            root.addSublayer(parent)
        }
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 44, height: 62.5)
        layer.anchorPoint = .zero

        let fall = CAKeyframeAnimation(keyPath: "position")
        fall.values = [CGPoint(x: CGFloat(i % 414), y: 0), CGPoint(x: CGFloat((i * 7) % 414), y: 736)]
        fall.duration = 3.5 + Double(i % 200) / 100
        fall.repeatCount = .infinity
        layer.add(fall, forKey: "fall")

        let spin = CAKeyframeAnimation(keyPath: "transform")
        spin.values = [CATransform3DMakeRotation(CGFloat(i % 360) * .pi / 180, 0, 0, -1),
                       CATransform3DMakeRotation(CGFloat((i * 13) % 360) * .pi / 180, 0, 0, -1)]
        spin.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        spin.duration = 4
        spin.repeatCount = .infinity
        layer.add(spin, forKey: "spin")

        let scale = CABasicAnimation(keyPath: "transform.scale")
        scale.fromValue = 0.5
        scale.toValue = 1.5
        let fade = CAKeyframeAnimation(keyPath: "opacity")
        fade.values = [1, 0.7, 0]
        fade.keyTimes = [0, 0.5, 1]
        let pulse = CAAnimationGroup()
        pulse.animations = [scale, fade]
        pulse.duration = 4
        pulse.repeatCount = .infinity
        pulse.timingFunction = CAMediaTimingFunction(name: .default)
        layer.add(pulse, forKey: "pulse")

        parent.addSublayer(layer)
    }
    return root
}

func measure(count: Int, frames: Int) -> (nsPerLayer: Double, layers: Int) {
    let context = SceneContext(clock: ManualClock(now: 0))
    return context.run {
        let root = makeTree(count: count)
        var visited = 0
        var checksum: CGFloat = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for frame in 0..<frames {
            root.forEachPresented(at: Double(frame) / 30) { _, props in
                visited += 1
                checksum += props.position.x + CGFloat(props.opacity)
            }
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
        precondition(checksum.isFinite)
        return (elapsed / Double(visited), visited / frames)
    }
}

print("presentation evaluation, 3 animations per leaf layer (keyframe position, keyframe transform, group)")
print("leaf layers | layers visited/frame | frames | ns per layer per frame | ms per frame")
let requested = CommandLine.arguments.dropFirst().compactMap { arg -> (Int, Int)? in
    let parts = arg.split(separator: ":").compactMap { Int($0) }
    return parts.count == 2 ? (parts[0], parts[1]) : nil
}
for (count, frames) in requested.isEmpty ? [(100, 3000), (1_000, 300), (10_000, 30)] : requested {
    _ = measure(count: count, frames: max(1, frames / 10))  // warm-up
    let r = measure(count: count, frames: frames)
    let msPerFrame = r.nsPerLayer * Double(r.layers) / 1e6
    print(String(format: "%11d | %20d | %6d | %22.0f | %12.3f", count, r.layers, frames, r.nsPerLayer, msPerFrame))
}

/// Particles evaluated per second for a steady 1,000-particle emitter (100/s × 10 s), 30 fps.
func measureEmitter(frames: Int) -> (particlesPerSecond: Double, particles: Int) {
    SceneContext(clock: ManualClock(now: 0)).run {
        let layer = CAEmitterLayer()
        layer.emitterShape = .rectangle
        layer.emitterMode = .surface
        layer.emitterSize = CGSize(width: 414, height: 100)
        let cell = CAEmitterCell()
        cell.contents = CGImage(named: "snow", width: 20, height: 20)
        cell.birthRate = 100
        cell.lifetime = 10
        cell.velocity = 50
        cell.velocityRange = 20
        cell.emissionRange = .pi / 4
        cell.spinRange = 1
        cell.yAcceleration = 10
        layer.emitterCells = [cell]
        var evaluated = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for frame in 0..<frames {
            evaluated += layer.particles(at: 1_000 + Double(frame) / 30).count
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
        return (Double(evaluated) / elapsed * 1e9, evaluated / frames)
    }
}

_ = measureEmitter(frames: 30)  // warm-up
let emitter = measureEmitter(frames: 300)
print(String(format: "emitter: %d particles/frame, %.0f particles evaluated per second (%.3f ms per frame)",
             emitter.particles, emitter.particlesPerSecond, Double(emitter.particles) / emitter.particlesPerSecond * 1e3))
