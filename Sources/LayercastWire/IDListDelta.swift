/// The id bookkeeping that item and particle deltas share (protocol.md, "frame"): delete, update,
/// append, and carry `order` only when that does not already give the new order.
enum IDListDelta {
    /// The `order` a delta must carry: nil when the ids of `old` that are in `newIDs`, followed by
    /// `added`, already read as `new`.
    static func order<Old: Sequence<Int>, New: Sequence<Int>>(old: Old, new: New, newIDs: Set<Int>, added: [Int]) -> [Int]? {
        var kept = old.filter { newIDs.contains($0) }
        kept += added
        return kept.elementsEqual(new) ? nil : Array(new)
    }

    /// `elements` rearranged into `order`: ids not among them are skipped, and of repeated ids the
    /// first element wins.
    static func reordered<Element>(_ elements: [Element], by order: [Int], id: (Element) -> Int) -> [Element] {
        var byID: [Int: Element] = Dictionary(minimumCapacity: elements.count)
        for element in elements where byID[id(element)] == nil { byID[id(element)] = element }
        return order.compactMap { byID[$0] }
    }
}
