import Foundation

/// Something a layer runs when one of its properties changes, as Core Animation's `CAAction`.
public protocol CAAction: AnyObject {
    /// Performs the action for `event` on `anObject` (the layer); `dict` carries extra arguments, unused here.
    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?)
}

/// An action that does nothing: mapping a key to it in `actions` disables that implicit animation.
extension NSNull: CAAction {
    /// Does nothing, so the change it stands for is not animated.
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {}
}

extension CAAnimation: CAAction {
    /// Adds a copy of this animation to the layer under the event's key, as Core Animation does.
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        (anObject as? CALayer)?.add(self, forKey: event)
    }
}

/// A node of the layer tree: geometry, appearance, timing and the animations attached to it.
/// Animations never change the model; `presentation(at:)` gives what is on screen at a time.
open class CALayer: CAMediaTiming {
    /// The model values (for a presentation copy, the presented ones).
    public internal(set) var properties = LayerProperties()
    /// A name for the layer, sent to clients with its frame item (protocol.md's `name`).
    public var name: String?
    /// Actions by key, overriding the implicit animations; `NSNull()` turns a key's off (engine-model.md §8).
    public var actions: [String: CAAction]?
    /// The layer this one is a sublayer of; nil for a root layer or a mask.
    public private(set) weak var superlayer: CALayer?
    private var children: [CALayer] = []
    /// Attached animations in the order they were added.
    private var attachedAnimations: [(key: String, animation: CAAnimation)] = []
    private var anonymousKeys = 0
    /// For a presentation copy, the model layer it shows.
    private weak var modelSource: CALayer?
    /// For a mask, the layer it masks: its time parent.
    private weak var maskOwner: CALayer?

    // MARK: CAMediaTiming (a layer's time nests inside its superlayer's)
    /// When the layer's time starts, in its superlayer's time; 0 by default (docs/engine-model.md §1).
    public var beginTime: CFTimeInterval = 0 { didSet { timeChanged() } }
    /// Stored and ignored: a layer's time runs without end (docs/engine-model.md §1).
    public var duration: CFTimeInterval = .infinity
    /// How fast the layer's time and its sublayers' run against its superlayer's; 0 freezes them.
    public var speed: Float = 1 { didSet { timeChanged() } }
    /// Seconds added to the layer's local time, after `beginTime` and `speed` apply.
    public var timeOffset: CFTimeInterval = 0 { didSet { timeChanged() } }
    /// Stored and ignored: layer time neither repeats nor wraps (docs/engine-model.md §1).
    public var repeatCount: Float = 0
    /// Stored and ignored: layer time neither repeats nor wraps (docs/engine-model.md §1).
    public var repeatDuration: CFTimeInterval = 0
    /// Stored and ignored: layer time never reverses (docs/engine-model.md §1).
    public var autoreverses = false
    /// Stored and ignored: a layer is always active (docs/engine-model.md §1).
    public var fillMode: CAMediaTimingFillMode = .removed

    /// A layer with Core Animation's defaults: empty bounds at (0, 0), anchor at the centre, opaque, no sublayers.
    public init() {}

    deinit {
        // Its animations' events are not delivered any more; a sublayer or mask that outlives
        // it has no time parent now.
        for (_, animation) in attachedAnimations { animation.dueTimes = nil }
        for child in children { child.timeChanged() }
        mask?.timeChanged()
    }

    /// A shallow copy used for presentation layers: same class, properties and timing, no tree.
    public required init(layer: Any) {
        guard let other = layer as? CALayer else { return }
        properties = other.properties
        name = other.name
        beginTime = other.beginTime
        speed = other.speed
        timeOffset = other.timeOffset
    }

    // MARK: Properties

    /// Sets a model value; for an animatable property of a layer in a tree this runs the
    /// property's action (an implicit animation) unless the transaction disables actions.
    func set<V: Equatable>(_ keyPath: WritableKeyPath<LayerProperties, V>, _ value: V, animating property: LayerProperty?) {
        guard properties[keyPath: keyPath] != value else { return }
        guard let property, modelSource == nil, timeParent != nil, !CATransaction.disableActions(),
              let action = action(forKey: property.rawValue) else {
            properties[keyPath: keyPath] = value
            return
        }
        let from = presentedValue(of: property)
        properties[keyPath: keyPath] = value
        if let animation = action as? CABasicAnimation, animation.fromValue == nil, animation.toValue == nil, animation.byValue == nil {
            let implicit = animation.copy()
            implicit.fromValue = from.anyValue
            implicit.run(forKey: property.rawValue, object: self, arguments: nil)
        } else {
            action.run(forKey: property.rawValue, object: self, arguments: nil)
        }
    }

