import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI
import LayercastScenes

/// A small paying scene for the harness's own tests: a 40 × 40 coin slides along y = 200 from
/// x = 20 to x = 320 over 3 s (linear), so where it is depends on the time a tap is resolved at.
/// A tap on the coin claims 5 coins; the confirmed claim announces `won` to the tapper. A timer
/// announces `second` every second. A drag step announces its phase and the layer it hit. The
/// command `ring(after:)` (as a controller would send) announces `armed` at once and `ring` later.
final class CoinScene: Scene {
    static let info = SceneInfo(id: "coin", title: "Coin", size: CGSize(width: 400, height: 400),
                                interactions: ["tap", "drag"], assets: [])

    let layer = CALayer()
    let coin = CALayer()
    private var events: [SceneEvent] = []
    private var claims = 0
    private var seconds = 0

    init(seed: UInt64) {
        layer.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
        layer.backgroundColor = .white
        coin.name = "coin"
        coin.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        coin.position = CGPoint(x: 320, y: 200)
        coin.backgroundColor = CGColor(red: 1, green: 0.85, blue: 0, alpha: 1)
        let slide = CABasicAnimation(keyPath: "position.x")
        slide.fromValue = Double(20)
        slide.toValue = Double(320)
        slide.duration = 3
        slide.timingFunction = CAMediaTimingFunction(name: .linear)
        coin.add(slide, forKey: "slide")
        layer.addSublayer(coin)
        SceneContext.current.schedule(after: 1, repeating: 1) { [weak self] _ in
            guard let self else { return }
            seconds += 1
            events.append(SceneEvent(name: "second", data: ["n": .number(Double(seconds))]))
        }
    }

    func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by tapper: Tapper) -> TapOutcome {
        guard hit === coin else { return .ignored }
        claims += 1
        return .claim(Claim(round: 1, item: claims, coins: 5, point: point, time: time))
    }

    func confirm(_ claim: Claim, total: Int, for tapper: Tapper) {
        events.append(SceneEvent(name: "won", data: ["item": .number(Double(claim.item)), "total": .number(Double(total))],
                                 client: tapper.client, audience: .client))
    }

    func drag(_ phase: DragPhase, hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by client: String) {
        events.append(SceneEvent(name: "drag", data: ["phase": .string(phase.rawValue), "hit": hit?.name.map(JSONValue.string) ?? .null],
                                 client: client))
    }

    /// Announces `armed` now and `ring` `delay` seconds later, on the scene's own timer; returns
    /// the media time it ran at.
    func ring(after delay: CFTimeInterval) -> CFTimeInterval {
        let context = SceneContext.current
        events.append(SceneEvent(name: "armed"))
        context.schedule(after: delay) { [weak self] _ in self?.events.append(SceneEvent(name: "ring")) }
        return context.now
    }

    func takeEvents() -> [SceneEvent] {
        defer { events = [] }
        return events
    }
}
