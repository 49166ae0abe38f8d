import LayercastJSON
@testable import LayercastLoad
import Testing

@Suite struct PacketBoardTests {
    func frame(_ text: String) throws -> JSONValue { try JSONValue.parse(text) }

    func centres(_ board: PacketBoard) -> [[Double]] {
        board.unclaimedCentres().map { [Double($0.packet), $0.x, $0.y] }
    }

    /// A packet's rect is 44 × 62.5 (RainScene.normalSize); its centre is (22, 31.25) in the rect.
    @Test func fullFrameGivesTheCentresOfUnclaimedPackets() throws {
        var board = PacketBoard()
        board.apply(frame: try frame("""
            {"type":"frame","n":10,"t":1.5,"full":true,"items":[
             {"id":1,"s":[414,736],"bg":"#ffffff"},
             {"id":5,"name":"packet-3","m":[1,0,0,1,100,200],"s":[44,62.5],"img":"rp_normal"},
             {"id":6,"name":"packet-4","m":[0,1,-1,0,300,100],"s":[44,62.5],"img":"rp_normal"},
             {"id":7,"name":"packet-1","m":[1,0,0,1,0,0],"s":[63.5,74],"img":"rp_yes"},
             {"id":8,"name":"packet-x","m":[1,0,0,1,0,0],"s":[44,62.5],"img":"rp_normal"}]}
            """))
        // packet-3: (100 + 22, 200 + 31.25). packet-4, rotated 90°: X = a·x + c·y + tx = −31.25 + 300,
        // Y = b·x + d·y + ty = 22 + 100. packet-1 is claimed (rp_yes), packet-x is not a packet.
        #expect(centres(board) == [[3, 122, 231.25], [4, 268.75, 122]])
    }

    @Test func deltasMoveRemoveAddAndClaim() throws {
        var board = PacketBoard()
        board.apply(frame: try frame("""
            {"type":"frame","n":10,"t":1.5,"full":true,"items":[
             {"id":5,"name":"packet-3","m":[1,0,0,1,100,200],"s":[44,62.5],"img":"rp_normal"},
             {"id":6,"name":"packet-4","m":[1,0,0,1,0,0],"s":[44,62.5],"img":"rp_normal"}]}
            """))
        board.apply(frame: try frame("""
            {"type":"frame","n":11,"t":1.533,"full":false,"set":[{"id":5,"m":[2,0,0,2,10,20]},{"id":6,"img":"rp_no"}],
             "add":[{"id":9,"name":"packet-5","m":[1,0,0,1,50,-62.5],"s":[44,62.5],"img":"rp_normal"}]}
            """))
        // packet-3 scaled by 2: (2·22 + 10, 2·31.25 + 20); packet-4 claimed; packet-5 at (50 + 22, −62.5 + 31.25).
        #expect(centres(board) == [[3, 54, 82.5], [5, 72, -31.25]])
        board.apply(frame: try frame(#"{"type":"frame","n":12,"t":1.567,"full":false,"remove":[9],"set":[{"id":5,"m":null}]}"#))
        // m null is the identity (protocol.md, draw items): the rect's own centre.
        #expect(centres(board) == [[3, 22, 31.25]])
    }

    @Test func projectiveMatrixDividesByW() throws {
        var board = PacketBoard()
        board.apply(frame: try frame("""
            {"type":"frame","n":1,"t":0,"full":true,"items":[
             {"id":2,"name":"packet-0","m":[1,0,0,1,0,0,0.001,0,1],"s":[100,100],"img":"rp_normal"}]}
            """))
        // W = g·x + h·y + w = 0.001·50 + 1 = 1.05; X = Y = 50 / 1.05.
        let centre = try #require(board.unclaimedCentres().first)
        #expect(abs(centre.x - 50 / 1.05) < 1e-12)
        #expect(abs(centre.y - 50 / 1.05) < 1e-12)
    }

    @Test func aFullFrameReplacesEverything() throws {
        var board = PacketBoard()
        board.apply(frame: try frame(#"{"type":"frame","n":1,"t":0,"full":true,"items":[{"id":2,"name":"packet-0","s":[44,62.5],"img":"rp_normal"}]}"#))
        board.apply(frame: try frame(#"{"type":"frame","n":3,"t":0.1,"full":true,"items":[{"id":1,"s":[414,736]}]}"#))
        #expect(board.unclaimedCentres().isEmpty)
    }

    /// A player aims only at packets it has seen for the rain's `minVisible`; the next rain's
    /// packet-0 is new again.
    @Test func aimingWaitsUntilAPacketHasBeenSeenLongEnough() throws {
        var board = PacketBoard()
        board.apply(frame: try frame(#"{"type":"frame","n":1,"t":5,"full":true,"items":[{"id":2,"name":"packet-0","s":[44,62.5],"img":"rp_normal"}]}"#))
        board.apply(frame: try frame(#"{"type":"frame","n":2,"t":5.2,"full":false,"add":[{"id":3,"name":"packet-1","s":[44,62.5],"img":"rp_normal"}]}"#))
        #expect(board.unclaimedCentres(seenFor: 0.3, at: 5.2).map(\.packet) == [])
        #expect(board.unclaimedCentres(seenFor: 0.3, at: 5.3).map(\.packet) == [0])
        #expect(board.unclaimedCentres(seenFor: 0.3, at: 5.5).map(\.packet) == [0, 1])
        board.apply(frame: try frame(#"{"type":"frame","n":3,"t":30,"full":false,"remove":[2,3]}"#))
        board.apply(frame: try frame(#"{"type":"frame","n":4,"t":40,"full":false,"add":[{"id":4,"name":"packet-0","s":[44,62.5],"img":"rp_normal"}]}"#))
        #expect(board.unclaimedCentres(seenFor: 0.3, at: 40.1).map(\.packet) == [])
        #expect(board.unclaimedCentres(seenFor: 0.3, at: 40.3).map(\.packet) == [0])
    }
}
