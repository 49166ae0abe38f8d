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
        // Scratch for this call (on the stack up to 1 KiB each, else one allocation): the items'
        // quads (those in front of the eye), each plane's range of them, and each plane's set of
        // the planes drawn before it (bit j: plane j).
        let order = withUnsafeTemporaryAllocation(of: ScreenQuad.self, capacity: items.count - start) { quads in
            withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: n) { planeQuads in
                withUnsafeTemporaryAllocation(of: UInt64.self, capacity: n) { drawnBefore -> [Int]? in
                    var count = 0
                    for (p, plane) in planes.enumerated() {
                        let first = count
                        for index in plane.items {
                            guard let quad = ScreenQuad(items[index]) else { continue }
                            quads.initializeElement(at: count, to: quad)
                            count += 1
                        }
                        planeQuads.initializeElement(at: p, to: first..<count)
                        drawnBefore.initializeElement(at: p, to: 0)
                    }
                    for i in 0..<n {
                        for j in (i + 1)..<n {
                            var nearer = 0.0   // > 0: i is nearer where they overlap
                            for a in quads[planeQuads[i]] {
                                for b in quads[planeQuads[j]] where a.boxMeets(b) {
                                    guard let (area, centre) = Self.overlap(a, b), area >= Self.minimumOverlap,
                                          let di = Self.depth(of: planes[i], at: centre),
                                          let dj = Self.depth(of: planes[j], at: centre)
                                    else { continue }
                                    nearer += di > dj ? area : di < dj ? -area : 0
                                }
                            }
                            if nearer > 0 {
                                drawnBefore[i] |= 1 << j
                            } else if nearer < 0 {
                                drawnBefore[j] |= 1 << i
                            }
                        }
                    }
                    return Self.drawingOrder(UnsafeBufferPointer(drawnBefore))
                }
            }
        }
        guard let order else { return }
        let reordered = order.flatMap { items[planes[$0].items] }
        items.replaceSubrange(start..<items.count, with: reordered)
    }

    /// The order the planes are drawn in: each time the first plane whose `drawnBefore` planes are
    /// all drawn, or, in a cycle, the first not drawn; nil when that is the planes' own order.
    private static func drawingOrder(_ drawnBefore: UnsafeBufferPointer<UInt64>) -> [Int]? {
        var drawn: UInt64 = 0
        var order: [Int]?
        for position in drawnBefore.indices {
            let next = drawnBefore.indices.first { drawn & 1 << $0 == 0 && drawnBefore[$0] & ~drawn == 0 }
                ?? (~drawn).trailingZeroBitCount
            drawn |= 1 << next
            if order == nil, next != position { order = Array(0..<position) }
            order?.append(next)
        }
        return order
    }

    /// The area and centroid of two convex quadrilaterals' intersection (Sutherland–Hodgman);
    /// nil when they do not overlap. Each clip at most doubles the polygon's corners (4 → 64).
    private static func overlap(_ a: ScreenQuad, _ b: ScreenQuad) -> (Double, (x: Double, y: Double))? {
        withUnsafeTemporaryAllocation(of: (x: Double, y: Double).self, capacity: 64) { even in
            withUnsafeTemporaryAllocation(of: (x: Double, y: Double).self, capacity: 32) { odd in
                for m in 0..<4 { even[m] = (a.xs[m], a.ys[m]) }
                var count = 4
                for k in 0..<4 where count > 0 {
                    let (polygon, clipped) = k % 2 == 0 ? (even, odd) : (odd, even)
                    let p = (x: b.xs[k], y: b.ys[k]), q = (x: b.xs[(k + 1) % 4], y: b.ys[(k + 1) % 4])
                    func side(_ v: (x: Double, y: Double)) -> Double {
                        b.turn * ((q.x - p.x) * (v.y - p.y) - (q.y - p.y) * (v.x - p.x))
                    }
                    var kept = 0
                    var u = polygon[0], su = side(u)
                    for m in 0..<count {
                        let v = polygon[m + 1 < count ? m + 1 : 0], sv = side(v)
                        if su >= 0 {
                            clipped[kept] = u
                            kept += 1
                        }
                        if (su >= 0) != (sv >= 0) {
                            let t = su / (su - sv)
                            clipped[kept] = (u.x + t * (v.x - u.x), u.y + t * (v.y - u.y))
                            kept += 1
                        }
                        (u, su) = (v, sv)
                    }
                    count = kept
                }
                guard count >= 3 else { return nil }
                var area = 0.0, cx = 0.0, cy = 0.0
                for m in 0..<count {
                    let u = even[m], v = even[m + 1 < count ? m + 1 : 0]
                    let cross = u.x * v.y - v.x * u.y
                    area += cross
                    cx += (u.x + v.x) * cross
                    cy += (u.y + v.y) * cross
                }
                guard abs(area) > 1e-9 else { return nil }
                return (abs(area) / 2, (cx / (3 * area), cy / (3 * area)))
            }
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
