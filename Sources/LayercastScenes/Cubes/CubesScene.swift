import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI

/// The cube pull-to-refresh loader (华尔街见闻 loader), docs/scenes.md §2, ported from seed 001's
/// refresh view the way an iOS developer would write it with Core Animation:
/// `getFaceWithTransform:color:`, `getCubeTransformLayerWithPosition:`, `refreshWithPercent:`,
/// `getPositionWithPercent:index:`, `startAnimation`, `animationWithIndex:step:valueCount:`,
/// `stopAnimation` and `animationDidStop:finished:`.
///
/// Layers: the scene root (414 × 736, white) holds `loader`, a plain layer at (207, 200) whose
/// transform scales everything by `loaderScale` (3: the seed's 20 pt cubes are a 60 pt loader on
/// a phone-sized scene, readable on a 414 × 736 screen), and the status label `status` below it.
/// `loader` holds the CATransformLayer `cubes` with transform rotate(π/4 about X) then
/// rotate(−π/4 about Z) (`CATransform3DRotate` on identity, in the seed's order); it holds four
/// CATransformLayers `cube-0` … `cube-3`, each with six `cubeUnit` × `cubeUnit` faces
/// `cube-<n>-top|bottom|back|front|left|right`, single-sided, at the seed's face transforms and
/// colours; every top face casts the seed's shadow (shadowPath rect (0,0,10,10), offset (−30, 30),
/// grey, opacity 0.3, radius 0.2). From the fixed view three faces of every cube face the viewer:
/// top, front (+y) and left (−x); the other three are culled.
///
/// Key points: cube 0 cycles through (−h,−u), (h,−u), (h,0), (h,0), (h,u), (−h,u), (−h,0),
/// (−h,0) (u = cubeUnit, h = u/2); cube k uses the list shifted by 2k. Form n puts cube k at
/// point n of its list.
///
/// Input: `drag` only. A drag that begins while the loader is idle makes its client the
/// controller; every other drag (other clients, or anyone while the loader is returning,
/// refreshing or finishing) is ignored until the controller releases. The controller's vertical
/// distance from where its drag began maps to the pull percent p = clamp(dy / `pullDistance`, 0, 1)
/// (120 pt = 100 %); each step sets the cubes with `refreshWithPercent(p)`: step = ⌊p / ½⌋,
/// sub = the fraction left, position = lerp(points[step % 8], points[(step + 1) % 8], sub), with
/// implicit animations disabled. A release (`ended`) with p ≥ `refreshThreshold` (1: the cubes
/// have reached form 2) starts refreshing; below it, and on `cancelled`, the cubes run back along
/// their key points to form 0 (paced, easeOut, 0.3 s × p) and the loader is idle again. A
/// controller silent for `controlTimeout` (5 s; the scene does not hear disconnects) is treated
/// as cancelled.
///
/// Refreshing (`startAnimation`): each cube gets a CAKeyframeAnimation on `position` over the next
/// 9 key points from step 0, one `CAMediaTimingFunction(controlPoints: 0.24, 0.52, 0.43, 0.8)`
/// per segment, duration timeDuration / animeRefreshSteps × 8 = 2 s, linear, not removed on
/// completion, fillMode both, repeating forever, beginTime now + 0.1. The server "runs the
/// request": a timer fires 1 + 2·r seconds after the release (r uniform in [0, 1), one 64-bit
/// word of `SeededRandom(seed:)` per refresh) and calls `stopAnimation`: it reads the four
/// presentation positions, finds the loop segment (step) they lie on and the sub-step progress
/// (the time fraction of the segment: the position fraction through the inverse of the segment's
/// Bézier), removes the loop and adds a finishing keyframe animation from that step to the next
/// standard form, beginTime = now − subTimeDuration × sub, so motion continues without a jump.
/// When cube 0's finishing animation stops the cubes are reset to form 0, and 0.3 s later the
/// scene announces `refreshed`.
///
/// Events (`data` is a JSON object):
/// - `pull`, to the room, client = the controller: `{"phase":"began"}` when a drag takes control;
///   `{"phase":"ended","percent":p,"refresh":true|false}` on release; `{"phase":"cancelled",
///   "percent":p}` on `cancelled` or the control timeout.
/// - `refresh`, to the room: `{"phase":"loading"}` (client = the controller) when the loop is
///   started; `{"phase":"finishing","step":s,"sub":x}` (client nil) when the request returns and
///   the finishing animation is added.
/// - `refreshed`, to the room, client nil: 0.3 s after the finishing animation stopped; the
///   loader is idle again.
///
/// Fixed from the seed: the stop never snaps to form 0 (the seed's own point; done as it
/// describes). The seed does not give `getPresentInfoWithPoints` or `animeEndSteps`: the step is
/// the segment whose four cube segments lie nearest the four presented points, and `sub` is the
/// time fraction, not the distance fraction (using the distance fraction as a time would jump,
/// since each segment is eased); the standard form is the next even step after the current
/// segment (forms 0, 2, 4 and 6 put four identical cubes on the same four places, so the stop
/// waits at most two segments, 0.5 s). `resetCubes` after an even form renames the cubes (cube k
/// becomes the layer standing on point 2k) instead of moving each layer back to its own form 0
/// point, so no layer ever jumps, neither at the release (form 2, then the loop starting from
/// form 0) nor after the stop; layer names stay with their layers. `shouldRasterize` has no
/// counterpart, and the shadow is cast by the face's rect (the wire has no shadow paths).
public final class CubesScene: Scene {
    public static let info = SceneInfo(
        id: "cubes",
        title: "Cube pull-to-refresh",
        size: CGSize(width: 414, height: 736),
        interactions: ["drag"],
        assets: [],
        summary: LocalizedText(en: "Drag down to pull the cubes; let go far enough down to refresh.",
                               zh: "向下拖动拉开方块,拉得够远再松手就会刷新。"),
        events: [
            SceneEventWords(event: "pull", when: ["phase": "began"], en: "Pulling {by}…", zh: "正在下拉{by}…"),
            SceneEventWords(event: "pull", when: ["phase": "ended", "refresh": true],
                            en: "Pull released at {percent:percent} {by}: refreshing", zh: "在 {percent:percent} 处松手{by}:正在刷新"),
            SceneEventWords(event: "pull", when: ["phase": "ended"],
                            en: "Pull released at {percent:percent} {by}", zh: "在 {percent:percent} 处松手{by}"),
            SceneEventWords(event: "pull", when: ["phase": "cancelled"],
                            en: "Pull cancelled at {percent:percent}", zh: "在 {percent:percent} 处取消下拉"),
            SceneEventWords(event: "pull", en: "Pulling…", zh: "正在下拉…"),
            SceneEventWords(event: "refresh", when: ["phase": "finishing"], en: "Loaded; finishing…", zh: "已加载,正在收尾…"),
            SceneEventWords(event: "refresh", en: "Refreshing…", zh: "正在刷新…"),
            SceneEventWords(event: "refreshed", en: "Refreshed", zh: "已刷新"),
        ]
    )

