import Testing
@testable import LayercastJSON

// JSONTree and JSONText: trees built straight into jansson write the bytes the same JSONValue
// would, after the requested headroom.

@Suite struct JSONTreeTests {
    @Test func writesWhatTheSameJSONValueWrites() {
        let run = JSONTree.object()
        run.set("t", "+8金币 \"q\"\n")
        run.set("size", 17)
        let numbers = JSONTree.array()
        for x in [0.1, -0.0, 3, 1e20, 2.5e-7, .nan, 9_007_199_254_740_994] { numbers.append(x) }
        let object = JSONTree.object()
        object.set("run", run)
        object.set("numbers", numbers)
        object.set("on", true)
        object.setNull("none")
        object.set("empty", JSONTree.array())
        let value: JSONValue = [
            "run": ["t": "+8金币 \"q\"\n", "size": 17],
            "numbers": [0.1, -0.0, 3, 1e20, 2.5e-7, .number(.nan), 9_007_199_254_740_994],
            "on": true, "none": .null, "empty": [],
        ]
        #expect(object.text().string == value.serialized())
        #expect(object.text().string == #"{"run":{"t":"+8金币 \"q\"\n","size":17},"numbers":[0.1,0,3,1e20,2.5e-7,null,9.00719925474099e15],"on":true,"none":null,"empty":[]}"#)
        // NaN reads back as null, so compare the rest of the value.
        object.setNull("numbers")
        #expect(object.value == ["run": ["t": "+8金币 \"q\"\n", "size": 17], "numbers": .null, "on": true, "none": .null, "empty": []])
    }

    @Test func repeatedKeyKeepsItsPosition() {
        let object = JSONTree.object()
        object.set("a", 1)
        object.set("b", 2)
        object.set("a", "x")
        #expect(object.text().string == #"{"a":"x","b":2}"#)
    }

    @Test func sharedTreesAppearInEveryParent() {
        let shared = JSONTree.array()
        shared.append(1)
        let first = JSONTree.object(), second = JSONTree.array()
        first.set("s", shared)
        second.append(shared)
        second.append(shared)
        #expect(first.text().string == #"{"s":[1]}"#)
        #expect(second.text().string == "[[1],[1]]")
    }

    @Test func changingASharedTreeTraps() async {
        await #expect(processExitsWith: .failure) {
            let child = JSONTree.array()
            JSONTree.object().set("c", child)
            child.append(1)
        }
    }

    @Test func textFollowsTheHeadroom() {
        let array = JSONTree.array()
        for n in 0..<1000 { array.append(Double(n) + 0.5) }  // several KB: the buffer grows
        let expected = JSONValue.array((0..<1000).map { .number(Double($0) + 0.5) }).serialized()
        let text = array.text(headroom: 16)
        #expect(text.headroom == 16 && text.count == expected.utf8.count)
        text.withText { ($0.baseAddress! - 16).update(repeating: 0xFF, count: 16) }  // the headroom is the caller's
        #expect(text.string == expected)
    }

    @Test func valueTextMatchesSerialized() {
        let value: JSONValue = ["type": "pong", "id": 5, "time": 12.5, "deep": [[["x": "ü"]]]]
        let text = value.text(headroom: 8)
        #expect(text.headroom == 8)
        #expect(text.string == value.serialized())
        #expect(JSONValue.string("x").text().string == #""x""#)
    }
}
