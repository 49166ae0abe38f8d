import ArgumentParser
import Dispatch
import Foundation
import LayercastServer
import Logging

/// `layercast serve`: runs the service until SIGINT or SIGTERM (docs/protocol.md).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the browser client, the JSON API and the layercast.v1 WebSocket."
    )

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "TCP port; 0 picks a free port.")
    var port = 8080

    @Option(name: .customLong("public"), help: "Directory of the browser client, served as static files.")
    var publicDirectory = "public"

    @Option(help: "Frames per second of every room (1–120).")
    var fps = 30

    @Option(help: "Most WebSocket clients at once.")
    var maxClients = 1000

    @Option(help: "An origin that may connect and frame the pages besides the page's own and localhost (repeatable; * for any).")
    var allowOrigin: [String] = []

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    @Option(help: "Seconds an empty room lives before it is removed.")
    var roomIdle: Double = 30

    @Option(help: "Seconds a client may go without taking a frame before it is dropped.")
    var stallTimeout: Double = 10

    func validate() throws {
        guard (1...120).contains(fps) else { throw ValidationError("--fps must be between 1 and 120") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard maxClients >= 1 else { throw ValidationError("--max-clients must be at least 1") }
        guard roomIdle.isFinite, roomIdle >= 0 else { throw ValidationError("--room-idle must be a finite number ≥ 0") }
        guard stallTimeout.isFinite, stallTimeout > 0 else { throw ValidationError("--stall-timeout must be a finite number > 0") }
    }

    func run() throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.publicDirectory = publicDirectory
        configuration.fps = fps
        configuration.maxClients = maxClients
        configuration.allowedOrigins = allowOrigin
        configuration.roomIdleSeconds = roomIdle
        configuration.stallTimeoutSeconds = stallTimeout

        let server: Server
        do {
            server = try Server(configuration: configuration, logger: Logger(label: "layercast"))
        } catch {
            FileHandle.standardError.write(Data("layercast serve: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let signals = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { server.requestStop() }
            source.resume()
            return source
        }
        FileHandle.standardOutput.write(Data("layercast: serving \(server.url)\n".utf8))
        server.run()
        signals.forEach { $0.cancel() }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