    /// Where the pull-to-refresh is.
    public enum Phase: String, Sendable {
        /// Waiting for a controller.
        case idle
        /// A controller is dragging.
        case pulling
        /// Released below the threshold: the cubes run back to form 0.
        case returning
        /// The loop runs while the request is out.
        case refreshing
        /// The finishing animation runs, then the 0.3 s before `refreshed`.
        case finishing
    }

    // The seed's numbers.
    static let animePullSteps = 2
    static let animeRefreshSteps = 8
    static let timingControlPoints: (Float, Float, Float, Float) = (0.24, 0.52, 0.43, 0.8)
    static let loopDelay: CFTimeInterval = 0.1
    static let completionDelay: CFTimeInterval = 0.3
    static let colorTop = CGColor(red: 72 / 255, green: 122 / 255, blue: 200 / 255, alpha: 1)
    static let colorBack = CGColor(red: 89 / 255, green: 117 / 255, blue: 251 / 255, alpha: 1)
    static let colorLeft = CGColor(red: 60 / 255, green: 81 / 255, blue: 220 / 255, alpha: 1)
    static let shadowRect = CGRect(x: 0, y: 0, width: 10, height: 10)
    static let shadowOffset = CGSize(width: -30, height: 30)
    static let shadowColor = CGColor(gray: 0.5, alpha: 1)   // UIColor.grayColor()
    static let shadowOpacity: Float = 0.3
    static let shadowRadius: CGFloat = 0.2

