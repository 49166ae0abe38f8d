import Foundation

extension CALayer {
    /// The middle of `frame` in the superlayer's coordinates, as `UIView.center` (a layer has no
    /// `center` on Apple platforms: this is for code ported from views). Setting it moves
    /// `position` by the difference and leaves bounds and transform alone; with the default
    /// `anchorPoint` (0.5, 0.5) and a transform about it, `center` is `position`.
    public var center: CGPoint {
        get { CGPoint(x: frame.midX, y: frame.midY) }
        set {
            let old = center
            position = CGPoint(x: position.x + newValue.x - old.x, y: position.y + newValue.y - old.y)
        }
    }
}
