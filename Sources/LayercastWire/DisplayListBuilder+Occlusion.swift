import Foundation
import LayercastEngine

/// A plane layer drawn in a 3D context (under a CATransformLayer): the range of its items (its
/// own and its flattened sublayers') and its maps from bounds space into the context and the scene.
struct ContextPlane {
    var items: Range<Int>
    var toContext: CATransform3D
    var toScene: CATransform3D
}

extension DisplayListBuilder {
    /// The most planes of one 3D context ordered by their overlaps; a larger context keeps the
    /// order of the planes' centres.
    static let maxOverlapOrderedPlanes = 64
    /// The most items of one 3D context ordered by overlaps (each pair of rects is compared).
    static let maxOverlapOrderedItems = 256
    /// Overlaps smaller than this (scene points²) are ignored: planes that share an edge, such as a
    /// cube's faces, overlap in slivers of rounding, where their depths differ by noise.
    static let minimumOverlap = 1.0

    /// Reorders the items `planes` tile, from `start` to the end, so that where two planes overlap
    /// on screen the one nearer there (most of the shared area's depth, in the context, larger
    /// z / w) is drawn later, as the hit test orders them at each point (engine-model.md §7 rule
    /// 4). Unconstrained planes, and the planes of a cycle, keep their order (their centres');
    /// planes that cross each other are drawn whole, so only one of them can be right on each side.
    func orderByOverlap(_ planes: [ContextPlane], from start: Int) {
        let n = planes.count
        guard n > 1, n <= Self.maxOverlapOrderedPlanes, items.count - start <= Self.maxOverlapOrderedItems,
              planes[0].items.lowerBound == start,
              planes[n - 1].items.upperBound == items.count,
              zip(planes, planes.dropFirst()).allSatisfy({ $0.items.upperBound == $1.items.lowerBound })
        else { return }
        let quads = planes.map { plane in plane.items.compactMap { Self.quad(of: items[$0]) } }
        let boxes = quads.map { $0.map(Self.box) }
        var after = Array(repeating: [Int](), count: n)   // after[i]: the planes drawn after i
        var before = Array(repeating: 0, count: n)        // before[j]: unplaced planes drawn before j
        for i in 0..<n {
            for j in (i + 1)..<n {
                var nearer = 0.0   // > 0: i is nearer where they overlap
                for (a, boxA) in zip(quads[i], boxes[i]) {
                    for (b, boxB) in zip(quads[j], boxes[j]) where boxA.intersects(boxB) {
                        guard let (area, centre) = Self.overlap(a, b), area >= Self.minimumOverlap,
                              let di = Self.depth(of: planes[i], at: centre), let dj = Self.depth(of: planes[j], at: centre)
                        else { continue }
                        nearer += di > dj ? area : di < dj ? -area : 0
                    }
                }
                if nearer > 0 {
                    after[j].append(i)
                    before[i] += 1
                } else if nearer < 0 {
                    after[i].append(j)
                    before[j] += 1
                }
            }
        }
        var order: [Int] = []
        var placed = Array(repeating: false, count: n)
        while order.count < n {
            let next = (0..<n).first { !placed[$0] && before[$0] == 0 } ?? (0..<n).first { !placed[$0] }!
            placed[next] = true
            order.append(next)
            for k in after[next] { before[k] -= 1 }
        }
        guard order != Array(0..<n) else { return }
        let reordered = order.flatMap { items[planes[$0].items] }
        items.replaceSubrange(start..<items.count, with: reordered)
    }

    /// An item's rect on screen, corner by corner; nil when a corner is at or behind the eye.
    private static func quad(of item: DrawItem) -> [(x: Double, y: Double)]? {
        let corners = [(0, 0), (item.width, 0), (item.width, item.height), (0, item.height)]
        let points = corners.compactMap { item.matrix.apply(x: $0.0, y: $0.1) }
        return points.count == 4 ? points : nil
    }

    /// The area and centroid of two convex quadrilaterals' intersection (Sutherland–Hodgman);
    /// nil when they do not overlap.
    private static func overlap(_ a: [(x: Double, y: Double)], _ b: [(x: Double, y: Double)]) -> (Double, (x: Double, y: Double))? {
        let turn = signedArea(b) < 0 ? -1.0 : 1.0
        var polygon = a
        for k in b.indices where !polygon.isEmpty {
            let p = b[k], q = b[(k + 1) % b.count]
            func side(_ v: (x: Double, y: Double)) -> Double { turn * ((q.x - p.x) * (v.y - p.y) - (q.y - p.y) * (v.x - p.x)) }
            var clipped: [(x: Double, y: Double)] = []
            for m in polygon.indices {
                let u = polygon[m], v = polygon[(m + 1) % polygon.count]
                let su = side(u), sv = side(v)
                if su >= 0 { clipped.append(u) }
                if (su >= 0) != (sv >= 0) {
                    let t = su / (su - sv)
                    clipped.append((u.x + t * (v.x - u.x), u.y + t * (v.y - u.y)))
                }
            }
            polygon = clipped
        }
        guard polygon.count >= 3 else { return nil }
        var area = 0.0, cx = 0.0, cy = 0.0
        for m in polygon.indices {
            let u = polygon[m], v = polygon[(m + 1) % polygon.count]
            let cross = u.x * v.y - v.x * u.y
            area += cross
            cx += (u.x + v.x) * cross
            cy += (u.y + v.y) * cross
        }
        guard abs(area) > 1e-9 else { return nil }
        return (abs(area) / 2, (cx / (3 * area), cy / (3 * area)))
    }

    /// The smallest rect holding the points.
    private static func box(_ p: [(x: Double, y: Double)]) -> CGRect {
        let xs = p.map(\.x), ys = p.map(\.y)
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    private static func signedArea(_ p: [(x: Double, y: Double)]) -> Double {
        p.indices.reduce(0) { sum, m in
            let u = p[m], v = p[(m + 1) % p.count]
            return sum + u.x * v.y - v.x * u.y
        }
    }

    /// The depth (z / w in the context, larger is nearer) of the plane's point seen at scene
    /// point `s`; nil when the plane is edge-on there or the point is behind the eye.
    private static func depth(of plane: ContextPlane, at s: (x: Double, y: Double)) -> Double? {
        // (x, y, 1) · H ∝ (X, Y, 1) for H the x, y, w rows and columns of toScene, so
        // (x, y, 1) ∝ (X, Y, 1) · adj(H), with the factor det(H) · w > 0 on the front side.
        let m = plane.toScene
        let (a, b, c) = (Double(m.m11), Double(m.m12), Double(m.m14))
        let (d, e, f) = (Double(m.m21), Double(m.m22), Double(m.m24))
        let (g, h, i) = (Double(m.m41), Double(m.m42), Double(m.m44))
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        guard abs(det) > 1e-12 else { return nil }
        let x = s.x * (e * i - f * h) + s.y * (f * g - d * i) + (d * h - e * g)
        let y = s.x * (c * h - b * i) + s.y * (a * i - c * g) + (b * g - a * h)
        let k = s.x * (b * f - c * e) + s.y * (c * d - a * f) + (a * e - b * d)
        guard k / det > 0 else { return nil }
        let v = plane.toContext.apply(x: CGFloat(x / k), y: CGFloat(y / k), z: 0)
        guard v.w > 0 else { return nil }
        return Double(v.z / v.w)
    }
}