    // Chosen values (the original leaves them open; docs/scenes.md).
    /// The side of a cube face, which the original leaves open.
    static let cubeUnit: CGFloat = 20
    static let halfCubeUnit = cubeUnit / 2
    /// One loop of 8 steps, which the original leaves open.
    static let timeDuration: CFTimeInterval = 2
    static let subTimeDuration = timeDuration / CFTimeInterval(animeRefreshSteps)
    /// The loader's scale and place: a 60 pt cube row, high on the screen like a refresh header.
    static let loaderScale: CGFloat = 3
    static let loaderPosition = CGPoint(x: 207, y: 200)
    /// Points of vertical drag for a 100 % pull.
    static let pullDistance: CGFloat = 120
    /// The pull percent at or above which a release refreshes.
    static let refreshThreshold: CGFloat = 1
    /// The request takes requestMinimum + requestSpread·r seconds: 1–3 s.
    static let requestMinimum: CFTimeInterval = 1
    static let requestSpread: CFTimeInterval = 2
    /// Seconds the cubes take to run back from a full pull (scaled by p).
    static let returnDuration: CFTimeInterval = 0.3
    /// A controller silent this long loses control.
    static let controlTimeout: CFTimeInterval = 5
    static let backgroundColor = CGColor.white
    static let statusColor = CGColor(gray: 0.55, alpha: 1)
    static let statusFontSize: CGFloat = 15
    static let statusFrame = CGRect(x: 0, y: 330, width: 414, height: 20)
    static let pullText = "下拉刷新"
    static let releaseText = "松开刷新"
    static let loadingText = "正在刷新…"

    /// The seed's cube0KeyPoints.
    static let cube0KeyPoints: [CGPoint] = [
        CGPoint(x: -halfCubeUnit, y: -cubeUnit),
        CGPoint(x: halfCubeUnit, y: -cubeUnit),
        CGPoint(x: halfCubeUnit, y: 0),
        CGPoint(x: halfCubeUnit, y: 0),
        CGPoint(x: halfCubeUnit, y: cubeUnit),
        CGPoint(x: -halfCubeUnit, y: cubeUnit),
        CGPoint(x: -halfCubeUnit, y: 0),
        CGPoint(x: -halfCubeUnit, y: 0),
    ]

    /// The seed's allCubeKeyPoints: cube k's list is cube 0's shifted by 2k.
    static let allCubeKeyPoints: [[CGPoint]] = (0..<4).map { k in
        (0..<cube0KeyPoints.count).map { cube0KeyPoints[($0 + 2 * k) % cube0KeyPoints.count] }
    }

    public let layer: CALayer
    /// The seed's transformLayer, parent of the cubes.
    let transformLayer: CATransformLayer
    /// The seed's cube0…cube3, in slot order: `cubes[k]` follows cube k's key points.
    private(set) var cubes: [CATransformLayer]
    let status: CATextLayer
    /// Where the pull-to-refresh is now; `.idle` at the start.
    public private(set) var phase: Phase = .idle
    /// The client whose drag controls the pull.
    public private(set) var controller: String?
    /// The pull percent of the current or last pull.
    public private(set) var percent: CGFloat = 0
    /// Media time the running request returns at.
    private(set) var requestEndsAt: CFTimeInterval?
    private var pullStartY: CGFloat = 0
    private var rng: SeededRandom
    private var events: [SceneEvent] = []
    private var requestTimer: SceneTimer?
    private var controlTimer: SceneTimer?
    private var completionTimer: SceneTimer?
    /// The even step the finishing animation ends on.
    private var finishStep = 0

