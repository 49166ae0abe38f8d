import Foundation
import LayercastEngine

/// Builds display lists (protocol.md, "Draw items", "What is left out", "Order", "Shapes",
/// "Gradients", "Clips and masks", "Replicators") from a layer tree, giving each layer object (and
/// each replicator copy of one) an id it keeps while it stays in the tree.
public final class DisplayListBuilder {
    /// A layer with an id, held strongly so its address cannot be reused while it is mapped;
    /// `build` is the last build that visited it.
    private struct Entry {
        let layer: CALayer
        let id: Int
        var build: Int
    }

    /// What an id stands for: a layer, or one replicator copy of it (`copy` lists the copy index
    /// at each enclosing replicator, outermost first; empty outside replicators).
    struct ItemKey: Hashable {
        var layer: ObjectIdentifier
        var copy: [Int]
    }

    /// Where a superlayer puts its sublayers: the opacity so far, the map from the sublayers'
    /// superlayer space into the 3D context they live in, and from that context to the scene, and
    /// how fast the superlayer's local time runs against the frame clock.
    struct Placement {
        var opacity: Double
        var toContext: CATransform3D
        var contextToScene: CATransform3D
        var clockRate: Double
    }

    /// A sublayer of a CATransformLayer with its presented state and depth, for sorting.
    private struct Sublayer {
        var layer: CALayer
        var properties: LayerProperties
        var localTime: CFTimeInterval
        var depth: CGFloat
        var index: Int
    }

    /// Zeroes the z output column, as each flattening layer does to its sublayers (the engine's).
    static let flatteningMatrix = CATransform3D(
        m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
        m31: 0, m32: 0, m33: 0, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)

    /// The engine's "at or behind the eye" bound on w (`CATransform3D.project`).
    private static let minimumW: CGFloat = 1e-12

    private var entries: [ItemKey: Entry] = [:]
    /// The copy indices of the replicators the visit is inside, outermost first.
    var copyPath: [Int] = []
    /// Path ids by path, with the last build that used each; ids count up and are never reused.
    private var pathIDs: [DrawPath: (id: Int, build: Int)] = [:]
    private var nextPathID = 1
    /// The current build's path table.
    private var paths: [Int: DrawPath] = [:]
    private var nextID = 1
    private(set) var builds = 0
    /// Entries visited by the current build.
    private var visited = 0
    var items: [DrawItem] = []
    /// Each emitter item's records and followed particles, by layer (and copy).
    var emitterStates: [ItemKey: EmitterItemState] = [:]
    /// Records the current build may still hold, the scene's size and the frame's quantised `t`.
    var particleBudget = 0
    private(set) var sceneSize = CGSize.zero
    private(set) var frameTime = 0.0
    /// The product of the colours of the replicator copies the visit is inside (red, green, blue).
    var copyTint = SIMD3<Double>(1, 1, 1)
    /// The plane layers of the 3D context being visited (under a CATransformLayer), to be ordered
    /// by their overlaps when its outermost transform layer is done; nil outside a context.
    var contextPlanes: [ContextPlane]?

    /// The most particle records the emitter items of one frame hold together, in drawing order:
    /// the room's particle cap (protocol.md, "Particles"); the oldest are evicted past it.
    public var maxParticles: Int

    /// A builder holding at most `maxParticles` records a frame (a room's is `--max-particles`;
    /// without one, only each emitter's own `maxParticles` limits them).
    public init(maxParticles: Int = .max) {
        self.maxParticles = maxParticles
    }

    /// The display list of `root`'s presentation tree at media time `time`; a layer keeps its id across calls.
    public func build(_ root: CALayer, at time: CFTimeInterval) -> DisplayList {
        builds += 1
        visited = 0
        particleBudget = maxParticles
        sceneSize = root.bounds.size
        frameTime = Quantize.time(time)
        items.reserveCapacity(entries.count)
        let local = Self.localTime(of: root, parentTime: time)
        visit(root, root.presentedProperties(atLocalTime: local), localTime: local,
              in: Placement(opacity: 1, toContext: .identity, contextToScene: Self.flatteningMatrix, clockRate: 1))
        if visited < entries.count {
            entries = entries.filter { $0.value.build == builds }
        }
        // A state outlives frames without its item while the item keeps its id, so record ids and
        // kinds are never reused in the item.
        if emitterStates.contains(where: { $0.value.build != builds && entries[$0.key] == nil }) {
            emitterStates = emitterStates.filter { $0.value.build == builds || entries[$0.key] != nil }
        }
        if pathIDs.count > paths.count { pathIDs = pathIDs.filter { $0.value.build == builds } }
        let list = DisplayList(items: items, paths: paths, time: frameTime)
        items = []
        paths = [:]
        return list
    }

