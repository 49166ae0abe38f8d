import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI
import LayercastScenes
import LayercastWire

/// Frame-path benchmark: for every shipped scene, driven the way its clients would (a rain
/// falling, the cubes refreshing, a book opening and closing, the prize reveal replayed), the
/// per-frame cost of what a room does once per tick — presentation and display list (bench (a)),
/// then the diff and the delta encoding — and the size and encoding cost of delta and full
/// frames, also as permessage-deflate would send them (bench (b)). Run with
/// `swift run -c release LayercastFrameBench [FRAMES]`. Prints numbers; asserts nothing.
/// `LayercastFrameBench rebuild [SECONDS…]` times a rain's takeover rebuild instead.

// `LayercastFrameBench burst-frames [SECONDS]`: the repeated burst's frames (a burst every 3 s) for
// `bench/client.py`, one frame message a line, 60 s unless told.
if CommandLine.arguments.dropFirst().first == "burst-frames" {
    let seconds = CommandLine.arguments.dropFirst(2).first.flatMap(Double.init) ?? 60
    for frame in burstFrames(fps: 30, seconds: seconds, every: 3) { print(frame.string) }
    exit(0)
}

// `LayercastFrameBench taps none|default [TAPS]`: only the tap table's row, e.g. under callgrind.
if CommandLine.arguments.dropFirst().first == "taps" {
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    let rules = arguments.first ?? "default"
    let taps = arguments.dropFirst().first.flatMap(Int.init) ?? 3000
    guard let row = tapRules.first(where: { $0.label == rules }) else {
        print("usage: LayercastFrameBench taps none|default [TAPS]")
        exit(64)
    }
    print("rules | mean µs | claims | refused")
    print(rainTapRow(row.label, row.settings, taps: taps))
    exit(0)
}

// `LayercastFrameBench rebuild [SECONDS…]`: a rain's takeover rebuild against its age (RainRebuildBench.swift).
if CommandLine.arguments.dropFirst().first == "rebuild" {
    let ages = CommandLine.arguments.dropFirst(2).compactMap(Double.init)
    for row in rainRebuildRows(ages: ages.isEmpty ? [10, 30, 60, 90, 120, 170] : ages) { print(row) }
    exit(0)
}

let frames = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 900
let fps = 30.0
let warmUp = 10.0  // seconds of scene time first, so scenes reach their steady state

func nanoseconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start)
}

/// Layers in the model tree under `layer`, itself included.
func layerCount(_ layer: CALayer) -> Int {
    1 + (layer.sublayers ?? []).reduce(0) { $0 + layerCount($1) }
}

/// What a scene's clients do to it at media time `t` (frame `index` of the run, warm-up
/// included), so that the bench measures it moving: a 600 s rain started at once; the cubes
/// pulled past the threshold every 4 s (the loader refreshes 1–3 s, then finishes); a book
/// opened, or closed, every 3 s (a tap on the first book, then on the reading view); the prize
/// reveal replayed every 5 s (a round's ring, mask and first shimmer take 4.1 s).
func drive(_ scene: any Scene, context: SceneContext, index: Int, t: Double) {
    let every = { (seconds: Double) in index % Int(seconds * fps) == 0 }
    context.run {
        switch scene {
        case let rain as RainScene where index == 0:
            rain.startRain(id: 1, settings: RainSettings(duration: 600, pool: 0, winners: 0))
        case let cubes as CubesScene where every(4):
            cubes.drag(.began, hit: nil, at: CGPoint(x: 207, y: 300), time: t, by: "bench")
            cubes.drag(.moved, hit: nil, at: CGPoint(x: 207, y: 430), time: t, by: "bench")
            cubes.drag(.ended, hit: nil, at: CGPoint(x: 207, y: 430), time: t, by: "bench")
        case let book as BookScene where every(3):
            let point = CGPoint(x: 78.5, y: 243)  // the middle of the first book of row 0
            book.tap(book.layer.hitTest(point, at: t), at: point, time: t, by: Tapper(client: "bench"))
        case let reveal as RevealScene where every(5):
            let point = CGPoint(x: 207, y: 560)  // the replay button
            reveal.tap(reveal.layer.hitTest(point, at: t), at: point, time: t, by: Tapper(client: "bench"))
        default:
            break
        }
        _ = scene.takeEvents()
    }
}

