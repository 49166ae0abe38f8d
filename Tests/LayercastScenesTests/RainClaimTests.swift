import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI
import LayercastSceneTesting
import Testing
@testable import LayercastScenes

// Taps on packets: claims, answers and the labels floated for them (RainTestSupport.swift: the harness).
@Suite("Rain: claims")
struct RainClaimTests {
    @Test func aTapOnAPacketClaimsItAndOneBesideItMisses() throws {
        let h = RainHarness()
        h.start(at: 0)
        var found: (packet: Int, point: CGPoint, outside: CGPoint, time: CFTimeInterval)?
        var t = 9.0
        search: while t < 24 {
            h.run(to: t)
            for layer in h.livePackets {
                let centre = scenePoint(layer, CGPoint(x: 22, y: 31), at: t)
                let outside = scenePoint(layer, CGPoint(x: -5, y: 31), at: t)
                guard onScreen(centre), onScreen(outside) else { continue }
                let alone = h.livePackets.allSatisfy { $0 === layer || depth(of: centre, in: $0, at: t) < -2 }
                let clear = h.livePackets.allSatisfy { depth(of: outside, in: $0, at: t) < -2 }
                if alone && clear {
                    found = (h.index(of: layer), centre, outside, t)
                    break search
                }
            }
            t += 0.5
        }
        let target = try #require(found)
        let plan = try #require(h.scene.rain?.plan)
        let claim = Claim(round: rainID, item: target.packet, coins: plan.prizes[target.packet] ?? 0,
                          point: target.point, time: target.time)
        #expect(h.decide(target.point, at: target.time) == .claim(claim))
        // 5 pt left of its rotated rect: nothing there.
        #expect(h.decide(target.outside, at: target.time) == .miss)
        // A claim not committed changes nothing.
        #expect(h.scene.rain?.claimed.isEmpty == true && h.scene.takeEvents().isEmpty)
        // Outside the scene rect is a miss whatever waits above the screen.
        #expect(h.decide(CGPoint(x: 10, y: -10), at: target.time) == .miss)

        // Committed and confirmed, the same point is taken by that player.
        #expect(h.tap(target.point, at: target.time, by: "p7") == .claim(claim))
        #expect(h.decide(target.point, at: target.time) == .taken(packet: target.packet))
        #expect(h.scene.rain?.claimed == [target.packet: "p7"])
    }

    @Test func theTopmostOfOverlappingPacketsWins() throws {
        let h = RainHarness()
        h.start(at: 0)
        var checked = 0
        var t = 8.0
        while t < 24, checked < 5 {
            h.run(to: t)
            let live = h.livePackets
            pairs: for (a, lower) in live.enumerated() {
                for upper in live[(a + 1)...] {
                    for qx in stride(from: 4.0, through: 40, by: 6) {
                        for qy in stride(from: 4.0, through: 58, by: 6) {
                            let p = scenePoint(upper, CGPoint(x: qx, y: qy), at: t)
                            guard onScreen(p), depth(of: p, in: lower, at: t) > 1 else { continue }
                            let depths = live.map { depth(of: p, in: $0, at: t) }
                            guard depths.allSatisfy({ abs($0) > 1 }) else { continue }
                            let top = try #require(live.indices.last { depths[$0] > 0 })
                            #expect(top >= live.firstIndex { $0 === upper }!)
                            guard case .claim(let claim) = h.decide(p, at: t) else {
                                Issue.record("no claim at \(p), \(t)")
                                return
                            }
                            #expect(claim.item == h.index(of: live[top]))
                            #expect(claim.item > h.index(of: lower), "the later packet is on top")
                            checked += 1
                            break pairs
                        }
                    }
                }
            }
            t += 1.5
        }
        #expect(checked >= 3)
    }

