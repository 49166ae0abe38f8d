import Foundation
import Testing
import LayercastEngine

// CGVector as Core Graphics has it (issue 39): components, `.zero`, equality and hashing.

@Test func vectorHasCoreGraphicsInitializersAndZero() {
    let v = CGVector(dx: 3, dy: -4)
    #expect(v.dx == 3)
    #expect(v.dy == -4)
    #expect(CGVector.zero == CGVector(dx: 0, dy: 0))
    #expect(CGVector() == .zero)
    #expect(CGVector(dx: 1.5, dy: 2.5) == CGVector(dx: CGFloat(1.5), dy: CGFloat(2.5)))
    #expect(v != CGVector(dx: -4, dy: 3))
    #expect(Set([CGVector(dx: 1, dy: 2), CGVector(dx: 1.0, dy: 2.0), CGVector(dx: 2, dy: 1)]).count == 2)
}
