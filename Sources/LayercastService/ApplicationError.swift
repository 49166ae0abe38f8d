import LayercastCluster
import LayercastServer

/// Why `Application.serving` could not start, as `layercast serve` says it before exiting 2.
enum ApplicationError: Error, CustomStringConvertible {
    /// The public directory, the data directory, the ledger, the player-id key or the address.
    case server(ServerError)
    /// The cluster's Redis, its client range, or a disagreement on the key or the scenes.
    case cluster(ClusterError)

    var description: String {
        switch self {
        case .server(let error): "\(error)"
        case .cluster(let error): "--cluster: \(error.message)"
        }
    }
}