struct SceneFigures {
    var layers = 0, items = 0, particles = 0
    var build = 0.0, diff = 0.0, encodeDelta = 0.0, encodeFull = 0.0, deflateDelta = 0.0, deflateFull = 0.0
    var deltaBytes = 0, fullBytes = 0, deflatedDeltaBytes = 0, deflatedFullBytes = 0
}

var figures: [(String, SceneFigures)] = []
for sceneType in SceneCatalog.all {
    let clock = ManualClock(now: 0)
    let context = SceneContext(clock: clock)
    // The snow room as a late joiner finds it (steady state), as before fresh rooms started at the top.
    let scene: any Scene = context.run {
        sceneType == SnowScene.self ? SnowScene(seed: 7, settings: SnowSettings(), start: .steady) : sceneType.init(seed: 7)
    }
    let builder = DisplayListBuilder()
    let encoder = FrameEncoder()
    let deltaStream = DeflateStream()  // one client's connection taking every delta
    var list = DisplayList()
    var t = 0.0, index = 0
    func step() {
        drive(scene, context: context, index: index, t: t)
        index += 1
        t += 1 / fps
        clock.now = t
        context.advance(to: t)
    }
    while t < warmUp {
        step()
        list = builder.build(scene.layer, at: t)
    }
    var f = SceneFigures()
    for n in 0..<frames {
        step()
        var next = DisplayList()
        f.build += nanoseconds { next = builder.build(scene.layer, at: t) }
        var delta: FrameDelta?
        f.diff += nanoseconds { delta = FrameDelta.from(list, to: next) }
        var text: JSONText?
        f.encodeDelta += nanoseconds { text = encoder.delta(delta!, number: n, time: t).text(headroom: 16) }
        f.deltaBytes += text!.count
        f.deflateDelta += nanoseconds { text!.withText { f.deflatedDeltaBytes += deltaStream.compressedCount($0) } }
        f.encodeFull += nanoseconds { text = encoder.full(next, number: n, time: t).text(headroom: 16) }
        f.fullBytes += text!.count
        let joinStream = DeflateStream()  // a client that just joined: its first frame, no history
        f.deflateFull += nanoseconds { text!.withText { f.deflatedFullBytes += joinStream.compressedCount($0) } }
        f.items += next.items.count
        f.particles += next.items.reduce(0) { $0 + $1.births.records.count }
        f.layers += context.run { layerCount(scene.layer) }
        list = next
    }
    figures.append((sceneType.info.id, f))
}

let count = Double(frames)
func us(_ ns: Double) -> String { String(format: "%.1f", ns / count / 1000) }
func mean(_ total: Int) -> String { String(format: "%.0f", Double(total) / count) }

print("(a) engine: presentation + display list per room per tick, \(frames) frames at \(Int(fps)) fps after \(Int(warmUp)) s warm-up")
print("")
print("| scene | layers | items | particle records | presentation + display list µs | ns per layer |")
print("|---|---:|---:|---:|---:|---:|")
for (id, f) in figures {
    print("| \(id) | \(mean(f.layers)) | \(mean(f.items)) | \(mean(f.particles)) | \(us(f.build)) | "
        + String(format: "%.0f", f.build / Double(f.layers)) + " |")
}
print("")
print("(b) encoder: per frame, mean of \(frames); deflated = permessage-deflate as libwebsockets sends it (zlib level 1, 32 KiB window; deltas on one connection with context takeover, each full frame as a new connection's first message)")
print("")
print("| scene | diff µs | delta B | encode delta µs | delta deflated B | deflate delta µs | full B | encode full µs | full deflated B | deflate full µs |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for (id, f) in figures {
    print("| \(id) | \(us(f.diff)) | \(mean(f.deltaBytes)) | \(us(f.encodeDelta)) | \(mean(f.deflatedDeltaBytes)) | \(us(f.deflateDelta)) | "
        + "\(mean(f.fullBytes)) | \(us(f.encodeFull)) | \(mean(f.deflatedFullBytes)) | \(us(f.deflateFull)) |")
}

