import Foundation
import Layercast

// The book's shorthand initialisers and `center` that this example uses, which the book's examples
// declare for themselves: they compile against Layercast's CoreGraphics types as they do on iOS.

extension CGRect {
    init(_ x: CGFloat, _ y: CGFloat, _ w: CGFloat, _ h: CGFloat) {
        self.init(x: x, y: y, width: w, height: h)
    }
}
extension CGPoint {
    init(_ x: CGFloat, _ y: CGFloat) {
        self.init(x: x, y: y)
    }
}
extension CGRect {
    var center: CGPoint {
        return CGPoint(self.midX, self.midY)
    }
}
