import Foundation

extension Configuration {
    /// The cluster's part of the configuration: none unless `url` is set.
    struct Cluster: Sendable {
        /// The Redis of the cluster, `redis://HOST:PORT[/DB]`; nil: this process is no cluster's node.
        var url: String?
        /// This node's id in the cluster and `/healthz`; nil: `defaultNodeID`.
        var nodeID: String?
        /// Processes serving one port together (`SO_REUSEPORT`), each a node of the cluster.
        var workers = 1

        /// This node's id: `nodeID`, or the host name and process id.
        var node: String {
            if let nodeID { return nodeID }
            let host = ProcessInfo.processInfo.hostName.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }.prefix(40)
            return "\(host.isEmpty ? "node" : String(host))-\(getpid())"
        }

        /// Whether `text` is a node id: 1…64 letters, digits, `.`, `_` or `-`.
        static func isNodeID(_ text: String) -> Bool {
            (1...64).contains(text.utf8.count) && text.utf8.allSatisfy { c in
                (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 46 || c == 95 || c == 45
            }
        }
    }
}
