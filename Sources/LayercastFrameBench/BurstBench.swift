import Foundation
import LayercastEngine
import LayercastWire

/// A 400-particle burst (docs/performance.md, "Particles sent once"): a heart cell whose birth rate
/// is animated from 0 to 800 per second over 1 s (400 births, engine-model.md §9.7), each heart
/// living 2.5 s and flying out at 150 pt/s from the middle of a 414 × 736 scene. The full frame at
/// its start and every delta until the last heart has died are encoded as a room would send them;
/// returns their bytes in total, the frames that carried something and the largest frame.
func burstBytes(fps: Double) -> (total: Int, frames: Int, largest: Int) {
    let clock = ManualClock(now: 0)
    let context = SceneContext(clock: clock)
    let root = context.run {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 414, height: 736)
        let emitter = CAEmitterLayer()
        emitter.name = "hearts"
        emitter.bounds = root.bounds
        emitter.position = CGPoint(x: 207, y: 368)
        emitter.emitterPosition = CGPoint(x: 207, y: 368)
        let heart = CAEmitterCell()
        heart.name = "heart"
        heart.contents = CGImage(named: "heart", width: 40, height: 36)
        heart.lifetime = 2.5
        heart.velocity = 150
        heart.velocityRange = 60
        heart.emissionRange = .pi
        heart.scale = 0.5
        heart.scaleRange = 0.2
        heart.spinRange = 3
        heart.alphaSpeed = -0.3
        heart.yAcceleration = 40
        emitter.emitterCells = [heart]
        root.addSublayer(emitter)
        let burst = CABasicAnimation(keyPath: "emitterCells.heart.birthRate")
        burst.fromValue = 0
        burst.toValue = 800
        burst.duration = 1
        emitter.add(burst, forKey: "burst")
        return root
    }
    let builder = DisplayListBuilder()
    let encoder = FrameEncoder()
    var list = context.run { builder.build(root, at: 0) }
    var total = encoder.full(list, number: 0, time: 0).text(headroom: 16).count
    var sent = 1, largest = total
    for n in 1...Int(4 * fps) {
        let t = Double(n) / fps
        clock.now = t
        context.advance(to: t)
        let next = context.run { builder.build(root, at: t) }
        let delta = FrameDelta.from(list, to: next)
        list = next
        // A tick that changed nothing is not sent (protocol.md, `sparse`).
        guard !delta.isEmpty else { continue }
        let bytes = encoder.delta(delta, number: n, time: t).text(headroom: 16).count
        total += bytes
        sent += 1
        largest = max(largest, bytes)
    }
    return (total, sent, largest)
}
