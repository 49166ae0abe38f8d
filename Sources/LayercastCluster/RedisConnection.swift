import CHiredis
import Foundation

/// One connection to Redis over hiredis: the project's one place that calls it. Used from one
/// thread (the cluster link's). Commands are pipelined: `append` any number, `flush`, then
/// `reply()` once for each, in order. A subscriber connection reads pushed messages with
/// `readAvailable()` when its socket is readable.
final class RedisConnection {
    private let context: UnsafeMutablePointer<redisContext>

    /// Connects to `host:port` (selecting `database` when not 0), waiting at most `timeout`
    /// seconds for the connection and, afterwards, for any one read or write.
    init(host: String, port: Int, database: Int, timeout: Double) throws(ClusterError) {
        let seconds = Int(timeout)
        let time = timeval(tv_sec: seconds, tv_usec: Int(((timeout - Double(seconds)) * 1e6).rounded()))
        guard let context = redisConnectWithTimeout(host, Int32(port), time) else {
            throw ClusterError("cannot allocate a Redis connection")
        }
        guard context.pointee.err == 0 else {
            let message = Self.errorText(context)
            redisFree(context)
            throw ClusterError("cannot connect to Redis at \(host):\(port): \(message)")
        }
        self.context = context
        _ = redisSetTimeout(context, time)
        _ = redisEnableKeepAlive(context)
        if database != 0 {
            let answer = try command(["SELECT", String(database)])
            if case .error(let message) = answer { throw ClusterError("SELECT \(database): \(message)") }
        }
    }

    deinit { redisFree(context) }

    /// The socket, for `poll`.
    var descriptor: Int32 { context.pointee.fd }

    /// Queues one command (its arguments binary-safe) without sending it.
    func append(_ arguments: [[UInt8]]) throws(ClusterError) {
        var pointers: [UnsafePointer<CChar>?] = []
        var lengths: [Int] = []
        pointers.reserveCapacity(arguments.count)
        let copies = arguments.map { argument -> UnsafeMutablePointer<CChar> in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(argument.count, 1))
            argument.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress { copy.withMemoryRebound(to: UInt8.self, capacity: argument.count) { $0.update(from: base.assumingMemoryBound(to: UInt8.self), count: argument.count) } }
            }
            return copy
        }
        defer { copies.forEach { $0.deallocate() } }
        for (copy, argument) in zip(copies, arguments) {
            pointers.append(UnsafePointer(copy))
            lengths.append(argument.count)
        }
        guard redisAppendCommandArgv(context, Int32(arguments.count), &pointers, lengths) == REDIS_OK else { throw failure("append") }
    }

    /// Queues a command of text arguments.
    func append(_ arguments: [String]) throws(ClusterError) { try append(arguments.map { Array($0.utf8) }) }

    /// Sends everything queued (blocking until written or timed out).
    func flush() throws(ClusterError) {
        var done: Int32 = 0
        while done == 0 {
            guard redisBufferWrite(context, &done) == REDIS_OK else { throw failure("write") }
        }
    }

    /// The next reply, waiting for it (at most the timeout).
    func reply() throws(ClusterError) -> RedisReply {
        var raw: UnsafeMutableRawPointer?
        guard redisGetReply(context, &raw) == REDIS_OK, let raw else { throw failure("read") }
        defer { freeReplyObject(raw) }
        return Self.copy(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// Sends one command and waits for its reply.
    func command(_ arguments: [String]) throws(ClusterError) -> RedisReply {
        try append(arguments)
        try flush()
        return try reply()
    }

    /// Reads what the socket holds (call when `poll` says it is readable) and returns every
    /// complete reply; throws when the connection is closed or broken.
    func readAvailable() throws(ClusterError) -> [RedisReply] {
        guard redisBufferRead(context) == REDIS_OK else { throw failure("read") }
        var replies: [RedisReply] = []
        while true {
            var raw: UnsafeMutableRawPointer?
            guard redisGetReplyFromReader(context, &raw) == REDIS_OK else { throw failure("parse") }
            guard let raw else { return replies }
            replies.append(Self.copy(raw.assumingMemoryBound(to: redisReply.self)))
            freeReplyObject(raw)
        }
    }

    private func failure(_ step: String) -> ClusterError {
        ClusterError("Redis \(step) failed: \(Self.errorText(context))")
    }

    private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    private static func copy(_ reply: UnsafeMutablePointer<redisReply>) -> RedisReply {
        let r = reply.pointee
        switch r.type {
        case REDIS_REPLY_STRING:
            return .string(r.str.map { Array(UnsafeRawBufferPointer(start: $0, count: r.len)) } ?? [])
        case REDIS_REPLY_STATUS:
            return .status(r.str.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: r.len), as: UTF8.self) } ?? "")
        case REDIS_REPLY_ERROR:
            return .error(r.str.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: r.len), as: UTF8.self) } ?? "")
        case REDIS_REPLY_INTEGER:
            return .integer(Int(r.integer))
        case REDIS_REPLY_ARRAY:
            return .array((0..<r.elements).map { copy(r.element[$0]!) })
        default:
            return .null
        }
    }
}