    /// As `CALayer.localTime(atMedia:)`, one level down.
    static func localTime(of layer: CALayer, parentTime: CFTimeInterval) -> CFTimeInterval {
        (parentTime - layer.beginTime) * CFTimeInterval(layer.speed) + layer.timeOffset
    }

    func visit(_ layer: CALayer, _ props: LayerProperties, localTime: CFTimeInterval, in placement: Placement) {
        markVisited(layer)
        let opacity = placement.opacity * Self.clampedOpacity(props.opacity)
        let clockRate = placement.clockRate * Double(layer.speed)
        guard !props.isHidden, Quantize.fraction(opacity) > 0 else { return markSublayersVisited(of: layer) }
        let toContext = props.localMatrix.concatenating(placement.toContext)
        let toScene = toContext.concatenating(placement.contextToScene)
        // A CATransformLayer (not flattening) has no plane: it draws nothing and has no face to turn away.
        let flattens = layer.flattensSublayers
        if flattens {
            // Facing is judged in the plane the layer is flattened into, as the hit test does
            // (engine-model.md §7 rule 2): a flipped ancestor mirrors its sublayers, it does not turn them.
            guard props.isDoubleSided || Self.facesViewer(toContext, bounds: props.bounds.standardized) else {
                return markSublayersVisited(of: layer)
            }
            // A clip or a mask needs the layer's item, drawing or not, to say which items it covers.
            let groups = props.masksToBounds && !(layer.sublayers ?? []).isEmpty || layer.mask != nil
            let start = items.count
            if let item = item(for: layer, props, localTime: localTime, clockRate: clockRate, opacity: opacity, toScene: toScene,
                               force: groups) {
                items.append(item)
            } else if groups {
                return markSublayersVisited(of: layer)
            }
            if groups {
                visitSublayers(of: layer, props, localTime: localTime, clockRate: clockRate, opacity: opacity,
                               toContext: toContext, toScene: toScene, placement: placement)
                return group(layer, props, at: start, localTime: localTime, clockRate: clockRate, toScene: toScene)
            }
        }
        visitSublayers(of: layer, props, localTime: localTime, clockRate: clockRate, opacity: opacity, toContext: toContext,
                       toScene: toScene, placement: placement)
    }

    /// Visits the sublayers (each replicator copy of them, for a replicator) of a visited layer.
    private func visitSublayers(of layer: CALayer, _ props: LayerProperties, localTime: CFTimeInterval, clockRate: Double,
                                opacity: Double, toContext: CATransform3D, toScene: CATransform3D, placement: Placement) {
        guard let sublayers = layer.sublayers, !sublayers.isEmpty else { return }
        let replicator = props.replicator
        for copy in 0..<(replicator.map { max(0, $0.instanceCount) } ?? 1) {
            let instance = replicator?.instance(copy, bounds: props.bounds)
            let copyMatrix = instance.map { $0.transform.concatenating(props.sublayerMatrix) } ?? props.sublayerMatrix
            let parentTime = localTime + (instance?.timeShift ?? 0)
            let copyOpacity = opacity * (instance.map { Double($0.color.alpha) } ?? 1)
            let outerTint = copyTint
            if let instance {
                copyPath.append(copy)
                copyTint *= SIMD3(Double(instance.color.red), Double(instance.color.green), Double(instance.color.blue))
            }
            let start = items.count
            if layer.flattensSublayers {
                let inner = Placement(opacity: copyOpacity, toContext: copyMatrix,
                                      contextToScene: Self.flatteningMatrix.concatenating(toScene), clockRate: clockRate)
                for s in Self.inZOrder(sublayers, parentTime: parentTime) {
                    visit(s.layer, s.properties, localTime: s.localTime, in: inner)
                }
            } else {
                let inner = Placement(opacity: copyOpacity, toContext: copyMatrix.concatenating(toContext),
                                      contextToScene: placement.contextToScene, clockRate: clockRate)
                let outermost = contextPlanes == nil
                if outermost { contextPlanes = [] }
                for s in Self.backToFront(sublayers, parentTime: parentTime, toContext: inner.toContext) {
                    guard s.layer.flattensSublayers else {
                        visit(s.layer, s.properties, localTime: s.localTime, in: inner)
                        continue
                    }
                    // A plane's sublayers are flattened into it: they start contexts of their own.
                    let context = contextPlanes, first = items.count
                    contextPlanes = nil
                    visit(s.layer, s.properties, localTime: s.localTime, in: inner)
                    contextPlanes = context
                    if items.count > first {
                        let planeToContext = s.properties.localMatrix.concatenating(inner.toContext)
                        contextPlanes?.append(ContextPlane(items: first..<items.count, toContext: planeToContext,
                                                           toScene: planeToContext.concatenating(inner.contextToScene)))
                    }
                }
                if outermost, let planes = contextPlanes {
                    contextPlanes = nil
                    orderByOverlap(planes, from: start)
                }
            }
            if let instance {
                Self.tint(&items[start...], by: instance.color)
                copyPath.removeLast()
                copyTint = outerTint
            }
        }
    }