    public init(seed: UInt64) {
        rng = SeededRandom(seed: seed)
        let size = Self.info.size
        layer = CALayer()
        layer.frame = CGRect(origin: .zero, size: size)
        layer.backgroundColor = Self.backgroundColor

        let loader = CALayer()
        loader.name = "loader"
        loader.position = Self.loaderPosition
        loader.transform = CATransform3DMakeScale(Self.loaderScale, Self.loaderScale, 1)
        layer.addSublayer(loader)

        transformLayer = CATransformLayer()
        transformLayer.name = "cubes"
        cubes = (0..<4).map { Self.getCubeTransformLayer(position: Self.allCubeKeyPoints[$0][0], name: "cube-\($0)") }
        for cube in cubes { transformLayer.addSublayer(cube) }
        var transform = CATransform3D.identity
        transform = CATransform3DRotate(transform, .pi / 4, 1, 0, 0)    // about x by 45°
        transform = CATransform3DRotate(transform, -.pi / 4, 0, 0, 1)   // about z by −45°
        transformLayer.transform = transform
        loader.addSublayer(transformLayer)

        status = CATextLayer()
        status.name = "status"
        status.frame = Self.statusFrame
        status.fontSize = Self.statusFontSize
        status.foregroundColor = Self.statusColor
        status.alignmentMode = .center
        status.string = Self.pullText
        layer.addSublayer(status)
    }

    deinit {
        requestTimer?.invalidate()
        controlTimer?.invalidate()
        completionTimer?.invalidate()
    }

    // MARK: Cubes

    /// The seed's getFaceWithTransform:color:, one single-sided square face.
    private static func getFace(transform: CATransform3D, color: CGColor, name: String) -> CALayer {
        let face = CALayer()
        face.name = name
        face.bounds = CGRect(x: 0, y: 0, width: cubeUnit, height: cubeUnit)
        face.position = .zero
        face.backgroundColor = color
        face.isDoubleSided = false   // do not draw the back
        face.transform = transform
        return face
    }

    /// The seed's getCubeTransformLayerWithPosition: six faces turned outwards, the top one
    /// casting the shadow.
    private static func getCubeTransformLayer(position: CGPoint, name: String) -> CATransformLayer {
        let transTop = CATransform3DMakeTranslation(0, 0, halfCubeUnit)
        let layerTop = getFace(transform: transTop, color: colorTop, name: "\(name)-top")
        var transBottom = CATransform3DMakeTranslation(0, 0, -halfCubeUnit)
        transBottom = CATransform3DRotate(transBottom, .pi, 1, 0, 0)
        let layerBottom = getFace(transform: transBottom, color: colorTop, name: "\(name)-bottom")

        var transBack = CATransform3DMakeTranslation(0, -halfCubeUnit, 0)
        transBack = CATransform3DRotate(transBack, .pi / 2, 1, 0, 0)
        let layerBack = getFace(transform: transBack, color: colorBack, name: "\(name)-back")
        var transFront = CATransform3DMakeTranslation(0, halfCubeUnit, 0)
        transFront = CATransform3DRotate(transFront, -.pi / 2, 1, 0, 0)
        let layerFront = getFace(transform: transFront, color: colorBack, name: "\(name)-front")

        var transLeft = CATransform3DMakeTranslation(-halfCubeUnit, 0, 0)
        transLeft = CATransform3DRotate(transLeft, -.pi / 2, 0, 1, 0)
        let layerLeft = getFace(transform: transLeft, color: colorLeft, name: "\(name)-left")
        var transRight = CATransform3DMakeTranslation(halfCubeUnit, 0, 0)
        transRight = CATransform3DRotate(transRight, .pi / 2, 0, 1, 0)
        let layerRight = getFace(transform: transRight, color: colorLeft, name: "\(name)-right")

        layerTop.shadowPath = CGPath(rect: shadowRect)
        layerTop.shadowOffset = shadowOffset
        layerTop.shadowColor = shadowColor
        layerTop.shadowOpacity = shadowOpacity
        layerTop.shadowRadius = shadowRadius

        let cubeLayer = CATransformLayer()
        cubeLayer.name = name
        cubeLayer.position = position
        cubeLayer.addSublayer(layerTop)
        cubeLayer.addSublayer(layerBottom)
        cubeLayer.addSublayer(layerLeft)
        cubeLayer.addSublayer(layerRight)
        cubeLayer.addSublayer(layerFront)
        cubeLayer.addSublayer(layerBack)
        return cubeLayer
    }

