@testable import LayercastLoad
import Testing

@Suite struct MarkFileTests {
    @Test func marksAreSecondsFromTheStartOrUnixTimes() throws {
        let text = "# the storm bench\n1.5 kill node-2\n\n  @1000.25\trestart   node-2  \n12 x\n"
        let marks = try MarkFile.parse(text, file: "marks.txt", startedAt: 990)
        #expect(marks == [.init(seconds: 1.5, name: "kill node-2"), .init(seconds: 10.25, name: "restart   node-2"), .init(seconds: 12, name: "x")])
    }

    @Test(arguments: [
        ("1 ok\nsoon kill\n", "marks.txt:2: \"soon\" is not SECONDS from the start or @UNIX seconds"),
        ("3\n", "marks.txt:1: a mark needs a name after its time"),
        ("@nan x\n", "marks.txt:1: \"@nan\" is not SECONDS from the start or @UNIX seconds"),
        ("1 " + String(repeating: "n", count: 81) + "\n", "marks.txt:1: a mark's name is at most 80 characters"),
    ])
    func aBadLineIsNamed(text: String, message: String) {
        let error = #expect(throws: LoadError.self) { try MarkFile.parse(text, file: "marks.txt", startedAt: 0) }
        #expect(error?.description == message)
    }

    @Test func aMissingFileSaysWhy() {
        let error = #expect(throws: LoadError.self) { try MarkFile.load(path: "/nonexistent/marks.txt", startedAt: 0) }
        #expect(error?.description == "cannot read the mark file /nonexistent/marks.txt: No such file or directory")
    }
}