    /// The action for a key: `actions[key]` if present, else the default implicit animation.
    open func action(forKey event: String) -> CAAction? {
        if let action = actions?[event] { return action is NSNull ? nil : action }
        return Self.defaultAction(forKey: event)
    }

    /// The implicit animation for an animatable key: a basic animation in the transaction's
    /// duration and timing function (the `default` curve unless set).
    open class func defaultAction(forKey event: String) -> CAAction? {
        guard AnimationKeyPath(event) != nil else { return nil }
        let animation = CABasicAnimation(keyPath: event)
        animation.duration = CATransaction.animationDuration()
        animation.timingFunction = CATransaction.animationTimingFunction() ?? CAMediaTimingFunction(name: .default)
        return animation
    }

    /// The layer's size, and the origin of its own coordinate space, in points; animatable.
    public var bounds: CGRect {
        get { properties.bounds }
        set { set(\.bounds, newValue, animating: .bounds) }
    }
    /// Where the anchor point sits in the superlayer's coordinates, in points; animatable.
    public var position: CGPoint {
        get { properties.position }
        set { set(\.position, newValue, animating: .position) }
    }
    /// The layer's place on the z axis; higher values draw and hit-test in front of siblings (§7).
    public var zPosition: CGFloat {
        get { properties.zPosition }
        set { set(\.zPosition, newValue, animating: .zPosition) }
    }
    /// The bounds' point, in unit coordinates, that `position` places and `transform` turns about; (0.5, 0.5) by default.
    public var anchorPoint: CGPoint {
        get { properties.anchorPoint }
        set { set(\.anchorPoint, newValue, animating: .anchorPoint) }
    }
    /// The anchor's z coordinate, in points; 0 by default; not animatable.
    public var anchorPointZ: CGFloat {
        get { properties.anchorPointZ }
        set { set(\.anchorPointZ, newValue, animating: nil) }
    }
    /// The transform applied about the anchor point; identity by default (docs/engine-model.md §6).
    public var transform: CATransform3D {
        get { properties.transform }
        set { set(\.transform, newValue, animating: .transform) }
    }
    /// The transform applied to the sublayers about the layer's anchor, for perspective on them; identity by default.
    public var sublayerTransform: CATransform3D {
        get { properties.sublayerTransform }
        set { set(\.sublayerTransform, newValue, animating: .sublayerTransform) }
    }
    /// The layer's opacity in 0…1, multiplying its sublayers'; 1 by default.
    public var opacity: Float {
        get { properties.opacity }
        set { set(\.opacity, newValue, animating: .opacity) }
    }
    /// Whether the layer and its sublayers are neither drawn nor hit; false by default.
    public var isHidden: Bool {
        get { properties.isHidden }
        set { set(\.isHidden, newValue, animating: .hidden) }
    }
    /// Whether sublayers are clipped to the bounds, rounded by `cornerRadius`; false by default (§10.4).
    public var masksToBounds: Bool {
        get { properties.masksToBounds }
        set { set(\.masksToBounds, newValue, animating: nil) }
    }
    /// Whether the layer is drawn and hit when it faces away from the viewer; true by default.
    public var isDoubleSided: Bool {
        get { properties.isDoubleSided }
        set { set(\.isDoubleSided, newValue, animating: nil) }
    }
    /// The colour filling the bounds, under the contents; nil (none) by default.
    public var backgroundColor: CGColor? {
        get { properties.backgroundColor }
        set { set(\.backgroundColor, newValue, animating: .backgroundColor) }
    }
    /// The colour of the border drawn inside the bounds; opaque black by default.
    public var borderColor: CGColor? {
        get { properties.borderColor }
        set { set(\.borderColor, newValue, animating: .borderColor) }
    }
    /// The width of the border drawn inside the bounds, in points; 0 (none) by default.
    public var borderWidth: CGFloat {
        get { properties.borderWidth }
        set { set(\.borderWidth, newValue, animating: .borderWidth) }
    }
    /// The radius of the rounded corners of the background and border, in points; 0 by default.
    public var cornerRadius: CGFloat {
        get { properties.cornerRadius }
        set { set(\.cornerRadius, newValue, animating: .cornerRadius) }
    }
    /// The image the layer shows, a named asset the browser draws; nil by default.
    public var contents: CGImage? {
        get { properties.contents }
        set { set(\.contents, newValue, animating: .contents) }
    }
    /// How `contents` is placed in the bounds; `.resize` (stretched to fill) by default.
    public var contentsGravity: CALayerContentsGravity {
        get { properties.contentsGravity }
        set { set(\.contentsGravity, newValue, animating: nil) }
    }
    /// The colour of the drop shadow; opaque black by default.
    public var shadowColor: CGColor? {
        get { properties.shadowColor }
        set { set(\.shadowColor, newValue, animating: .shadowColor) }
    }
    /// The drop shadow's opacity in 0…1; 0 (no shadow) by default.
    public var shadowOpacity: Float {
        get { properties.shadowOpacity }
        set { set(\.shadowOpacity, newValue, animating: .shadowOpacity) }
    }
    /// The drop shadow's offset in points; (0, −3) by default, as on iOS.
    public var shadowOffset: CGSize {
        get { properties.shadowOffset }
        set { set(\.shadowOffset, newValue, animating: .shadowOffset) }
    }
    /// The drop shadow's blur radius in points; 3 by default.
    public var shadowRadius: CGFloat {
        get { properties.shadowRadius }
        set { set(\.shadowRadius, newValue, animating: .shadowRadius) }
    }
    /// The shadow's shape instead of the layer's; stored as a snapshot, not animatable.
    public var shadowPath: CGPath? {
        get { properties.shadowPath }
        set { set(\.shadowPath, newValue, animating: nil) }
    }

