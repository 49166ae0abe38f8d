import ArgumentParser

/// The `layercast` command tree: the service and its tools. `LayercastCommand.main(scenes:)`
/// parses it and runs the chosen command; `serve` runs with the scenes given there.
struct RootCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layercast",
        abstract: "Core-Animation-style scenes run on the server and streamed to browsers.",
        subcommands: [ServeCommand.self, ReplayCommand.self, LedgerCommand.self, SampleCommand.self, LoadtestCommand.self]
    )
}
