import Foundation
import LayercastEngine
import LayercastSceneAPI
import LayercastScenes

/// `LayercastFrameBench rebuild [SECONDS…]`: what a node taking a rain over spends in
/// `RainReplay.rebuild` against the rain's age (bench (g)'s `rebuild_ms`, without the ledger
/// read). A 170 s rain (bench (g)'s: 680 packets, 340 paying; as long as the oldest age asked for,
/// up to 600 s, when that is older) is played live on a stage ticking at
/// 30 fps, a tap every 2/15 s aimed at the oldest free packet on screen, seen 0.1 s
/// before it arrives; then, for each age, the awards made by then are rebuilt (best of three,
/// and checked to give the live outcomes). Prints Markdown; asserts nothing.
func rainRebuildRows(ages: [Double]) -> [String] {
    let duration = min(600, max(170, (ages.max() ?? 0).rounded(.up)))
    let winners = Int(duration * RainSettings.packetsPerSecond) / 2
    let settings = RainSettings(duration: duration, pool: winners * 50, winners: winners, minCoins: 1, maxCoins: 100, seed: 2026)
    let configuration = RainScene.Configuration()
    let start = 1.0, fps = 30.0
    let (stage, scene) = SceneStage.make { RainScene(seed: 0, configuration: configuration) }
    stage.advance(to: start)
    stage.run { _ = scene.startRain(id: 1, settings: settings) }
    let recorder = RebuildBenchAwarding()
    var taps: [RainReplay.Tap] = []
    var outcomes: [RainReplay.Outcome?] = []
    let end = start + 5 + settings.duration
    var tick = 0
    while stage.now < end {
        tick += 1
        stage.advance(to: start + Double(tick) / fps)
        _ = stage.takeEvents()
        guard tick % 4 == 0 else { continue }   // 30 fps, a tap every 4 ticks: 7.5 per second
        let serverTime = stage.now + 0.01, viewTime = serverTime - 0.1
        stage.advance(to: serverTime)
        guard let point = stage.run({ freePacketPoint(in: scene, at: viewTime) }) else { continue }
        let player = "p\(taps.count % 15)"
        let tapper = Tapper(client: player, player: player, name: player)
        let result = stage.tap(at: point, viewTime: viewTime, now: serverTime, by: tapper, awarding: recorder)
        guard result.awarded, let award = recorder.last else { continue }
        taps.append(RainReplay.Tap(player: player, name: player, point: point, viewTime: viewTime, serverTime: serverTime))
        outcomes.append(RainReplay.Outcome(packet: award.claim.item, coins: award.claim.coins, player: player))
    }
    var rows = ["| rain age (s) | awards replayed | rebuild ms (best of 3) | CPU ms (best of 3) | outcomes as live |",
                "|---:|---:|---:|---:|---|"]
    for age in ages {
        let count = taps.prefix { $0.serverTime <= start + age }.count
        var best = Double.infinity, bestCPU = Double.infinity, same = true
        for _ in 0..<3 {
            let began = DispatchTime.now().uptimeNanoseconds, beganCPU = threadCPUMilliseconds()
            let rebuilt = RainReplay.rebuild(id: 1, settings: settings, configuration: configuration, mediaStart: start,
                                             taps: Array(taps.prefix(count)))
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6)
            bestCPU = min(bestCPU, threadCPUMilliseconds() - beganCPU)
            same = same && rebuilt.outcomes == Array(outcomes.prefix(count))
        }
        rows.append(String(format: "| %.0f | %d | %.1f | %.1f | %@ |", age, count, best, bestCPU, same ? "yes" : "NO"))
    }
    return rows
}

/// This thread's CPU time, in milliseconds: what a rebuild costs whatever else the machine runs.
private func threadCPUMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
}

/// A point on the oldest free packet on screen at `time` (the middle of its image, turned with
/// it), or nil.
private func freePacketPoint(in scene: RainScene, at time: CFTimeInterval) -> CGPoint? {
    let screen = CGRect(origin: .zero, size: scene.configuration.size)
    guard let presented = scene.layer.presentation(at: time)?.sublayers?.first(where: { $0.name == "packets" }) else { return nil }
    for packet in presented.sublayers ?? [] {
        guard let name = packet.name, let index = Int(name.dropFirst("packet-".count)),
              scene.rain?.claimed[index] == nil else { continue }
        let p = packet.properties
        let middle = CGPoint(x: p.bounds.width / 2, y: p.bounds.height / 2)
        let m = p.transform
        let point = CGPoint(x: p.position.x + m.m11 * middle.x + m.m21 * middle.y,
                            y: p.position.y + m.m12 * middle.x + m.m22 * middle.y)
        if screen.contains(point) { return point }
    }
    return nil
}

/// The bench's ledger: takes every claim and remembers the last.
private final class RebuildBenchAwarding: ImmediateAwarding {
    var last: Award?

    func commit(_ award: Award) throws -> Int {
        last = award
        return 0
    }
}
