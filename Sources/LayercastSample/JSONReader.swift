import Foundation
import LayercastEngine
import LayercastJSON

/// Reads typed fields out of one JSON object, reporting problems with the field's path.
struct JSONReader {
    let object: JSONObject
    let path: String

    init(_ value: JSONValue, path: String) throws(SampleError) {
        guard let object = value.objectValue else {
            throw SampleError(path: path, message: "must be an object, not \(value.typeName)")
        }
        self.object = object
        self.path = path
    }

    func fieldPath(_ key: String) -> String { "\(path).\(key)" }

    /// Fails on any key outside `allowed`.
    func requireOnly(_ allowed: Set<String>, what: String) throws(SampleError) {
        for key in object.keys where !allowed.contains(key) {
            throw SampleError(path: fieldPath(key), message: "unknown \(what) property")
        }
    }

    func has(_ key: String) -> Bool { object[key].map { !$0.isNull } ?? false }

    func number(_ key: String) throws(SampleError) -> Double? {
        guard let value = object[key], !value.isNull else { return nil }
        return try Self.number(value, path: fieldPath(key))
    }

    /// A number for a property that is `Float` in Apple's API: within Float's range, rounded to it.
    func float(_ key: String) throws(SampleError) -> Float? {
        guard let x = try number(key) else { return nil }
        guard abs(x) <= Double(Float.greatestFiniteMagnitude) else {
            throw SampleError(path: fieldPath(key), message: "must be within ±\(Double(Float.greatestFiniteMagnitude)) (single precision)")
        }
        return Float(x)
    }

    /// An integer in `range`.
    func integer(_ key: String, in range: ClosedRange<Int>) throws(SampleError) -> Int? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let n = value.intValue, range.contains(n) else {
            throw SampleError(path: fieldPath(key), message: "must be an integer in \(range.lowerBound)…\(range.upperBound)")
        }
        return n
    }

    func bool(_ key: String) throws(SampleError) -> Bool? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let b = value.boolValue else { throw SampleError(path: fieldPath(key), message: "must be true or false, not \(value.typeName)") }
        return b
    }

    func string(_ key: String) throws(SampleError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let s = value.stringValue else { throw SampleError(path: fieldPath(key), message: "must be a string, not \(value.typeName)") }
        return s
    }

    func array(_ key: String) throws(SampleError) -> [JSONValue]? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let a = value.arrayValue else { throw SampleError(path: fieldPath(key), message: "must be an array, not \(value.typeName)") }
        return a
    }

    func numbers(_ key: String, count: Int) throws(SampleError) -> [CGFloat]? {
        guard let value = object[key], !value.isNull else { return nil }
        return try Self.numbers(value, count: count, path: fieldPath(key))
    }

    static func number(_ value: JSONValue, path: String) throws(SampleError) -> Double {
        guard let x = value.doubleValue else { throw SampleError(path: path, message: "must be a number, not \(value.typeName)") }
        guard x.isFinite else { throw SampleError(path: path, message: "must be finite") }
        return x
    }

    static func numbers(_ value: JSONValue, count: Int, path: String) throws(SampleError) -> [CGFloat] {
        guard let items = value.arrayValue, items.count == count else {
            throw SampleError(path: path, message: "must be an array of \(count) numbers")
        }
        var out: [CGFloat] = []
        for (i, item) in items.enumerated() { out.append(CGFloat(try number(item, path: "\(path)[\(i)]"))) }
        return out
    }

    /// A value of the given kind: a number, [x,y], [w,h], [x,y,w,h], [r,g,b,a], 16 numbers,
    /// a boolean, an image name, a PATH, a list of colours or a list of numbers.
    static func value(_ json: JSONValue, kind: AnimatableValueKind, path: String) throws(SampleError) -> Any? {
        switch kind {
        case .scalar: return CGFloat(try number(json, path: path))
        case .point:
            let c = try numbers(json, count: 2, path: path)
            return CGPoint(x: c[0], y: c[1])
        case .size:
            let c = try numbers(json, count: 2, path: path)
            return CGSize(width: c[0], height: c[1])
        case .rect:
            let c = try numbers(json, count: 4, path: path)
            return CGRect(x: c[0], y: c[1], width: c[2], height: c[3])
        case .color:
            let c = try numbers(json, count: 4, path: path)
            return CGColor(red: c[0], green: c[1], blue: c[2], alpha: c[3])
        case .transform:
            return CATransform3D(components: try numbers(json, count: 16, path: path))
        case .bool:
            if let b = json.boolValue { return b }
            throw SampleError(path: path, message: "must be true or false, not \(json.typeName)")
        case .image:
            if json.isNull { return nil }
            if let name = json.stringValue { return CGImage(named: name) }
            throw SampleError(path: path, message: "must be an image name or null, not \(json.typeName)")
        case .path: return try CGPath.sample(json, path: path)
        case .colors: return try colors(json, path: path)
        case .numbers: return try list(json, path: path)
        }
    }

    /// The most entries a colour or number list (`colors`, `locations`) may have.
    static let listLimit = 1_000

    /// A list of `[r, g, b, a]` colours, at most `listLimit` long.
    static func colors(_ json: JSONValue, path: String) throws(SampleError) -> [CGColor] {
        guard let items = json.arrayValue else { throw SampleError(path: path, message: "must be an array of colours, not \(json.typeName)") }
        guard items.count <= listLimit else { throw SampleError(path: path, message: "has \(items.count) entries, more than \(listLimit)") }
        var out: [CGColor] = []
        for (i, item) in items.enumerated() {
            let c = try numbers(item, count: 4, path: "\(path)[\(i)]")
            out.append(CGColor(red: c[0], green: c[1], blue: c[2], alpha: c[3]))
        }
        return out
    }

    /// A list of numbers, at most `listLimit` long.
    static func list(_ json: JSONValue, path: String) throws(SampleError) -> [CGFloat] {
        guard let items = json.arrayValue else { throw SampleError(path: path, message: "must be an array of numbers, not \(json.typeName)") }
        guard items.count <= listLimit else { throw SampleError(path: path, message: "has \(items.count) entries, more than \(listLimit)") }
        var out: [CGFloat] = []
        for (i, item) in items.enumerated() { out.append(CGFloat(try number(item, path: "\(path)[\(i)]"))) }
        return out
    }

    /// A timing function: a name or four control-point numbers.
    static func timingFunction(_ json: JSONValue, path: String) throws(SampleError) -> CAMediaTimingFunction {
        if let name = json.stringValue {
            let known: [String: CAMediaTimingFunctionName] = [
                "linear": .linear, "easeIn": .easeIn, "easeOut": .easeOut, "easeInEaseOut": .easeInEaseOut, "default": .default,
            ]
            guard let n = known[name] else {
                throw SampleError(path: path, message: "unknown timing function '\(name)' (linear, easeIn, easeOut, easeInEaseOut, default)")
            }
            return CAMediaTimingFunction(name: n)
        }
        let c = try numbers(json, count: 4, path: path)
        guard (0...1).contains(c[0]), (0...1).contains(c[2]) else {
            throw SampleError(path: path, message: "control point x values must be in 0…1")
        }
        return CAMediaTimingFunction(controlPoints: Float(c[0]), Float(c[1]), Float(c[2]), Float(c[3]))
    }
}