    @Test func confirmOpensThePacketAndFloatsTheLabel() throws {
        let h = RainHarness()
        h.start(at: 0)
        let plan = try #require(h.scene.rain?.plan)
        // One winning and one empty packet, each tapped at its clear centre.
        for wins in [true, false] {
            var target: (packet: Int, point: CGPoint)?
            var t = h.stage.now + 1
            while target == nil, t < 22 {
                h.run(to: t)
                target = clearPacket(h, at: t) { (plan.prizes[$0] != nil) == wins && h.scene.rain?.claimed[$0] == nil }
                if target == nil { t += 0.5 }
            }
            let (index, point) = try #require(target)
            let packet = try #require(h.scene.packetLayers[index])
            let position = packet.presentation(at: t)!.position
            let coins = plan.prizes[index] ?? 0
            #expect((coins > 0) == wins)
            _ = h.takeEvents()
            h.ledger.totals["p1"] = 120 - coins   // Ann's balance before the award
            #expect(h.tap(point, at: t, by: "p1", name: "Ann", client: "c1", id: 7)
                    == .claim(Claim(round: rainID, item: index, coins: coins, point: point, time: t)))

            // The image and size change at once (actions disabled), the top-left stays, and the
            // packet keeps falling and spinning.
            let size = wins ? CGSize(width: 63.5, height: 74) : CGSize(width: 45.5, height: 76.5)
            #expect(packet.contents == CGImage(named: wins ? "rp_yes" : "rp_no", width: size.width, height: size.height))
            #expect(packet.bounds == CGRect(origin: .zero, size: size))
            #expect(packet.anchorPoint == .zero && packet.animationKeys() == ["fall", "spin"])
            #expect(packet.presentation(at: t)!.position == position)
            #expect(packet.presentation(at: t + 0.1)!.position.y > position.y)

            // Events: the award to the room, then the result to the tapper alone.
            #expect(h.takeEvents() == [
                SceneEvent(name: "award", data: [
                    "rain": 9, "packet": .number(Double(index)), "player": "p1", "name": "Ann",
                    "coins": .number(Double(coins)), "total": 120, "x": .number(point.x), "y": .number(point.y),
                ], client: "c1"),
                SceneEvent(name: "tap", data: ["result": "award", "packet": .number(Double(index)),
                                               "coins": .number(Double(coins)), "id": 7],
                           client: "c1", audience: .client),
            ])

            // The label: a 100 × 30 box at (x − 50, y), corner radius 5, centred text.
            let box = try #require(h.scene.labels.sublayers?.last)
            #expect(box.name == "label-\(index)")
            #expect(box.cornerRadius == 5 && box.bounds.size == CGSize(width: 100, height: 30))
            let text = try #require(box.sublayers?.first as? CATextLayer)
            #expect(text.alignmentMode == .center)
            let gold = CGColor(red: 1, green: 223 / 255, blue: 14 / 255, alpha: 1)
            if wins {
                #expect(text.runs == [CATextRun("+", fontSize: 27, color: gold),
                                      CATextRun("\(coins)", fontSize: 32, fontWeight: 0.3, color: gold),
                                      CATextRun("金币", fontSize: 17, color: gold)])
            } else {
                #expect(text.runs == nil && text.string == "旺旺年!人旺旺")
                #expect(text.textRuns == [CATextRun("旺旺年!人旺旺", fontSize: 17, color: .white)])
            }
            // Centred: the text layer's centre is the box's.
            #expect(abs(text.frame.midX - 50) < 1e-9 && abs(text.frame.midY - 15) < 1e-9)

            // Over 1 s with easeInEaseOut: opacity 1 → 0 and y → y − 100 (centre y + 15 → y − 85).
            #expect(box.opacity == 0)
            #expect(box.frame == CGRect(x: point.x - 50, y: point.y - 100, width: 100, height: 30))
            let start = try #require(box.presentation(at: t))
            #expect(start.opacity == 1 && start.position == CGPoint(x: point.x, y: point.y + 15))
            let half = try #require(box.presentation(at: t + 0.5))
            #expect(abs(Double(half.opacity) - 0.5) < 1e-5)
            #expect(abs(half.position.y - (point.y - 35)) < 1e-4 && half.position.x == point.x)
            let quarter = try #require(box.presentation(at: t + 0.25))
            #expect(abs(Double(quarter.opacity) - (1 - easeInEaseOut(0.25))) < 1e-5)
            #expect(abs(Double(quarter.position.y) - (point.y + 15 - 100 * easeInEaseOut(0.25))) < 1e-3)
            h.run(to: t + 0.999)
            #expect(box.superlayer === h.scene.labels)
            h.run(to: t + 1)
            #expect(box.superlayer == nil)
            #expect(h.takeEvents().isEmpty)
        }
        // The results count both claims and the coins paid.
        h.run(to: 25)
        let results = try #require(h.takeEvents().last)
        let paid = h.scene.rain!.claimed.keys.reduce(0) { $0 + (plan.prizes[$1] ?? 0) }
        #expect(results == rainEvent("results", s: 0, extra: [("claimed", 2), ("awarded", .number(Double(paid)))]))
        #expect(paid > 0)
    }

    @Test func answersAreForTheTapperOnly() throws {
        let h = RainHarness()
        let s = 0.0
        h.start(at: s)
        _ = h.takeEvents()
        #expect(h.tap(CGPoint(x: 100, y: 100), at: s, client: "c1", id: "a") == .answered)
        #expect(h.takeEvents() == [SceneEvent(name: "tap", data: ["result": "closed", "id": "a"], client: "c1", audience: .client)])

        // The room's path decides before it commits: a tap on a free packet is a claim that, not
        // committed, announces nothing and claims nothing.
        h.run(to: 12)
        _ = h.takeEvents()
        let target = try #require(clearPacket(h, at: 12))
        let coins = h.scene.rain?.plan.prizes[target.packet] ?? 0
        let claim = Claim(round: rainID, item: target.packet, coins: coins, point: target.point, time: 12)
        #expect(h.decide(target.point, at: 12) == .claim(claim))
        #expect(h.takeEvents().isEmpty && h.scene.rain?.claimed.isEmpty == true)
        #expect(h.tap(CGPoint(x: 10, y: -5), at: 12, client: "c2") == .answered)
        #expect(h.takeEvents() == [SceneEvent(name: "tap", data: ["result": "miss"], client: "c2", audience: .client)])

        // Committed, it is confirmed; a tap on it after that is taken.
        #expect(h.tap(target.point, at: 12, by: "p1", client: "c1") == .claim(claim))
        #expect(h.takeEvents().map(\.name) == ["award", "tap"])
        #expect(h.tap(target.point, at: 12, by: "p9", client: "c3", id: 12) == .answered)
        #expect(h.takeEvents() == [SceneEvent(name: "tap", data: ["result": "taken", "packet": .number(Double(claim.item)), "id": 12],
                                              client: "c3", audience: .client)])

        // A second confirm of the same packet answers taken; a claim for another rain, closed.
        h.confirm(claim, player: "p2", client: "c2", id: 3)
        #expect(h.takeEvents() == [SceneEvent(name: "tap", data: ["result": "taken", "packet": .number(Double(claim.item)), "id": 3],
                                              client: "c2", audience: .client)])
        var stale = claim
        stale.round = 8
        h.confirm(stale, player: "p3", client: "c3")
        #expect(h.takeEvents() == [SceneEvent(name: "tap", data: ["result": "closed"], client: "c3", audience: .client)])
        #expect(h.scene.rain?.claimed == [claim.item: "p1"])
        #expect(h.scene.labels.sublayers?.count == 1)
    }

    @Test func labelsAreGoneWhenTheSceneIsIdle() throws {
        // Results of 0.5 s: a label floated at the very end is removed with the rain.
        let h = RainHarness(configuration: .init(resultsDuration: 0.5))
        h.start(at: 0)
        h.run(to: 24.8)
        let target = try #require(clearPacket(h, at: 24.8))
        guard case .claim = h.tap(target.point, at: 24.8) else { Issue.record("no claim"); return }
        #expect(h.scene.labels.sublayers?.count == 1)
        h.run(to: 25.3)
        #expect(h.scene.phase == .results && h.scene.labels.sublayers?.count == 1)
        h.run(to: 25.5)
        #expect(h.scene.phase == .idle && h.scene.labels.sublayers == nil)
        h.run(to: 26)
        #expect(h.scene.labels.sublayers == nil)
    }
}
