/// An item's rect on screen, corner by corner, with the box holding it (`maxX` is `minX` plus the
/// width, as CGRect has it) and the sign of its corners' turn; what each pair of rects is tested with.
struct ScreenQuad {
    var xs, ys: SIMD4<Double>
    var minX, maxX, minY, maxY: Double
    var turn: Double

    /// The quad of an item's rect; nil when a corner is at or behind the eye.
    init?(_ item: DrawItem) {
        guard let p0 = item.matrix.apply(x: 0, y: 0), let p1 = item.matrix.apply(x: item.width, y: 0),
              let p2 = item.matrix.apply(x: item.width, y: item.height), let p3 = item.matrix.apply(x: 0, y: item.height)
        else { return nil }
        xs = SIMD4(p0.x, p1.x, p2.x, p3.x)
        ys = SIMD4(p0.y, p1.y, p2.y, p3.y)
        minX = xs.min()
        maxX = minX + (xs.max() - minX)
        minY = ys.min()
        maxY = minY + (ys.max() - minY)
        var area = 0.0
        for m in 0..<4 { area = area + xs[m] * ys[(m + 1) % 4] - xs[(m + 1) % 4] * ys[m] }
        turn = area < 0 ? -1 : 1
    }

    /// Whether the boxes of the two quads meet (touching counts), as `CGRect.intersects` says.
    func boxMeets(_ other: ScreenQuad) -> Bool {
        !(other.maxX < minX || maxX < other.minX || other.maxY < minY || maxY < other.minY)
    }
}