    /// The sublayers of a plane layer in drawing order: ascending presented `zPosition`, equal
    /// ones in tree order (the reverse of the hit test's search order, engine-model.md §7).
    private static func inZOrder(_ sublayers: [CALayer], parentTime: CFTimeInterval) -> [Sublayer] {
        var ordered: [Sublayer] = []
        ordered.reserveCapacity(sublayers.count)
        for (index, layer) in sublayers.enumerated() {
            let time = localTime(of: layer, parentTime: parentTime)
            let props = layer.presentedProperties(atLocalTime: time)
            ordered.append(Sublayer(layer: layer, properties: props, localTime: time, depth: props.zPosition, index: index))
        }
        if ordered.contains(where: { $0.depth != 0 }) {
            ordered.sort { ($0.depth, $0.index) < ($1.depth, $1.index) }
        }
        return ordered
    }

    /// The sublayers of a CATransformLayer sorted by the depth (z / w) of their bounds' centre
    /// in its context, farthest first; equal depths keep tree order.
    private static func backToFront(_ sublayers: [CALayer], parentTime: CFTimeInterval, toContext: CATransform3D) -> [Sublayer] {
        var sorted: [Sublayer] = []
        sorted.reserveCapacity(sublayers.count)
        for (index, layer) in sublayers.enumerated() {
            let time = localTime(of: layer, parentTime: parentTime)
            let props = layer.presentedProperties(atLocalTime: time)
            let bounds = props.bounds.standardized
            let centre = props.localMatrix.concatenating(toContext).apply(x: bounds.midX, y: bounds.midY, z: 0)
            let depth = centre.w != 0 ? centre.z / centre.w : centre.z
            sorted.append(Sublayer(layer: layer, properties: props, localTime: time, depth: depth.isNaN ? -.infinity : depth, index: index))
        }
        sorted.sort { ($0.depth, $0.index) < ($1.depth, $1.index) }
        return sorted
    }

