import Foundation
import LayercastEngine
import LayercastJSON
import LayercastScenes
import LayercastWire

/// Frame-path benchmark: for every shipped scene, the per-frame cost of what a room does once
/// per tick (build the display list, diff it, encode the delta) and the size of full and delta
/// frames. Run with `swift run -c release LayercastFrameBench [FRAMES]`. Prints numbers; asserts nothing.

let frames = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 900
let fps = 30.0
let warmUp = 10.0  // seconds of scene time first, so scenes reach their steady state

func nanoseconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start)
}

print("frame path per room per tick, \(frames) frames at \(Int(fps)) fps after \(Int(warmUp)) s warm-up")
print("scene | items | build µs | diff µs | encode delta µs | delta bytes (mean) | full bytes (mean) | encode full µs")
for sceneType in SceneCatalog.all {
    let clock = ManualClock(now: 0)
    let context = SceneContext(clock: clock)
    let scene = context.run { sceneType.init(seed: 7) }
    let builder = DisplayListBuilder()
    let encoder = FrameEncoder()
    var list = DisplayList()
    var t = 0.0
    func step() { t += 1 / fps; clock.now = t; context.advance(to: t) }
    while t < warmUp {
        step()
        list = builder.build(scene.layer, at: t)
    }
    var build = 0.0, diff = 0.0, encodeDelta = 0.0, encodeFull = 0.0
    var deltaBytes = 0, fullBytes = 0, items = 0
    for n in 0..<frames {
        step()
        var next = DisplayList()
        build += nanoseconds { next = builder.build(scene.layer, at: t) }
        var delta: FrameDelta?
        diff += nanoseconds { delta = FrameDelta.from(list, to: next) }
        var text: JSONText?
        encodeDelta += nanoseconds { text = encoder.delta(delta!, number: n, time: t).text(headroom: 16) }
        deltaBytes += text!.count
        encodeFull += nanoseconds { text = encoder.full(next, number: n, time: t).text(headroom: 16) }
        fullBytes += text!.count
        items += next.items.count
        list = next
    }
    let f = Double(frames)
    print(String(format: "%@ | %.1f | %.1f | %.1f | %.1f | %.0f | %.0f | %.1f", sceneType.info.id, Double(items) / f,
                 build / f / 1000, diff / f / 1000, encodeDelta / f / 1000, Double(deltaBytes) / f,
                 Double(fullBytes) / f, encodeFull / f / 1000))
}

// The snowfall at several rates (exact mode, no room cap): particles the engine evaluates per
// frame (rate × 120 s of life, warm), particles sent (those on screen), the frame path's cost,
// and how many evaluated particles one core fits in a 30 fps frame (33.3 ms) at that cost.
print("")
print("snowfall per room per tick, \(frames) frames: particles that fit a 30 fps frame on one core")
print("rate /s | evaluated | sent | build+diff+delta µs | particles per 33.3 ms | delta bytes (mean) | full bytes (mean)")
for rate in [10.0, 25.0, 50.0, 100.0] {
    let clock = ManualClock(now: 0)
    let context = SceneContext(clock: clock)
    let scene = context.run { SnowScene(seed: 7, settings: SnowSettings(images: ["snowflake", "snowflake-star"], rate: rate)) }
    let builder = DisplayListBuilder()
    builder.maxParticles = 1_000_000
    let encoder = FrameEncoder()
    var list = builder.build(scene.layer, at: 0)
    var t = 0.0, work = 0.0, deltaBytes = 0, fullBytes = 0, sent = 0
    for n in 0..<frames {
        t += 1 / fps
        clock.now = t
        context.advance(to: t)
        work += nanoseconds {
            let next = builder.build(scene.layer, at: t)
            deltaBytes += encoder.delta(FrameDelta.from(list, to: next), number: n, time: t).text(headroom: 16).count
            list = next
        }
        fullBytes += encoder.full(list, number: n, time: t).text(headroom: 16).count
        sent += list.items.reduce(0) { $0 + $1.particles.particles.count }
    }
    let f = Double(frames)
    let evaluated = Int(rate * Double(SnowScene.warmUp))
    let perFrame = work / f / 1000
    print(String(format: "%.0f | %d | %.0f | %.0f | %.0f | %.0f | %.0f", rate, evaluated, Double(sent) / f, perFrame,
                 Double(evaluated) * (1e6 / fps) / perFrame, Double(deltaBytes) / f, Double(fullBytes) / f))
}
