import Foundation
import LayercastEngine
import LayercastJSON

/// Builds a CAAnimation from its JSON description (the ANIMATION object of the sample contract).
enum AnimationDecoder {
    static let keys: Set<String> = [
        "key", "type", "keyPath", "fromValue", "toValue", "byValue", "values", "keyTimes", "timingFunctions",
        "calculationMode", "timingFunction", "beginTime", "duration", "speed", "timeOffset", "repeatCount",
        "repeatDuration", "autoreverses", "fillMode", "removedOnCompletion", "additive", "cumulative",
        "animations", "mass", "stiffness", "damping", "initialVelocity",
    ]

    static func animation(_ json: JSONValue, path: String) throws(SampleError) -> CAAnimation {
        let r = try JSONReader(json, path: path)
        try r.requireOnly(keys, what: "animation")
        let type = try r.string("type") ?? "basic"
        let animation: CAAnimation
        switch type {
        case "basic", "spring":
            let basic = type == "spring" ? CASpringAnimation() : CABasicAnimation()
            let kind = try keyPath(r, into: basic)
            basic.fromValue = try value(r, "fromValue", kind)
            basic.toValue = try value(r, "toValue", kind)
            basic.byValue = try value(r, "byValue", kind)
            if let spring = basic as? CASpringAnimation {
                if let v = try r.number("mass") { spring.mass = v }
                if let v = try r.number("stiffness") { spring.stiffness = v }
                if let v = try r.number("damping") { spring.damping = v }
                if let v = try r.number("initialVelocity") { spring.initialVelocity = v }
            }
            animation = basic
        case "keyframe":
            let keyframe = CAKeyframeAnimation()
            let kind = try keyPath(r, into: keyframe)
            if let values = try r.array("values") {
                var out: [Any] = []
                for (i, v) in values.enumerated() {
                    guard let typed = try JSONReader.value(v, kind: kind, path: "\(r.fieldPath("values"))[\(i)]") else { continue }
                    out.append(typed)
                }
                keyframe.values = out
            }
            if let times = try r.array("keyTimes") {
                var out: [CGFloat] = []
                for (i, t) in times.enumerated() { out.append(CGFloat(try JSONReader.number(t, path: "\(r.fieldPath("keyTimes"))[\(i)]"))) }
                keyframe.keyTimes = out
            }
            if let functions = try r.array("timingFunctions") {
                var out: [CAMediaTimingFunction] = []
                for (i, f) in functions.enumerated() {
                    out.append(try JSONReader.timingFunction(f, path: "\(r.fieldPath("timingFunctions"))[\(i)]"))
                }
                keyframe.timingFunctions = out
            }
            if let mode = try r.string("calculationMode") {
                let known: [CAAnimationCalculationMode] = [.linear, .discrete, .paced, .cubic, .cubicPaced]
                guard let m = known.first(where: { $0.rawValue == mode }) else {
                    throw SampleError(path: r.fieldPath("calculationMode"), message: "unknown calculation mode '\(mode)' (linear, discrete, paced, cubic, cubicPaced)")
                }
                keyframe.calculationMode = m
            }
            animation = keyframe
        case "group":
            let group = CAAnimationGroup()
            var children: [CAAnimation] = []
            for (i, child) in (try r.array("animations") ?? []).enumerated() {
                children.append(try self.animation(child, path: "\(r.fieldPath("animations"))[\(i)]"))
            }
            group.animations = children
            animation = group
        default:
            throw SampleError(path: r.fieldPath("type"), message: "unknown animation type '\(type)' (basic, keyframe, group, spring)")
        }
        try timing(r, into: animation)
        return animation
    }

    /// Sets and checks the key path; returns the kind of value it takes.
    private static func keyPath(_ r: JSONReader, into animation: CAPropertyAnimation) throws(SampleError) -> AnimatableValueKind {
        guard let path = try r.string("keyPath") else { throw SampleError(path: r.fieldPath("keyPath"), message: "missing") }
        guard let parsed = AnimationKeyPath(path) else {
            throw SampleError(path: r.fieldPath("keyPath"), message: "unknown key path '\(path)'")
        }
        animation.keyPath = path
        animation.isAdditive = try r.bool("additive") ?? false
        animation.isCumulative = try r.bool("cumulative") ?? false
        return parsed.valueKind
    }

    private static func value(_ r: JSONReader, _ key: String, _ kind: AnimatableValueKind) throws(SampleError) -> Any? {
        guard r.has(key) else { return nil }
        return try JSONReader.value(r.object[key]!, kind: kind, path: r.fieldPath(key))
    }

    private static func timing(_ r: JSONReader, into a: CAAnimation) throws(SampleError) {
        if let v = try r.number("beginTime") { a.beginTime = v }
        if let v = try r.number("duration") { a.duration = v }
        if let v = try r.number("speed") { a.speed = Float(v) }
        if let v = try r.number("timeOffset") { a.timeOffset = v }
        if let v = try r.number("repeatDuration") { a.repeatDuration = v }
        if let count = r.object["repeatCount"], !count.isNull {
            if count.stringValue == "inf" {
                a.repeatCount = .infinity
            } else {
                a.repeatCount = Float(try JSONReader.number(count, path: r.fieldPath("repeatCount")))
            }
        }
        if let v = try r.bool("autoreverses") { a.autoreverses = v }
        if let mode = try r.string("fillMode") {
            let known: [CAMediaTimingFillMode] = [.removed, .forwards, .backwards, .both]
            guard let m = known.first(where: { $0.rawValue == mode }) else {
                throw SampleError(path: r.fieldPath("fillMode"), message: "unknown fill mode '\(mode)' (removed, forwards, backwards, both)")
            }
            a.fillMode = m
        }
        if let v = try r.bool("removedOnCompletion") { a.isRemovedOnCompletion = v }
        if let f = r.object["timingFunction"], !f.isNull {
            a.timingFunction = try JSONReader.timingFunction(f, path: r.fieldPath("timingFunction"))
        }
    }
}