    /// The draw item of a plane layer; nil when it draws nothing or has a corner at or behind
    /// the eye (or a number that is not finite).
    func item(for layer: CALayer, _ props: LayerProperties, localTime: CFTimeInterval, clockRate: Double, opacity: Double,
              toScene m: CATransform3D, force: Bool = false) -> DrawItem? {
        var item = DrawItem(id: 0)
        item.background = props.backgroundColor.map(DrawColor.init).flatMap { $0.isVisible ? $0 : nil }
        let borderWidth = Quantize.points(Double(props.borderWidth))
        if borderWidth > 0, borderWidth.isFinite, let color = props.borderColor.map(DrawColor.init), color.isVisible {
            item.borderColor = color
            item.borderWidth = borderWidth
        }
        if let contents = props.contents {
            item.image = contents.name
            item.gravity = DrawField.gravities.contains(props.contentsGravity) ? props.contentsGravity : .resize
        }
        item.text = (layer as? CATextLayer).flatMap(DrawText.init)
        item.shadow = DrawShadow(props)
        let bounds = props.bounds.standardized
        item.gradient = props.gradient.flatMap { DrawGradient($0, size: bounds.size) }
        let shape = props.shape.map { ShapePaint($0, origin: bounds.origin) }
        if let emitter = layer as? CAEmitterLayer {
            if emitter.renderMode == .additive { item.renderMode = "additive" }
            item.births = births(of: emitter, at: localTime, clockRate: clockRate, bounds: props.bounds, toScene: m)
        }
        guard force || item.background != nil || item.borderColor != nil || item.image != nil || item.text != nil
              || item.shadow != nil || !item.births.isEmpty || item.gradient != nil || shape?.isEmpty == false
        else { return nil }

        // W is affine in x and y, so its smallest value over the bounds is at a corner.
        let nearestW = min(bounds.minX * m.m14, bounds.maxX * m.m14) + min(bounds.minY * m.m24, bounds.maxY * m.m24) + m.m44
        guard nearestW > Self.minimumW else { return nil }
        guard let matrix = DrawMatrix(m, boundsOrigin: bounds.origin), !Self.isDegenerate(matrix) else { return nil }
        item.matrix = matrix
        item.width = Quantize.points(Double(bounds.width))
        item.height = Quantize.points(Double(bounds.height))
        item.cornerRadius = Quantize.points(max(0, Double(props.cornerRadius)))
        item.opacity = Quantize.fraction(opacity)
        guard item.width.isFinite, item.height.isFinite, item.cornerRadius.isFinite else { return nil }
        item.id = id(for: layer)
        item.name = layer.name
        if let shape {
            item.fill = shape.fill.map { DrawFill(path: pathID($0.path), color: $0.color, evenOdd: $0.evenOdd) }
            item.stroke = shape.stroke.map { stroke in
                var drawn = stroke.style
                drawn.path = pathID(stroke.path)
                return drawn
            }
        }
        return item
    }

    /// Whether the front of the layer's plane faces the viewer: the determinant of `m`'s x, y, w
    /// rows and columns, signed by w at the bounds' centre, is positive (identity → facing).
    private static func facesViewer(_ m: CATransform3D, bounds: CGRect) -> Bool {
        let det = m.m11 * (m.m22 * m.m44 - m.m24 * m.m42)
            - m.m12 * (m.m21 * m.m44 - m.m24 * m.m41)
            + m.m14 * (m.m21 * m.m42 - m.m22 * m.m41)
        let w = bounds.midX * m.m14 + bounds.midY * m.m24 + m.m44
        return det * w > 0
    }

    /// Whether the quantised matrix maps the rect to zero area (a layer scaled to 0): its 3×3
    /// determinant is 0, so there is nothing to draw and nothing the hit test could find.
    private static func isDegenerate(_ m: DrawMatrix) -> Bool {
        m.a * (m.d - m.ty * m.h) - m.c * (m.b - m.ty * m.g) + m.tx * (m.b * m.h - m.d * m.g) == 0
    }

    /// A layer's own opacity clamped to 0…1 (NaN reads as 0).
    private static func clampedOpacity(_ opacity: Float) -> Double {
        opacity > 0 ? min(Double(opacity), 1) : 0
    }

    /// The id of `layer`, mapping it to a new one when it has none.
    private func id(for layer: CALayer) -> Int {
        let key = ItemKey(layer: ObjectIdentifier(layer), copy: copyPath)
        if let entry = entries[key] { return entry.id }
        let id = nextID
        nextID += 1
        entries[key] = Entry(layer: layer, id: id, build: builds)
        visited += 1
        return id
    }

    /// Keeps `layer`'s entry, if it has one, for this build.
    private func markVisited(_ layer: CALayer) {
        let key = ItemKey(layer: ObjectIdentifier(layer), copy: copyPath)
        guard let build = entries[key]?.build, build != builds else { return }
        entries[key]?.build = builds
        visited += 1
    }

    /// The id of `path` in the path table, adding it to this build's table.
    private func pathID(_ path: DrawPath) -> Int {
        let id: Int
        if let entry = pathIDs[path] {
            id = entry.id
        } else {
            id = nextPathID
            nextPathID += 1
        }
        pathIDs[path] = (id, builds)
        paths[id] = path
        return id
    }

    /// Keeps the entries of a culled subtree, so its layers keep their ids when they show again
    /// (replicator copies inside it are not followed: they get new ids when they show again).
    func markSublayersVisited(of layer: CALayer) {
        for sublayer in layer.sublayers ?? [] {
            markVisited(sublayer)
            markSublayersVisited(of: sublayer)
        }
    }
}