// The snowfall at several rates (exact mode, no room cap): particles alive (rate × 120 s of life,
// warm), records held (those on screen or coming into view), the frame path's cost (it evaluates
// new births and what newly shows, protocol.md "Particles"), how many live particles one core fits
// in a 30 fps frame (33.3 ms) at that cost, and the bytes of a delta and of a full frame.
print("")
print("snowfall per room per tick, \(frames) frames: live particles that fit a 30 fps frame on one core")
print("rate /s | alive | records held | build+diff+delta µs | particles per 33.3 ms | delta bytes (mean) | full bytes (mean)")
for rate in [10.0, 25.0, 50.0, 100.0] {
    let clock = ManualClock(now: 0)
    let context = SceneContext(clock: clock)
    let scene = context.run { SnowScene(seed: 7, settings: SnowSettings(images: ["snowflake", "snowflake-star"], rate: rate), start: .steady) }
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
        sent += list.items.reduce(0) { $0 + $1.births.records.count }
    }
    let f = Double(frames)
    let evaluated = Int(rate * Double(SnowScene.warmUp))
    let perFrame = work / f / 1000
    print(String(format: "%.0f | %d | %.0f | %.0f | %.0f | %.0f | %.0f", rate, evaluated, Double(sent) / f, perFrame,
                 Double(evaluated) * (1e6 / fps) / perFrame, Double(deltaBytes) / f, Double(fullBytes) / f))
}

let burst = burstBytes(fps: fps)
print("")
print("a 400-particle burst (BurstBench.swift), all frames until the last particle died")
print("total bytes | frames sent | largest frame bytes")
print("\(burst.total) | \(burst.frames) | \(burst.largest)")

// What the rain's fairness rules cost per tap (docs/performance.md): the scene's `tap` at random
// points over a raining screen, with no rule (the seed's rain) and with the default rules and
// per-player limits, by 50 players of whom the first claims hold packets. Taps only: the frame
// path does not run these checks.
print("")
print("rain tap resolution, µs per tap (\(frames * 10) taps at random points, 20 s into a 600 s rain)")
print("rules | mean µs | claims | refused")
for row in tapRules { print(rainTapRow(row.label, row.settings, taps: frames * 10)) }

/// The two rule sets of the tap table.
var tapRules: [(label: String, settings: RainSettings)] {
    [("none", RainSettings(duration: 600, pool: 0, winners: 0, minVisible: 0)),
     ("default", RainSettings(duration: 600, pool: 0, winners: 0, maxAwardsPerPlayer: 3, maxCoinsPerPlayer: 50))]
}

/// One row of the tap table: `taps` taps resolved under `rules`.
func rainTapRow(_ label: String, _ rules: RainSettings, taps: Int) -> String {
    let clock = ManualClock(now: 0)
    let context = SceneContext(clock: clock)
    let scene = context.run { RainScene(seed: 1) }
    context.run { _ = scene.startRain(id: 1, settings: rules) }
    clock.now = 25
    context.advance(to: 25)
    var generator = SeededRandom(seed: 42)
    var work = 0.0, claims = 0, refused = 0
    for i in 0..<taps {
        let point = CGPoint(x: Double(generator.next() % 414), y: Double(generator.next() % 736))
        let tapper = Tapper(client: "bench", player: "p-\(i % 50)")
        var outcome = TapOutcome.ignored
        work += nanoseconds { outcome = context.run { scene.tap(nil, at: point, time: 24.9, by: tapper) } }
        switch outcome {
        case .claim(let claim) where claims < 100:  // the first 100 are confirmed, so players hold packets
            claims += 1
            context.run { scene.confirm(claim, total: 0, for: tapper) }
        case .claim: claims += 1
        case .refused: refused += 1
        default: break
        }
        _ = scene.takeEvents()
    }
    return "\(label) | " + String(format: "%.2f | %d | %d", work / Double(taps) / 1000, claims, refused)
}
