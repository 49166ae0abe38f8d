import Foundation

/// A run of text with one style: the attributed-string pieces of a label such as "+8金币".
public struct CATextRun: Hashable, Sendable {
    public var text: String
    public var fontSize: CGFloat
    /// Font weight as UIFont.Weight's raw value: 0 regular, 0.3 semibold, 0.4 bold.
    public var fontWeight: CGFloat
    public var color: CGColor

    public init(_ text: String, fontSize: CGFloat, fontWeight: CGFloat = 0, color: CGColor = .white) {
        self.text = text
        self.fontSize = fontSize
        self.fontWeight = fontWeight
        self.color = color
    }
}

/// How a text layer aligns its lines.
public struct CATextLayerAlignmentMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let natural = CATextLayerAlignmentMode(rawValue: "natural")
    public static let left = CATextLayerAlignmentMode(rawValue: "left")
    public static let right = CATextLayerAlignmentMode(rawValue: "right")
    public static let center = CATextLayerAlignmentMode(rawValue: "center")
    public static let justified = CATextLayerAlignmentMode(rawValue: "justified")
}

/// A layer that shows text: a plain `string` in one style, or styled `runs`.
open class CATextLayer: CALayer {
    public var string: String?
    /// Styled runs; when set they are shown instead of `string`.
    public var runs: [CATextRun]?
    public var fontSize: CGFloat = 36
    public var fontWeight: CGFloat = 0
    public var foregroundColor: CGColor? = .white
    public var alignmentMode: CATextLayerAlignmentMode = .natural

    public override init() { super.init() }

    public required init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CATextLayer {
            string = other.string
            runs = other.runs
            fontSize = other.fontSize
            fontWeight = other.fontWeight
            foregroundColor = other.foregroundColor
            alignmentMode = other.alignmentMode
        }
    }

    /// The text as runs: `runs`, or `string` in the layer's own style.
    public var textRuns: [CATextRun] {
        if let runs { return runs }
        guard let string else { return [] }
        return [CATextRun(string, fontSize: fontSize, fontWeight: fontWeight, color: foregroundColor ?? .white)]
    }
}
