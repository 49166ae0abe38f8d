import Testing
@testable import LayercastJSON

@Suite struct JSONValueTests {
    // MARK: Round trips

    @Test func nestedObjectsKeepKeyOrder() throws {
        let text = #"{"z":1,"a":{"y":true,"b":null,"k":"v"},"m":[1,2,{"q":"r","c":false}],"b":0.5}"#
        let value = try JSONValue.parse(text)
        #expect(value.objectValue?.keys == ["z", "a", "m", "b"])
        #expect(value["a"]?.objectValue?.keys == ["y", "b", "k"])
        #expect(value["m"]?[2]?.objectValue?.keys == ["q", "c"])
        #expect(value.serialized() == text)
        #expect(try JSONValue.parse(value.serialized()) == value)
    }

    @Test func builtObjectsSerializeInInsertionOrder() {
        let value: JSONValue = ["zeta": 1, "alpha": [true, .null, "x"], "mid": ["b": 2, "a": 1]]
        #expect(value.serialized() == #"{"zeta":1,"alpha":[true,null,"x"],"mid":{"b":2,"a":1}}"#)
    }

    @Test func unicodeStringsRoundTripAsUTF8() throws {
        let value: JSONValue = ["label": "+8金币", "emoji": "🎉 é", "escaped": "\u{7F}\u{2028}"]
        let text = value.serialized()
        #expect(text.contains("+8金币"))
        #expect(text.contains("🎉 é"))
        #expect(!text.contains("\\u91d1"))
        #expect(try JSONValue.parse(text) == value)
        #expect(try JSONValue.parse(#""\u91d1\u5e01 \ud83c\udf89""#) == "金币 🎉")
    }

    @Test func escapedCharactersRoundTrip() throws {
        let tricky = "say \"hi\" \\ path/to\n\ttab\r\u{08}\u{0C}\u{01}"
        let text = JSONValue.string(tricky).serialized()
        #expect(text == #""say \"hi\" \\ path/to\n\ttab\r\b\f\u0001""#)
        #expect(try JSONValue.parse(text) == .string(tricky))
        #expect(try JSONValue.parse(#""\/\"""#) == "/\"")
    }

    @Test func emptyContainersAndStrings() throws {
        for text in ["{}", "[]", #""""#, #"{"a":[],"b":{},"c":""}"#, "[[],{},[[]]]"] {
            let value = try JSONValue.parse(text)
            #expect(value.serialized() == text)
        }
        #expect(try JSONValue.parse("{}") == .object(JSONObject()))
        #expect(try JSONValue.parse("[]") == .array([]))
        #expect(try JSONValue.parse(" [ ] ").arrayValue?.isEmpty == true)
    }

    @Test func prettyPrinting() throws {
        let value: JSONValue = ["a": [1, 2], "b": [:], "c": []]
        let expected = """
            {
              "a": [
                1,
                2
              ],
              "b": {},
              "c": []
            }
            """
        #expect(value.serialized(pretty: true) == expected)
        #expect(try JSONValue.parse(expected) == value)
        #expect(JSONValue.number(7).serialized(pretty: true) == "7")
    }

    // MARK: Numbers

    @Test func integralNumbersPrintAsIntegers() throws {
        #expect(JSONValue.number(3.0).serialized() == "3")
        #expect(JSONValue.number(-2).serialized() == "-2")
        #expect(JSONValue.number(0).serialized() == "0")
        #expect(JSONValue.number(-0.0).serialized() == "0")
        #expect(JSONValue.number(9_007_199_254_740_992).serialized() == "9007199254740992")
        #expect(JSONValue.number(-9_007_199_254_740_992).serialized() == "-9007199254740992")
        #expect(try JSONValue.parse("3.0") == 3)
        #expect(try JSONValue.parse("3.0").serialized() == "3")
        #expect(try JSONValue.parse("1E2") == 100)
        #expect(try JSONValue.parse("-0").serialized() == "0")
    }

    @Test func realNumbersPrintWithFifteenDigits() throws {
        #expect(JSONValue.number(3.5).serialized() == "3.5")
        #expect(JSONValue.number(0.1).serialized() == "0.1")
        #expect(JSONValue.number(-0.25).serialized() == "-0.25")
        #expect(JSONValue.number(1e20).serialized() == "1e20")
        #expect(JSONValue.number(1.5e-7).serialized() == "1.5e-7")
        #expect(JSONValue.number(0.1 + 0.2).serialized() == "0.3")
        // Beyond 2^53 numbers are written as reals: still parseable JSON with the same magnitude.
        let big = try JSONValue.parse(JSONValue.number(9_007_199_254_740_994).serialized())
        #expect(abs((big.doubleValue ?? 0) - 9_007_199_254_740_994) < 1e3)
        #expect(try JSONValue.parse(JSONValue.number(1.25e300).serialized()) == 1.25e300)
    }