    /// The seed's resetCubes for a standard form: removes every animation and puts cube k on
    /// point 2k. After form `step` (even) the layers are renamed rather than moved: the layer on
    /// point 2k becomes cube k, so nothing on screen changes.
    private func resetCubes(fromForm step: Int = 0) {
        let shift = (step / 2) % cubes.count
        cubes = cubes.indices.map { cubes[($0 - shift + cubes.count) % cubes.count] }
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for (index, cube) in cubes.enumerated() {
            cube.removeAllAnimations()
            cube.position = Self.allCubeKeyPoints[index][0]
        }
        CATransaction.commit()
    }

    // MARK: Pulling

    /// The pull percent of a drag from `startY` to `y`: dy / `pullDistance`, clamped to 0…1.
    static func pullPercent(from startY: CGFloat, to y: CGFloat) -> CGFloat {
        min(max((y - startY) / pullDistance, 0), 1)
    }

    /// The seed's refreshWithPercent: the cubes placed for `percent` with implicit animations off.
    private func refreshWithPercent(_ percent: CGFloat) {
        resetCubes()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for (index, cube) in cubes.enumerated() {
            cube.position = Self.getPosition(percent: percent, index: index)
        }
        CATransaction.commit()
        status.string = percent >= Self.refreshThreshold ? Self.releaseText : Self.pullText
    }

    /// The seed's getPositionWithPercent:index: cube `index`'s place at pull `percent`.
    static func getPosition(percent: CGFloat, index: Int) -> CGPoint {
        let percent = min(percent, 1)
        // The pull runs animePullSteps steps, each 1/animePullSteps of the percent.
        let unitPercent = 1 / CGFloat(animePullSteps)
        let step = Int(percent / unitPercent)
        let subPercent = (percent - CGFloat(step) * unitPercent) / unitPercent
        let cubeKeyPoints = allCubeKeyPoints[index]
        let count = cubeKeyPoints.count
        let pointStart = cubeKeyPoints[step % count]
        let pointEnd = cubeKeyPoints[(step + 1) % count]
        return CGPoint(x: pointStart.x + (pointEnd.x - pointStart.x) * subPercent,
                       y: pointStart.y + (pointEnd.y - pointStart.y) * subPercent)
    }

