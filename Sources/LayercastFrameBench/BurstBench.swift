import Foundation
import LayercastEngine
import LayercastJSON
import LayercastWire

/// A 400-particle burst (docs/performance.md, "Particles sent once"): a heart cell whose birth rate
/// is animated from 0 to 800 per second over 1 s (400 births, engine-model.md §9.7), each heart
/// living 2.5 s and flying out at 150 pt/s from the middle of a 414 × 736 scene. The full frame at
/// its start and every delta until the last heart has died are encoded as a room would send them;
/// returns their bytes in total, the frames that carried something and the largest frame.
func burstBytes(fps: Double) -> (total: Int, frames: Int, largest: Int) {
    let sizes = burstFrames(fps: fps, seconds: 4).map(\.count)
    return (sizes.reduce(0, +), sizes.count, sizes.max() ?? 0)
}

/// The burst's frames as a room sends them, as text: the full frame at 0, then each delta that
/// carries something, up to `seconds`. With `every`, the burst starts again every `every` seconds
/// (a keyframed birth rate: 0 → 800 over the first second of each period, then 0) and a second
/// without a frame brings a keepalive, as a room sends its clients: what `bench/client.py` replays
/// to a page (`LayercastFrameBench burst-frames`).
func burstFrames(fps: Double, seconds: Double, every: Double? = nil) -> [JSONText] {
    let clock = ManualClock(now: 0)
    let context = SceneContext(clock: clock)
    let root = context.run {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 414, height: 736)
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
        if let every {
            let bursts = CAKeyframeAnimation(keyPath: "emitterCells.heart.birthRate")
            bursts.values = [0, 800, 0, 0]
            bursts.keyTimes = [0, 1 / every, 1 / every, 1]
            bursts.duration = every
            bursts.repeatCount = .infinity
            emitter.add(bursts, forKey: "burst")
        } else {
            let burst = CABasicAnimation(keyPath: "emitterCells.heart.birthRate")
            burst.fromValue = 0
            burst.toValue = 800
            burst.duration = 1
            emitter.add(burst, forKey: "burst")
        }
        return root
    }
    let builder = DisplayListBuilder()
    let encoder = FrameEncoder()
    var list = context.run { builder.build(root, at: 0) }
    var frames = [encoder.full(list, number: 0, time: 0).text(headroom: 16)]
    var sent = (n: 0, t: 0.0)
    for n in 1...Int(seconds * fps) {
        let t = Double(n) / fps
        clock.now = t
        context.advance(to: t)
        let next = context.run { builder.build(root, at: t) }
        let delta = FrameDelta.from(list, to: next)
        list = next
        // A tick that changed nothing is not sent (protocol.md, `sparse`), but for the replay's
        // keepalive after a second of silence; a delta after unsent ticks names its base (`b`).
        guard !delta.isEmpty || (every != nil && t - sent.t >= 1) else { continue }
        frames.append(encoder.delta(delta, number: n, time: t, base: sent.n == n - 1 ? nil : sent.n).text(headroom: 16))
        sent = (n, t)
    }
    return frames
}
