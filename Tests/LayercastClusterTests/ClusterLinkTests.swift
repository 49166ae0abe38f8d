import Foundation
import LayercastEngine
import Logging
import Synchronization
import Testing
@testable import LayercastCluster

/// The link's thread against a real redis-server: replies in order, published messages to
/// subscribers, and a Redis that goes away and comes back.
@Suite(.serialized) struct ClusterLinkTests {
    /// Collects a link's events until `predicate` holds (at most `limit` seconds).
    private static func events(of link: ClusterLink, until predicate: ([ClusterLink.Event]) -> Bool, limit: Double = 5) -> [ClusterLink.Event] {
        var events: [ClusterLink.Event] = []
        let deadline = Date().addingTimeInterval(limit)
        while !predicate(events), Date() < deadline {
            events += link.takeEvents()
            Thread.sleep(forTimeInterval: 0.01)
        }
        return events
    }

    private static var logger: Logger {
        var logger = Logger(label: "cluster-tests")
        logger.logLevel = .critical
        return logger
    }

    @Test func repliesComeBackTaggedAndMessagesReachSubscribers() throws {
        let redis = try RedisTestServer()
        let notified = Atomic<Int>(0)
        let link = ClusterLink(address: redis.address, logger: Self.logger) { notified.add(1, ordering: .relaxed) }
        link.send([.subscribe("layercast:test")])
        link.start()
        defer { link.stop() }
        var events = Self.events(of: link) { $0.contains { if case .connected = $0 { true } else { false } } }
        link.send([
            .command([Array("SET".utf8), Array("k".utf8), [0, 255, 10]], tag: 1),
            .command([Array("GET".utf8), Array("k".utf8)], tag: 2),
            .publish(channel: "layercast:test", payload: Array("F{\"n\":1}".utf8)),
            .command([Array("INCR".utf8), Array("k".utf8)], tag: 3),
        ])
        events = Self.events(of: link) { events in
            events.contains { if case .message = $0 { true } else { false } } && events.filter { if case .reply = $0 { true } else { false } }.count == 3
        }
        let replies = events.compactMap { if case .reply(let tag, let reply) = $0 { (tag, reply) } else { nil } }
        #expect(replies.map(\.0) == [1, 2, 3])
        #expect(replies.map(\.1)[0] == .status("OK"))
        #expect(replies.map(\.1)[1] == .string([0, 255, 10]))  // binary-safe
        #expect(replies.map(\.1)[2].isError)
        let messages = events.compactMap { if case .message(let channel, let payload) = $0 { (channel, payload) } else { nil } }
        #expect(messages.map(\.0) == ["layercast:test"])
        #expect(messages.map(\.1) == [Array("F{\"n\":1}".utf8)])
        #expect(notified.load(ordering: .relaxed) > 0)
    }

    /// The link beats by itself, on its own thread, while nobody takes its events (a busy hub):
    /// its heartbeat key, set for 1 s, is still there after 3 s, and its reply is nobody's event.
    @Test func theLinkBeatsByItselfAtEveryTick() throws {
        let redis = try RedisTestServer()
        let link = ClusterLink(address: redis.address, heartbeat: [["SET", "layercast:alive:n1", "n1", "PX", "1000"]], logger: Self.logger) {}
        link.start()
        defer { link.stop() }
        let events = Self.events(of: link) { $0.contains { if case .connected = $0 { true } else { false } } }
        #expect(!events.contains { if case .reply = $0 { true } else { false } })
        Thread.sleep(forTimeInterval: 3)
        let reader = try RedisConnection(host: "127.0.0.1", port: redis.port, database: 0, timeout: 1)
        #expect(try reader.command(["GET", "layercast:alive:n1"]).text == "n1")
        guard case .integer(let ttl) = try reader.command(["PTTL", "layercast:alive:n1"]) else { Issue.record("no PTTL"); return }
        #expect(ttl > 0 && ttl <= 1000)
        #expect(!link.takeEvents().contains { if case .reply = $0 { true } else { false } })
    }

    /// The link notes when it sent the newest heartbeat Redis answered: it keeps up while Redis
    /// answers, stands still while Redis answers nothing (paused), and moves on once it answers again.
    @Test func theNewestConfirmedBeatStandsStillWhileRedisAnswersNothing() throws {
        let redis = try RedisTestServer()
        let link = ClusterLink(address: redis.address, heartbeat: [["SET", "layercast:alive:n1", "n1", "PX", "500"]], logger: Self.logger) {}
        link.start()
        defer { link.stop() }
        _ = Self.events(of: link) { $0.contains { if case .connected = $0 { true } else { false } } }
        Thread.sleep(forTimeInterval: 0.5)
        #expect(MonotonicClock().now - link.beatConfirmedAt < 0.35)  // a beat every 0.1 s, on a loaded machine

        redis.pause()
        let paused = MonotonicClock().now
        Thread.sleep(forTimeInterval: 1.0)
        #expect(link.beatConfirmedAt < paused)
        redis.resume()
        let resumed = MonotonicClock().now
        for _ in 0..<100 where link.beatConfirmedAt < resumed { Thread.sleep(forTimeInterval: 0.05) }
        #expect(link.beatConfirmedAt >= resumed)
    }

    @Test func aLostRedisIsReportedAndTheSubscriptionComesBackWithIt() throws {
        var redis: RedisTestServer? = try RedisTestServer()
        let port = redis!.port
        let link = ClusterLink(address: redis!.address, logger: Self.logger) {}
        link.send([.subscribe("layercast:again")])
        link.start()
        defer { link.stop() }
        _ = Self.events(of: link) { $0.contains { if case .connected = $0 { true } else { false } } }
        redis = nil  // stopped
        let down = Self.events(of: link) { $0.contains { if case .disconnected = $0 { true } else { false } } }
        #expect(down.contains { if case .disconnected = $0 { true } else { false } })
        link.send([.command([Array("PING".utf8)], tag: 9)])
        let refused = Self.events(of: link) { $0.contains { if case .reply = $0 { true } else { false } } }
        #expect(refused.contains { if case .reply(9, let reply) = $0 { reply.isError } else { false } })

        redis = try RedisTestServer(port: port)
        _ = Self.events(of: link) { $0.contains { if case .connected = $0 { true } else { false } } }
        let publisher = try RedisConnection(host: "127.0.0.1", port: port, database: 0, timeout: 1)
        var received: [ClusterLink.Event] = []
        for _ in 0..<50 where !received.contains(where: { if case .message = $0 { true } else { false } }) {
            _ = try publisher.command(["PUBLISH", "layercast:again", "E{}"])
            received += Self.events(of: link, until: { $0.contains { if case .message = $0 { true } else { false } } }, limit: 0.1)
        }
        #expect(received.contains { if case .message("layercast:again", let payload) = $0 { payload == Array("E{}".utf8) } else { false } })
    }
}
