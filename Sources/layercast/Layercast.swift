import ArgumentParser

/// The `layercast` command: the service and its tools.
@main
struct Layercast: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layercast",
        abstract: "Core-Animation-style scenes run on the server and streamed to browsers.",
        subcommands: [ServeCommand.self, ReplayCommand.self, LedgerCommand.self, SampleCommand.self, LoadtestCommand.self]
    )
}