    // MARK: Tree

    /// A layer without a superlayer whose alpha masks this layer's drawing and sublayers, placed in
    /// this layer's bounds space; its time parent is this layer (docs/engine-model.md §10.4).
    public var mask: CALayer? {
        didSet {
            if oldValue !== mask {
                oldValue?.maskOwner = nil
                oldValue?.timeChanged()
            }
            mask?.maskOwner = self
            mask?.timeChanged()
        }
    }

    /// The layer whose time this one's nests in: the superlayer, or for a mask the layer it masks.
    var timeParent: CALayer? { superlayer ?? maskOwner }

    /// The sublayers back to front; setting replaces them all.
    public var sublayers: [CALayer]? {
        get { children.isEmpty ? nil : children }
        set {
            let old = children
            children = []
            for child in old {
                child.superlayer = nil
                child.timeChanged()
            }
            for child in newValue ?? [] { addSublayer(child) }
        }
    }

    /// Appends `layer` on top of the sublayers, first removing it from its old superlayer.
    public func addSublayer(_ layer: CALayer) {
        insertSublayer(layer, at: UInt32(children.count))
    }

    /// Inserts at `index` (clamped to the end), first removing the layer from its old superlayer.
    public func insertSublayer(_ layer: CALayer, at index: UInt32) {
        precondition(layer !== self, "a layer cannot be its own sublayer")
        layer.removeFromSuperlayer()
        children.insert(layer, at: min(Int(index), children.count))
        layer.superlayer = self
        layer.timeChanged()
    }

