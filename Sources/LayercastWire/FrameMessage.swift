import LayercastJSON
import LayercastSceneAPI

/// The `frame` messages (protocol.md, "frame"): `n` the room's tick, `t` its media time (1e-6 s).
public enum FrameMessage {
    /// `{"type":"frame","n":…,"t":…,"full":true,"items":[…]}`.
    public static func full(_ list: DisplayList, number: Int, time: Double) -> JSONValue {
        FrameEncoder().full(list, number: number, time: time).value
    }

    /// `{"type":"frame","n":…,"t":…,"full":false}` with `b` (the first frame it applies to) when
    /// that is not `number - 1`, and `set`, `add`, `remove` and `order` when they have something to say.
    public static func delta(_ delta: FrameDelta, number: Int, time: Double, base: Int? = nil) -> JSONValue {
        FrameEncoder().delta(delta, number: number, time: time, base: base).value
    }

    /// The frames a delta message applies to: every `m` with `base <= m < number` (protocol.md,
    /// "frame": `b`, or `n - 1` without it). Nil for a message that is not a well-formed delta header.
    public static func deltaRange(_ message: JSONValue) -> Range<Int>? {
        guard case .number(let n)? = message["n"], n >= 1, n < 9e15, n == n.rounded() else { return nil }
        let number = Int(n)
        guard let b = message["b"] else { return (number - 1)..<number }
        guard case .number(let base) = b, base >= 0, base < n, base == base.rounded() else { return nil }
        return Int(base)..<number
    }

    /// The message as a frame of the given kind, checked: `type` "frame", integer `n`, number `t`
    /// and `full` as expected.
    static func frameReader(_ message: JSONValue, full: Bool) throws(ProtocolError) -> FieldReader {
        let frame = try FieldReader(message, path: "frame").object()
        let type = frame.member("type").value
        guard type == "frame" else {
            let got = type?.stringValue.map { "type \"\($0)\"" } ?? "no string type"
            throw ProtocolError(.unknownType, "expected a \"frame\" message, got \(got)")
        }
        _ = try frame.member("n").integer()
        _ = try frame.member("t").number()
        guard try frame.member("full").bool() == full else { throw frame.member("full").error(full ? "true" : "false") }
        return frame
    }
}
