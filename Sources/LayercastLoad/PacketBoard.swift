import LayercastJSON

/// Where the rain's unclaimed packets are in the newest frame a client got: just enough of
/// protocol.md's full/delta application (ids, names, matrices, sizes, images) to aim a tap.
///
/// A packet is an item named `packet-N`; it is unclaimed while its image is `rp_normal`
/// (claimed ones show `rp_yes` or `rp_no`). Its centre is the image under `m` of the centre of
/// its rect `(0,0)–(s[0],s[1])`. Draw order is not kept: aiming needs positions only.
public struct PacketBoard: Sendable {
    /// The image of a packet nobody has claimed yet (RainScene).
    public static let unclaimedImage = "rp_normal"

    struct Item: Sendable, Equatable {
        var name: String?
        var matrix: [Double] = [1, 0, 0, 1, 0, 0]
        var width = 0.0
        var height = 0.0
        var image: String?
    }

    private(set) var items: [Int: Item] = [:]
    /// Packet number → `t` of the first frame that showed it.
    private var firstSeen: [Int: Double] = [:]

    public init() {}

    /// Applies a `frame` message: a full frame replaces the list, a delta removes, sets and adds.
    public mutating func apply(frame: JSONValue) {
        defer { noteNewPackets(at: frame["t"]?.doubleValue ?? 0) }
        if frame["full"]?.boolValue == true {
            items.removeAll(keepingCapacity: true)
            for entry in frame["items"]?.arrayValue ?? [] { add(entry) }
            return
        }
        for id in frame["remove"]?.arrayValue ?? [] {
            if let id = id.intValue { items[id] = nil }
        }
        for change in frame["set"]?.arrayValue ?? [] {
            guard let id = change["id"]?.intValue, var item = items[id], let fields = change.objectValue else { continue }
            Self.update(&item, with: fields)
            items[id] = item
        }
        for entry in frame["add"]?.arrayValue ?? [] { add(entry) }
    }

    /// The centres of the unclaimed packets, in scene points, ordered by packet number; with
    /// `seenFor`, only those shown for at least that long by `at` (frame times), as a player
    /// reacts to a packet only once it has seen it.
    public func unclaimedCentres(seenFor age: Double = 0, at t: Double = .infinity) -> [(packet: Int, x: Double, y: Double)] {
        var centres: [(packet: Int, x: Double, y: Double)] = []
        for item in items.values where item.image == Self.unclaimedImage {
            guard let packet = Self.packetNumber(item.name), let centre = Self.centre(of: item),
                  t - (firstSeen[packet] ?? t) >= age - 1e-6 else { continue }  // to the microsecond, as the server
            centres.append((packet, centre.x, centre.y))
        }
        return centres.sorted { $0.packet < $1.packet }
    }

    /// Notes the frame time `t` for the packets seen for the first time, and forgets those gone
    /// (the next rain numbers its packets from 0 again).
    private mutating func noteNewPackets(at t: Double) {
        var shown: [Int: Double] = [:]
        for item in items.values {
            if let packet = Self.packetNumber(item.name) { shown[packet] = firstSeen[packet] ?? t }
        }
        firstSeen = shown
    }

    /// `N` of a name `packet-N`, else nil.
    static func packetNumber(_ name: String?) -> Int? {
        guard let name, name.hasPrefix("packet-") else { return nil }
        return Int(name.dropFirst("packet-".count))
    }

    /// protocol.md "Matrices": `X = a·x + c·y + tx`, `Y = b·x + d·y + ty`, `W = g·x + h·y + w`,
    /// at the rect's centre; nil when W ≤ 0.
    static func centre(of item: Item) -> (x: Double, y: Double)? {
        let m = item.matrix
        let x = item.width / 2, y = item.height / 2
        let w = m.count == 9 ? m[6] * x + m[7] * y + m[8] : 1
        guard w > 0 else { return nil }
        return ((m[0] * x + m[2] * y + m[4]) / w, (m[1] * x + m[3] * y + m[5]) / w)
    }

    private mutating func add(_ entry: JSONValue) {
        guard let id = entry["id"]?.intValue, let fields = entry.objectValue else { return }
        var item = Item()
        Self.update(&item, with: fields)
        items[id] = item
    }

    /// Sets the fields aiming reads; a `null` returns a field to its default.
    private static func update(_ item: inout Item, with fields: JSONObject) {
        if let name = fields["name"] { item.name = name.stringValue }
        if let matrix = fields["m"] {
            let numbers = matrix.arrayValue?.compactMap(\.doubleValue) ?? []
            item.matrix = numbers.count == 6 || numbers.count == 9 ? numbers : [1, 0, 0, 1, 0, 0]
        }
        if let size = fields["s"] {
            let numbers = size.arrayValue?.compactMap(\.doubleValue) ?? []
            (item.width, item.height) = numbers.count == 2 ? (numbers[0], numbers[1]) : (0, 0)
        }
        if let image = fields["img"] { item.image = image.stringValue }
    }
}