    @Test func hugeIntegersParseAsDoubles() throws {
        // Too big for jansson's json_int_t; read as doubles (precision beyond 2^53 is lost).
        let value = try JSONValue.parse("123456789012345678901234567890")
        #expect(value == .number(123456789012345678901234567890.0))
        #expect(try JSONValue.parse("9007199254740993") == .number(9_007_199_254_740_992))
    }

    @Test func nonFiniteNumbersSerializeAsNull() {
        #expect(JSONValue.number(.nan).serialized() == "null")
        #expect(JSONValue.number(.infinity).serialized() == "null")
        #expect(JSONValue.array([.number(-.infinity), 1]).serialized() == "[null,1]")
    }

    // MARK: Errors

    @Test func malformedJSONReportsLineAndColumn() {
        let text = "{\n  \"a\": 1,\n  x\n}"
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
        do {
            _ = try JSONValue.parse(text)
            Issue.record("expected a parse error")
        } catch {
            #expect(error.line == 3)
            #expect(error.column == 3)
            #expect(error.message.contains("near 'x'"))
            #expect(error.description.hasPrefix("line 3, column 3: "))
        }
    }

    @Test func errorColumnAndMessageForUnclosedArray() {
        do {
            _ = try JSONValue.parse("[1, 2,\n  3,\n  4")
            Issue.record("expected a parse error")
        } catch {
            #expect(error.line == 3)
            #expect(error.message.contains("end of file"))
            #expect(error.description == "line \(error.line), column \(error.column): \(error.message)")
        }
    }

    @Test(arguments: ["", "   ", "[1,]", "{\"a\" 1}", "{'a':1}", "[1] [2]", "tru", "01", "\"unterminated",
                      "{\"a\":1,}", "[\"tab\there\"]", "// comment\n1"])
    func malformedDocumentsAreRejected(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
    }

