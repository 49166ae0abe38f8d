import LayercastJSON
import LayercastSceneAPI

/// What turns one display list into the next (protocol.md, "frame"): drop the particle records
/// dead at `time`, delete `remove`, replace the fields in `set`, append `add`, then reorder to
/// `order` when it is given; the path table loses `dropPaths` and gains `paths`.
public struct FrameDelta: Hashable, Sendable {
    /// The frame's `t`.
    public var time: Double
    public var remove: [Int]
    public var set: [ItemChange]
    public var add: [DrawItem]
    /// Every id of the new list back to front; nil when the steps above already give that order.
    public var order: [Int]?
    /// Paths new in the table (`paths`), and ids no longer in it (`unpaths`).
    public var paths: [Int: DrawPath]
    public var dropPaths: [Int]

    public init(time: Double = 0, remove: [Int] = [], set: [ItemChange] = [], add: [DrawItem] = [], order: [Int]? = nil,
                paths: [Int: DrawPath] = [:], dropPaths: [Int] = []) {
        self.time = time
        self.remove = remove
        self.set = set
        self.add = add
        self.order = order
        self.paths = paths
        self.dropPaths = dropPaths
    }

    /// Whether it carries no change (particle records may still die at `time`).
    public var isEmpty: Bool { remove.isEmpty && set.isEmpty && add.isEmpty && order == nil && paths.isEmpty && dropPaths.isEmpty }

    /// The delta from `old` to `new`, lists with unique ids: `from(old, to: new).applied(to: old) == new`.
    /// `remove` keeps `old`'s order, `set` and `add` follow `new`'s.
    public static func from(_ old: DisplayList, to new: DisplayList) -> FrameDelta {
        var oldIndex: [Int: Int] = Dictionary(minimumCapacity: old.items.count)
        for (position, item) in old.items.enumerated() { oldIndex[item.id] = position }
        var newIDs: Set<Int> = Set(minimumCapacity: new.items.count)
        for item in new.items { newIDs.insert(item.id) }

        var delta = FrameDelta(time: new.time)
        for item in old.items where !newIDs.contains(item.id) { delta.remove.append(item.id) }
        for item in new.items {
            guard let position = oldIndex[item.id] else {
                delta.add.append(item)
                continue
            }
            let fields = item.changes(from: old.items[position])
            let births = BirthDelta.from(old.items[position].births, to: item.births, at: new.time)
            if !fields.isEmpty || !births.isEmpty {
                delta.set.append(ItemChange(id: item.id, fields: fields, births: births.isEmpty ? nil : births))
            }
        }
        for (id, path) in new.paths where old.paths[id] != path { delta.paths[id] = path }
        delta.dropPaths = old.paths.keys.filter { new.paths[$0] == nil }.sorted()
        delta.order = IDListDelta.order(old: old.items.lazy.map(\.id), new: new.items.lazy.map(\.id),
                                        newIDs: newIDs, added: delta.add.map(\.id))
        return delta
    }

    /// The list after this delta at its `time`, by protocol.md's algorithm; entries naming ids that are not in
    /// the list are skipped.
    public func applied(to old: DisplayList) -> DisplayList {
        var items = old.items
        // Natural deaths at `time`; an item whose particles change prunes under its new clock instead.
        let changing = Set(set.lazy.filter { $0.births != nil }.map(\.id))
        for i in items.indices where !items[i].births.records.isEmpty && !changing.contains(items[i].id) {
            items[i].births.prune(at: time)
        }
        if !remove.isEmpty {
            let removed = Set(remove)
            items.removeAll { removed.contains($0.id) }
        }
        if !set.isEmpty {
            var index: [Int: Int] = Dictionary(minimumCapacity: items.count)
            for (position, item) in items.enumerated() where index[item.id] == nil { index[item.id] = position }
            for change in set {
                guard let position = index[change.id] else { continue }
                for field in change.fields { items[position].apply(field) }
                if let births = change.births { items[position].births = births.applied(to: items[position].births, at: time) }
            }
        }
        items += add
        if let order { items = IDListDelta.reordered(items, by: order, id: \.id) }
        var paths = old.paths
        for id in dropPaths { paths[id] = nil }
        paths.merge(self.paths) { $1 }
        return DisplayList(items: items, paths: paths, time: time)
    }

    /// Parses the changes of a delta `frame` message (`FrameMessage.delta`); absent keys are empty.
    public init(deltaFrame message: JSONValue) throws(ProtocolError) {
        let frame = try FrameMessage.frameReader(message, full: false)
        self.init(time: try frame.member("t").number())
        for entry in try Self.elements(frame.member("set")) { set.append(try ItemChange(entry)) }
        for item in try Self.elements(frame.member("add")) { add.append(try DrawItem(item)) }
        for id in try Self.elements(frame.member("remove")) { remove.append(try id.integer()) }
        paths = try DisplayList.paths(frame.member("paths"))
        for id in try Self.elements(frame.member("unpaths")) { dropPaths.append(try id.integer()) }
        let order = frame.member("order")
        if !order.isAbsent {
            var ids: [Int] = []
            for id in try order.array() { ids.append(try id.integer()) }
            self.order = ids
        }
    }

    private static func elements(_ field: FieldReader) throws(ProtocolError) -> [FieldReader] {
        field.isAbsent ? [] : try field.array()
    }
}