    /// Inserts `layer` just under `sibling`, or at the bottom when `sibling` is nil or not a sublayer.
    public func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        let index = sibling.flatMap { s in children.firstIndex { $0 === s } } ?? 0
        insertSublayer(layer, at: UInt32(index))
    }

    /// Inserts `layer` just above `sibling`, or on top when `sibling` is nil or not a sublayer.
    public func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        let index = sibling.flatMap { s in children.firstIndex { $0 === s } }.map { $0 + 1 } ?? children.count
        insertSublayer(layer, at: UInt32(index))
    }

    /// Puts `new` in the place of the sublayer `old`; does nothing if `old` is not a sublayer.
    public func replaceSublayer(_ old: CALayer, with new: CALayer) {
        guard let index = children.firstIndex(where: { $0 === old }) else { return }
        old.removeFromSuperlayer()
        insertSublayer(new, at: UInt32(index))
    }

    /// Detaches the layer from its superlayer; does nothing for a root layer.
    public func removeFromSuperlayer() {
        guard let parent = superlayer else { return }
        parent.children.removeAll { $0 === self }
        superlayer = nil
        timeChanged()
    }

    /// The topmost ancestor (self when it has no superlayer); a mask's ancestors are the masked layer's.
    public var rootLayer: CALayer {
        var layer = self
        while let parent = layer.timeParent { layer = parent }
        return layer
    }

    // MARK: Animations

    /// Attaches a copy of `anim` under `key` (nil gets a unique key), replacing any animation
    /// with that key; `beginTime` 0 becomes the layer's current local time.
    public func add(_ anim: CAAnimation, forKey key: String?) {
        let context = SceneContext.current
        let key = key ?? { anonymousKeys += 1; return "animation-\(anonymousKeys)" }()
        removeAnimation(forKey: key)
        if let problem = anim.problem(for: self) {
            Self.unsupportedAnimations.record(keyPath: problem.keyPath, message: problem.message)
        }
        let copy = anim.copy()
        copy.resolve(now: localTime(atMedia: context.now), inheritedDuration: CATransaction.animationDuration(), isGroupChild: false)
        copy.attachedLayer = self
        attachedAnimations.append((key, copy))
        animationAttached(copy)
        context.attach(copy)
    }

    /// Called after an animation is attached; emitter layers record theirs (docs/engine-model.md §9.7).
    func animationAttached(_ animation: CAAnimation) {}

    /// Called after an animation is detached (removed, replaced or finished).
    func animationDetached(_ animation: CAAnimation) {}

    /// The refused animations of every layer (docs/engine-model.md §11).
    public static let unsupportedAnimations = UnsupportedAnimations()

    /// The attached animation for `key`.
    public func animation(forKey key: String) -> CAAnimation? {
        attachedAnimations.first { $0.key == key }?.animation
    }

    /// Keys of the attached animations in the order they were added.
    public func animationKeys() -> [String]? {
        attachedAnimations.isEmpty ? nil : attachedAnimations.map(\.key)
    }

    /// Removes the animation for `key`; its delegate hears `finished: false`.
    public func removeAnimation(forKey key: String) {
        guard let index = attachedAnimations.firstIndex(where: { $0.key == key }) else { return }
        let animation = attachedAnimations.remove(at: index).animation
        animationDetached(animation)
        SceneContext.current.detach(animation)
    }

    /// Removes every attached animation; their delegates hear `finished: false`.
    public func removeAllAnimations() {
        let removed = attachedAnimations
        attachedAnimations = []
        for (_, animation) in removed {
            animationDetached(animation)
            SceneContext.current.detach(animation)
        }
    }

    /// Drops an animation that finished with `isRemovedOnCompletion`.
    func detachFinished(_ animation: CAAnimation) {
        attachedAnimations.removeAll { $0.animation === animation }
        animationDetached(animation)
    }

    // MARK: Time

    /// This layer's local time at media time `t` (docs/engine-model.md §1).
    public func localTime(atMedia t: CFTimeInterval) -> CFTimeInterval {
        let parentTime = timeParent?.localTime(atMedia: t) ?? t
        return (parentTime - beginTime) * CFTimeInterval(speed) + timeOffset
    }

    /// This layer's time parent or timing changed, so its time, and that of every layer under it,
    /// may map to media time differently: their animations' due times are computed again.
    func timeChanged() {
        for (_, animation) in attachedAnimations { animation.dueTimes = nil }
        for child in children { child.timeChanged() }
        mask?.timeChanged()
    }

    /// The media time at which this layer's local time is `t`; infinite through a paused layer.
    func mediaTime(fromLocal t: CFTimeInterval) -> CFTimeInterval {
        guard speed != 0 else { return .infinity }
        let parentTime = (t - timeOffset) / CFTimeInterval(speed) + beginTime
        return timeParent?.mediaTime(fromLocal: parentTime) ?? parentTime
    }

    /// Converts `t` from `layer`'s local time (media time when nil) to this layer's.
    public func convertTime(_ t: CFTimeInterval, from layer: CALayer?) -> CFTimeInterval {
        localTime(atMedia: layer?.mediaTimeForConversion(fromLocal: t) ?? t)
    }

    /// Converts `t` from this layer's local time to `layer`'s (media time when nil).
    public func convertTime(_ t: CFTimeInterval, to layer: CALayer?) -> CFTimeInterval {
        let media = mediaTimeForConversion(fromLocal: t)
        return layer?.localTime(atMedia: media) ?? media
    }

    /// The media time for local time `t`; through a paused layer (speed 0), whose inverse is
    /// undefined, the conversion continues from that layer's beginTime (docs/engine-model.md §1).
    private func mediaTimeForConversion(fromLocal t: CFTimeInterval) -> CFTimeInterval {
        var time = t
        var layer: CALayer? = self
        while let l = layer {
            time = l.speed == 0 ? l.beginTime : (time - l.timeOffset) / CFTimeInterval(l.speed) + l.beginTime
            layer = l.timeParent
        }
        return time
    }

    // MARK: Presentation

    /// The model properties with every attached animation applied at this layer's local time `t`.
    public func presentedProperties(atLocalTime t: CFTimeInterval) -> LayerProperties {
        var props = properties
        for (_, animation) in attachedAnimations {
            animation.apply(to: &props, parentTime: t)
        }
        return props
    }

    /// The on-screen value of one property now.
    func presentedValue(of property: LayerProperty) -> AnimatableValue {
        presentedProperties(atLocalTime: localTime(atMedia: CACurrentMediaTime()))[property]
    }

    /// A copy of the whole tree as it appears at media time `t`, returning the copy of this layer;
    /// nil for a layer that is itself a presentation copy.
    public func presentation(at t: CFTimeInterval) -> Self? {
        guard modelSource == nil else { return nil }
        let root = rootLayer
        var match: CALayer?
        _ = root.presentationCopy(parentTime: t, target: self, match: &match)
        return match as? Self
    }

    /// The presentation copy at the current media time, as `CALayer.presentation()`.
    public func presentation() -> Self? {
        presentation(at: CACurrentMediaTime())
    }

    /// Whether this is a copy made by `presentation(at:)`.
    var isPresentationCopy: Bool { modelSource != nil }

    /// The model layer a presentation copy shows (self for a model layer).
    public func model() -> Self {
        (modelSource as? Self) ?? self
    }

    private func presentationCopy(parentTime: CFTimeInterval, target: CALayer, match: inout CALayer?) -> CALayer {
        let local = (parentTime - beginTime) * CFTimeInterval(speed) + timeOffset
        let copy = Self(layer: self)
        copy.properties = presentedProperties(atLocalTime: local)
        copy.modelSource = self
        if self === target { match = copy }
        for child in children {
            let childCopy = child.presentationCopy(parentTime: local, target: target, match: &match)
            copy.children.append(childCopy)
            childCopy.superlayer = copy
        }
        copy.mask = mask?.presentationCopy(parentTime: local, target: target, match: &match)
        return copy
    }

    /// Visits every layer of this subtree in tree order with its presented properties at media
    /// time `t`; allocation-free apart from what `body` does (the frame path uses this).
    public func forEachPresented(at t: CFTimeInterval, _ body: (CALayer, LayerProperties) -> Void) {
        let parentTime = timeParent?.localTime(atMedia: t) ?? t
        visitPresented(parentTime: parentTime, body)
    }

    func visitPresented(parentTime: CFTimeInterval, _ body: (CALayer, LayerProperties) -> Void) {
        let local = (parentTime - beginTime) * CFTimeInterval(speed) + timeOffset
        body(self, presentedProperties(atLocalTime: local))
        for child in children { child.visitPresented(parentTime: local, body) }
    }

    /// Whether a point in this layer's coordinates is inside its bounds (half-open).
    open func contains(_ p: CGPoint) -> Bool {
        properties.boundsContain(p)
    }

    /// Whether this layer's plane holds its sublayers flat (false for CATransformLayer).
    open var flattensSublayers: Bool { true }
}