    @Test func duplicateKeysAreRejected() {
        do {
            _ = try JSONValue.parse(#"{"a":1,"b":{"x":1,"x":2}}"#)
            Issue.record("expected a parse error")
        } catch {
            #expect(error.message.contains("duplicate"))
            #expect(error.line == 1)
        }
        #expect(throws: JSONParseError.self) { try JSONValue.parse(#"{"a":1,"a":1}"#) }
        // The same key in different objects is fine.
        #expect(throws: Never.self) { try JSONValue.parse(#"[{"a":1},{"a":2}]"#) }
    }

    @Test(arguments: ["NaN", "Infinity", "-Infinity", "[NaN]", #"{"x":Infinity}"#, "nan", "inf"])
    func nonFiniteLiteralsAreRejected(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
    }

    @Test(arguments: ["1e400", "-1e400", "[1e400]", #"{"x":-1.5e309}"#])
    func overflowingNumbersAreRejected(text: String) {
        do {
            let value = try JSONValue.parse(text)
            Issue.record("accepted \(text) as \(value)")
        } catch {
            #expect(error.message.contains("real number overflow"))
        }
    }

    @Test func tinyNumbersUnderflowToZeroOrSubnormal() throws {
        #expect(try JSONValue.parse("1e-400").doubleValue.map { $0 >= 0 && $0 < 1e-300 } == true)
    }

    @Test func excessiveNestingIsAnErrorNotACrash() throws {
        func nested(_ depth: Int) -> String {
            String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        }
        let limit = JSONValue.maximumNestingDepth
        #expect(try JSONValue.parse(nested(limit)).serialized() == nested(limit))
        #expect(throws: JSONParseError.self) { try JSONValue.parse(nested(limit + 1)) }
        #expect(throws: JSONParseError.self) { try JSONValue.parse(nested(100_000)) }
        // The innermost scalar counts as a level too.
        func objects(_ depth: Int) -> String {
            String(repeating: #"{"a":"#, count: depth - 1) + "1" + String(repeating: "}", count: depth - 1)
        }
        #expect(try JSONValue.parse(objects(limit)).serialized() == objects(limit))
        #expect(throws: JSONParseError.self) { try JSONValue.parse(objects(limit + 1)) }
    }

    @Test func serializingTooDeepAValueTraps() async {
        await #expect(processExitsWith: .failure) {
            var value: JSONValue = 1  // depth maximumNestingDepth + 1 once wrapped
            for _ in 0..<JSONValue.maximumNestingDepth { value = [value] }
            _ = value.serialized()
        }
    }

    // MARK: Accepted inputs

    @Test func topLevelScalarsAreAccepted() throws {
        #expect(try JSONValue.parse("3") == 3)
        #expect(try JSONValue.parse(" -1.5 ") == -1.5)
        #expect(try JSONValue.parse(#""text""#) == "text")
        #expect(try JSONValue.parse("true") == true)
        #expect(try JSONValue.parse("false") == false)
        #expect(try JSONValue.parse("null") == .null)
        #expect(try JSONValue.parse("null").isNull)
        #expect(JSONValue.string("s").serialized() == #""s""#)
        #expect(JSONValue.bool(true).serialized() == "true")
        #expect(JSONValue.null.serialized() == "null")
    }

    @Test func embeddedNULIsPreserved() throws {
        let value = try JSONValue.parse(#"{"k":"a\u0000b"}"#)
        let string = try #require(value["k"]?.stringValue)
        #expect(string == "a\u{0}b")
        #expect(Array(string.utf8) == [0x61, 0x00, 0x62])
        #expect(value.serialized() == #"{"k":"a\u0000b"}"#)
        #expect(JSONValue.string("\u{0}").serialized() == #""\u0000""#)
        #expect(try JSONValue.parse(JSONValue.string("x\u{0}\u{0}y").serialized()) == "x\u{0}\u{0}y")
    }

    @Test func largeArrayParses() throws {
        let count = 10_000
        let text = "[" + (0..<count).map { "\($0)" }.joined(separator: ",") + "]"
        let value = try JSONValue.parse(text)
        let elements = try #require(value.arrayValue)
        #expect(elements.count == count)
        #expect(elements.first == 0)
        #expect(elements.last == .number(Double(count - 1)))
        #expect(value.serialized() == text)
    }

    @Test func parsesUTF8Bytes() throws {
        let bytes: [UInt8] = Array(#"{"a":[1,"é"]}"#.utf8)
        let value = try bytes.withUnsafeBytes { try JSONValue.parse(bytes: $0) }
        #expect(value == ["a": [1, "é"]])
        // Invalid UTF-8 is rejected.
        let invalid: [UInt8] = [0x22, 0xFF, 0x22]
        #expect(throws: JSONParseError.self) {
            try invalid.withUnsafeBytes { try JSONValue.parse(bytes: $0) }
        }
        // An empty buffer is an error, not a crash.
        #expect(throws: JSONParseError.self) { try JSONValue.parse(bytes: UnsafeRawBufferPointer(start: nil, count: 0)) }
    }

    // MARK: Building and accessing

    @Test func literalsAndAccessors() {
        let value: JSONValue = ["n": 2, "f": 2.5, "s": "x", "b": true, "z": .null, "a": [1], "o": ["k": "v"]]
        #expect(value["n"]?.doubleValue == 2)
        #expect(value["n"]?.intValue == 2)
        #expect(value["f"]?.intValue == nil)
        #expect(value["f"]?.doubleValue == 2.5)
        #expect(value["s"]?.stringValue == "x")
        #expect(value["b"]?.boolValue == true)
        #expect(value["z"]?.isNull == true)
        #expect(value["a"]?.arrayValue == [1])
        #expect(value["o"]?.objectValue?["k"] == "v")
        #expect(value["missing"] == nil)
        #expect(value["s"]?.doubleValue == nil)
        #expect(value[0] == nil)
        #expect(value.objectValue?.count == 7)
        let names = [JSONValue.null, true, 1, "s", [], [:]].map(\.typeName)
        #expect(names == ["null", "boolean", "number", "string", "array", "object"])
    }

    @Test func objectMembers() {
        var object = JSONObject([("b", 1), ("a", 2), ("b", 3)])
        #expect(object.keys == ["b", "a"])
        #expect(object["b"] == 3)
        object["c"] = .null
        #expect(object.keys == ["b", "a", "c"])
        #expect(object.contains(key: "c"))
        object["b"] = nil
        #expect(object.keys == ["a", "c"])
        #expect(object["a"] == 2)
        object["a"] = "new"
        #expect(object.keys == ["a", "c"])
        #expect(Array(object.map(\.key)) == ["a", "c"])
        #expect(object.values == ["new", .null])
        #expect(JSONValue.object(object).serialized() == #"{"a":"new","c":null}"#)
    }

    @Test func objectEqualityIgnoresMemberOrder() throws {
        let a = try JSONValue.parse(#"{"x":1,"y":[1,2]}"#)
        let b = try JSONValue.parse(#"{"y":[1,2],"x":1}"#)
        #expect(a == b)
        #expect(a.objectValue?.keys != b.objectValue?.keys)
        #expect(try JSONValue.parse(#"{"x":1}"#) != JSONValue.parse(#"{"x":2}"#))
        #expect(try JSONValue.parse(#"{"x":1}"#) != JSONValue.parse(#"{"x":1,"y":1}"#))
        #expect(try JSONValue.parse("[1,2]") != JSONValue.parse("[2,1]"))
    }
}
