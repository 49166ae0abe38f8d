import Foundation
import LayercastEngine
import LayercastJSON
import Testing
@testable import LayercastWire

// protocol.md, "Quantisation": values are rounded to their steps and written as the shortest
// decimal (integral ones without a fraction), so 0.1 is "0.1", not 0.1000000000000000055.

@Suite("Quantisation")
struct QuantisationTests {
    @Test func itemText() {
        let root = makeRoot()
        root.opacity = 0.5
        let layer = makeLayer(CALayer(), name: "q", frame: .zero, in: root,
                              background: CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.999))
        layer.anchorPoint = .zero          // so the rect's (0,0) sits at the position
        layer.bounds = CGRect(x: 0, y: 0, width: 100 / 3.0, height: 10.004)
        layer.position = CGPoint(x: 0.1, y: 0.1 + 0.2)
        layer.transform = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
        layer.opacity = 0.3
        layer.cornerRadius = 2.5
        // a = d = cos 30° = 0.8660254… → 0.866; b = sin 30° = 0.49999999999999994 → 0.5, c = −0.5;
        // tx = 0.1, ty = 0.30000000000000004 → 0.3 (steps of 1e-2);
        // s = 33.333… → 33.33, 10.004 → 10; o = 0.5 · Float(0.3) = 0.150000006 → 0.15;
        // bg: 0.2·255 = 51 = 0x33, 0.4·255 = 102 = 0x66, 0.6·255 = 153 = 0x99, and alpha
        // 0.999·255 = 254.7 → 255, opaque, so 6 digits.
        let list = DisplayListBuilder().build(root, at: 0)
        let expected = """
            {"id":1,"name":"q","m":[0.866,0.5,-0.5,0.866,0.1,0.3],"s":[33.33,10],"o":0.15,"bg":"#336699","cr":2.5}
            """
        #expect(list.items.map { $0.json.serialized() } == [expected])
        // A frame: n as an integer, t to 1e-6 s (4.0333333… → 4.033333, 4.0 → 4).
        #expect(FrameMessage.full(list, number: 121, time: 4 + 1 / 30.0).serialized() == """
            {"type":"frame","n":121,"t":4.033333,"full":true,"items":[\(expected)]}
            """)
        #expect(FrameMessage.full(DisplayList(), number: 0, time: 4).serialized() == """
            {"type":"frame","n":0,"t":4,"full":true,"items":[]}
            """)
    }

    @Test func steps() throws {
        // Ties round away from zero; no −0 is produced.
        #expect(Quantize.points(0.125) == 0.13)      // 12.5 → 13
        #expect(Quantize.points(-0.125) == -0.13)
        #expect(Quantize.points(-0.004).sign == .plus)
        #expect(Quantize.linear(0.86602540378) == 0.866)
        #expect(Quantize.perspective(-0.00123456789) == -0.0012346)
        #expect(Quantize.fraction(0.0005) == 0.001)
        #expect(Quantize.time(12.3456785) == 12.345679)
        // Quantised values print and parse back to the same double.
        let values: [Double] = [Quantize.points(1234.5678), Quantize.linear(-0.33333333), Quantize.perspective(0.000123456789),
                                Quantize.time(86400.1234567), Quantize.fraction(2 / 3.0)]
        #expect(JSONValue.array(values.map { .number($0) }).serialized() == "[1234.57,-0.3333,0.0001235,86400.123457,0.667]")
        #expect(try JSONValue.parse(JSONValue.array(values.map { .number($0) }).serialized()) == .array(values.map { .number($0) }))
    }

    @Test func colours() {
        #expect(DrawColor(CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)).hex == "#ff8000")
        #expect(DrawColor(CGColor(red: 0, green: 0, blue: 0, alpha: 0.5)).hex == "#00000080")
        // Out of range and non-finite components are clamped / read as 0.
        #expect(DrawColor(CGColor(red: 2, green: -1, blue: .nan, alpha: 1)).hex == "#ff0000")
        #expect(DrawColor(hex: "#FF8000") == DrawColor(red: 255, green: 128, blue: 0))
        #expect(DrawColor(hex: "#00000080") == DrawColor(red: 0, green: 0, blue: 0, alpha: 128))
        for bad in ["", "#", "ff8000", "#ff800", "#ff8000a", "#gg8000", "#ff8000ff00"] {
            #expect(DrawColor(hex: bad) == nil, "\(bad)")
        }
    }
}
