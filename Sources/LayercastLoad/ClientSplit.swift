/// How `clients` simulated clients (indices 0…clients−1) are dealt to `parts` workers or threads:
/// part *p* takes every `parts`-th index from *p*, so each part ramps evenly over the whole run
/// and every index is in exactly one part.
public struct ClientSplit: Sendable, Equatable {
    public let clients: Int
    public let parts: Int

    /// `parts` is at least 1; parts beyond `clients` are empty.
    public init(clients: Int, parts: Int) {
        self.clients = max(0, clients)
        self.parts = max(1, parts)
    }

    /// The client indices of part `part` (0…parts−1), ascending.
    public func indices(of part: Int) -> [Int] {
        guard (0..<parts).contains(part) else { return [] }
        return Array(stride(from: part, to: clients, by: parts))
    }
}