    /// Taps do nothing: the loader is pulled.
    @discardableResult
    public func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by tapper: Tapper) -> TapOutcome { .ignored }

    public func drag(_ dragPhase: DragPhase, hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by client: String) {
        switch dragPhase {
        case .began:
            guard phase == .idle else { return }
            controller = client
            pullStartY = point.y
            percent = 0
            phase = .pulling
            armControlTimeout()
            events.append(SceneEvent(name: "pull", data: ["phase": "began"], client: client))
        case .moved, .ended, .cancelled:
            guard phase == .pulling, client == controller else { return }
            percent = Self.pullPercent(from: pullStartY, to: point.y)
            refreshWithPercent(percent)
            switch dragPhase {
            case .moved: armControlTimeout()
            case .ended: release(by: client)
            default: cancel()
            }
        }
    }

    /// Starts refreshing when the pull reached the threshold, else runs the cubes back.
    private func release(by client: String) {
        controlTimer?.invalidate()
        let refresh = percent >= Self.refreshThreshold
        events.append(SceneEvent(name: "pull", data: ["phase": "ended", "percent": .number(Double(percent)),
                                                      "refresh": .bool(refresh)], client: client))
        guard refresh else { return runBack() }
        controller = nil
        phase = .refreshing
        status.string = Self.loadingText
        startAnimation()
        let delay = Self.requestMinimum + Self.requestSpread * Double.random(in: 0..<1, using: &rng)
        requestEndsAt = CACurrentMediaTime() + delay
        requestTimer = SceneContext.current.schedule(after: delay) { [weak self] _ in self?.stopAnimation() }
        events.append(SceneEvent(name: "refresh", data: ["phase": "loading"], client: client))
    }

    /// A cancelled pull: announced, then the cubes run back.
    private func cancel() {
        controlTimer?.invalidate()
        events.append(SceneEvent(name: "pull", data: ["phase": "cancelled", "percent": .number(Double(percent))],
                                 client: controller))
        runBack()
    }

    /// (Re)starts the timer that cancels a pull whose controller went silent.
    private func armControlTimeout() {
        controlTimer?.invalidate()
        controlTimer = SceneContext.current.schedule(after: Self.controlTimeout) { [weak self] _ in
            guard let self, self.phase == .pulling else { return }
            self.cancel()
        }
    }

    /// Runs every cube back along its key points to form 0 (paced, easeOut, returnDuration × p),
    /// then the loader is idle.
    private func runBack() {
        controller = nil
        status.string = Self.pullText
        let unitPercent = 1 / CGFloat(Self.animePullSteps)
        let step = Int(min(percent, 1) / unitPercent)
        guard percent > 0 else { phase = .idle; return }
        phase = .returning
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        CATransaction.setCompletionBlock { [weak self] in
            guard let self, self.phase == .returning else { return }
            self.phase = .idle
        }
        for (index, cube) in cubes.enumerated() {
            let points = Self.allCubeKeyPoints[index]
            let animation = CAKeyframeAnimation(keyPath: "position")
            animation.values = [cube.position] + stride(from: step, through: 0, by: -1).map { points[$0 % points.count] }
            animation.calculationMode = .paced
            animation.timingFunction = CAMediaTimingFunction(name: .easeOut)
            animation.duration = Self.returnDuration * Double(percent)
            cube.position = points[0]
            cube.add(animation, forKey: "return")
        }
        CATransaction.commit()
    }

    // MARK: Refreshing

    /// The seed's startAnimation: the endless loop over 8 steps from form 0, starting in 0.1 s.
    private func startAnimation() {
        resetCubes(fromForm: Self.animePullSteps)
        let valueCount = Self.animeRefreshSteps + 1
        let beginTime = CACurrentMediaTime() + Self.loopDelay
        for (index, cube) in cubes.enumerated() {
            let animation = animationWithIndex(index, step: 0, valueCount: valueCount)
            animation.repeatCount = .infinity
            animation.beginTime = beginTime
            cube.add(animation, forKey: "animation")
        }
    }

    /// The seed's animationWithIndex:step:valueCount: cube `index` through `valueCount` key points
    /// from `step`, each segment subTimeDuration long and eased by the seed's Bézier.
    func animationWithIndex(_ index: Int, step: Int, valueCount: Int) -> CAKeyframeAnimation {
        var values: [Any] = []
        var timingFunctions: [CAMediaTimingFunction] = []
        let cubeKeyPoints = Self.allCubeKeyPoints[index]
        let count = cubeKeyPoints.count
        for i in 0..<valueCount {
            values.append(cubeKeyPoints[(step + i) % count])
            if i != valueCount - 1 {   // one timing function fewer than values
                timingFunctions.append(Self.segmentTimingFunction)
            }
        }
        let animation = CAKeyframeAnimation(keyPath: "position")
        animation.values = values
        animation.duration = Self.timeDuration / CFTimeInterval(Self.animeRefreshSteps) * CFTimeInterval(timingFunctions.count)
        animation.calculationMode = .linear
        animation.timingFunctions = timingFunctions
        // Keep the last frame when done.
        animation.isRemovedOnCompletion = false
        animation.fillMode = .both
        return animation
    }

    static let segmentTimingFunction = CAMediaTimingFunction(
        controlPoints: timingControlPoints.0, timingControlPoints.1, timingControlPoints.2, timingControlPoints.3)

    /// The seed's animeEndSteps: segments from `step` to the next standard (even) form after the
    /// current segment.
    static func animeEndSteps(_ step: Int) -> Int { step % 2 == 0 ? 2 : 1 }

    /// The seed's stopAnimation: from the presented positions, on to the next standard form
    /// without a jump.
    private func stopAnimation() {
        requestTimer = nil
        requestEndsAt = nil
        let presentPoints = cubes.map { $0.presentation()?.position ?? $0.position }
        for cube in cubes { cube.removeAllAnimations() }
        let (step, subPercent) = Self.presentInfo(points: presentPoints)
        let valueCount = Self.animeEndSteps(step) + 1
        finishStep = step + valueCount - 1
        let beginTime = CACurrentMediaTime() - Self.subTimeDuration * subPercent
        for (index, cube) in cubes.enumerated() {
            let animation = animationWithIndex(index, step: step, valueCount: valueCount)
            if index == 0 { animation.delegate = CubeStopDelegate(scene: self) }
            animation.beginTime = beginTime
            cube.add(animation, forKey: "animation")
        }
        phase = .finishing
        events.append(SceneEvent(name: "refresh", data: ["phase": "finishing", "step": .number(Double(step)),
                                                         "sub": .number(subPercent)]))
    }

    /// The seed's getPresentInfoWithPoints: the loop segment whose four cube segments lie nearest
    /// `points` (one per cube slot; the first on ties) and the time fraction through it.
    static func presentInfo(points: [CGPoint]) -> (step: Int, subPercent: Double) {
        let count = cube0KeyPoints.count
        func segment(_ cube: Int, _ step: Int) -> (CGPoint, CGPoint) {
            (allCubeKeyPoints[cube][step % count], allCubeKeyPoints[cube][(step + 1) % count])
        }
        let step = (0..<count).min { a, b in
            let da = points.indices.reduce(0) { $0 + distance(points[$1], toSegment: segment($1, a)) }
            let db = points.indices.reduce(0) { $0 + distance(points[$1], toSegment: segment($1, b)) }
            return da < db
        } ?? 0
        // The distance fraction along the longest of the four segments (two may have length 0).
        let cube = points.indices.max { length(segment($0, step)) < length(segment($1, step)) } ?? 0
        let (a, b) = segment(cube, step)
        let u = fraction(of: points[cube], along: (a, b))
        return (step, inverse(segmentTimingFunction, u))
    }

    private static func length(_ s: (CGPoint, CGPoint)) -> CGFloat {
        hypot(s.1.x - s.0.x, s.1.y - s.0.y)
    }

    /// Where `p`'s projection falls on the segment, 0…1 (0 for a segment of length 0).
    private static func fraction(of p: CGPoint, along s: (CGPoint, CGPoint)) -> Double {
        let dx = s.1.x - s.0.x, dy = s.1.y - s.0.y
        let squared = dx * dx + dy * dy
        guard squared > 0 else { return 0 }
        return Double(min(max(((p.x - s.0.x) * dx + (p.y - s.0.y) * dy) / squared, 0), 1))
    }

    private static func distance(_ p: CGPoint, toSegment s: (CGPoint, CGPoint)) -> CGFloat {
        let u = CGFloat(fraction(of: p, along: s))
        return hypot(p.x - (s.0.x + (s.1.x - s.0.x) * u), p.y - (s.0.y + (s.1.y - s.0.y) * u))
    }

    /// The input x in 0…1 at which `function` reaches `y` (the curve rises monotonically: its
    /// control points lie in the unit square), by bisection to 1e-12.
    static func inverse(_ function: CAMediaTimingFunction, _ y: Double) -> Double {
        if y <= 0 { return 0 }
        if y >= 1 { return 1 }
        var low = 0.0, high = 1.0
        while high - low > 1e-12 {
            let middle = (low + high) / 2
            if Double(function.evaluate(CGFloat(middle))) < y { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    /// The seed's animationDidStop:finished: on cube 0's finishing animation.
    fileprivate func finishingAnimationDidStop() {
        resetCubes(fromForm: finishStep)
        completionTimer = SceneContext.current.schedule(after: Self.completionDelay) { [weak self] _ in
            guard let self else { return }
            self.completionTimer = nil
            self.phase = .idle
            self.status.string = Self.pullText
            self.events.append(SceneEvent(name: "refreshed"))
        }
    }

    public func takeEvents() -> [SceneEvent] {
        defer { events = [] }
        return events
    }
}

/// The finishing animation's delegate: hears cube 0's finishing animation stop. Holds the scene
/// weakly (animations retain their delegates).
private final class CubeStopDelegate: CAAnimationDelegate {
    weak var scene: CubesScene?

    init(scene: CubesScene) { self.scene = scene }

    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        if flag { scene?.finishingAnimationDidStop() }
    }
}
