import LayercastJSON
import Testing
@testable import LayercastWire

// FrameEncoder writes FrameMessage's bytes; reusing the trees of unchanged items across full
// frames changes nothing in them.

@Suite("Frame encoder")
struct FrameEncoderTests {
    private let red = DrawColor(red: 255, green: 0, blue: 0)

    @Test func fullFramesReuseOnlyUnchangedItems() {
        let a = DrawItem(id: 1, name: "a", width: 10, height: 10, background: red)
        let b = DrawItem(id: 2, name: "b", matrix: DrawMatrix(a: 0.5, b: 0, c: 0, d: 0.5, tx: 1.25, ty: 0, g: 1e-7, h: 0), width: 4, height: 4)
        var movedB = b
        movedB.matrix.tx = 3
        let c = DrawItem(id: 3, opacity: 0.5, text: DrawText(runs: [DrawTextRun(text: "+8", size: 17, color: red)]),
                         shadow: DrawShadow(color: red, opacity: 0.5, dx: 0, dy: 3, radius: 4))
        let lists = [
            DisplayList(items: [a, b]),
            DisplayList(items: [a, movedB, c]),  // a kept, b changed, c new
            DisplayList(items: [c, a]),          // reordered, b gone
            DisplayList(items: [b, c]),          // b back as it first was, a gone
            DisplayList(),
            DisplayList(items: [a]),
        ]
        let encoder = FrameEncoder()
        for (n, list) in lists.enumerated() {
            #expect(encoder.full(list, number: n, time: 0.5).text().string == FrameMessage.full(list, number: n, time: 0.5).serialized(), "frame \(n)")
        }
        #expect(encoder.full(lists[2], number: 9, time: 1).text().string == """
            {"type":"frame","n":9,"t":1,"full":true,"items":[\
            {"id":3,"o":0.5,"text":{"runs":[{"t":"+8","size":17,"weight":0,"c":"#ff0000"}],"align":"natural"},\
            "sh":{"c":"#ff0000","o":0.5,"dx":0,"dy":3,"r":4}},{"id":1,"name":"a","s":[10,10],"bg":"#ff0000"}]}
            """)
    }

    @Test func deltaMatchesFrameMessage() {
        let old = DisplayList(items: [DrawItem(id: 1, width: 1, background: red), DrawItem(id: 2, width: 1)])
        let new = DisplayList(items: [DrawItem(id: 3, name: "c", width: 2), DrawItem(id: 1, width: 1, opacity: 0.25)])
        let delta = FrameDelta.from(old, to: new)
        #expect(FrameEncoder().delta(delta, number: 7, time: 0.25).text().string == FrameMessage.delta(delta, number: 7, time: 0.25).serialized())
        #expect(FrameEncoder().delta(delta, number: 7, time: 0.25).text().string == """
            {"type":"frame","n":7,"t":0.25,"full":false,"set":[{"id":1,"o":0.25,"bg":null}],\
            "add":[{"id":3,"name":"c","s":[2,0]}],"remove":[2],"order":[3,1]}
            """)
    }
}
