import Foundation

/// A run of text with one style: the attributed-string pieces of a label such as "+8金币".
public struct CATextRun: Hashable, Sendable {
    /// The run's characters.
    public var text: String
    /// The font size in points.
    public var fontSize: CGFloat
    /// Font weight as UIFont.Weight's raw value: 0 regular, 0.3 semibold, 0.4 bold.
    public var fontWeight: CGFloat
    /// The text colour.
    public var color: CGColor

    /// A run of `text` in one style; regular white by default.
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

    /// By the writing direction: left for left-to-right text (the default).
    public static let natural = CATextLayerAlignmentMode(rawValue: "natural")
    /// Lines aligned to the left edge.
    public static let left = CATextLayerAlignmentMode(rawValue: "left")
    /// Lines aligned to the right edge.
    public static let right = CATextLayerAlignmentMode(rawValue: "right")
    /// Lines centred in the bounds.
    public static let center = CATextLayerAlignmentMode(rawValue: "center")
    /// Stretched to both edges; text is one line, so it stays left-aligned as a justified last line does.
    public static let justified = CATextLayerAlignmentMode(rawValue: "justified")
}

/// A layer that shows text: a plain `string` in one style, or styled `runs`.
open class CATextLayer: CALayer {
    /// The text shown in the layer's one style; ignored while `runs` is set.
    public var string: String?
    /// Styled runs; when set they are shown instead of `string`.
    public var runs: [CATextRun]?
    /// The font size of `string` in points; 36 by default, as on iOS.
    public var fontSize: CGFloat = 36
    /// The font weight of `string` as `UIFont.Weight`'s raw value; 0 (regular) by default.
    public var fontWeight: CGFloat = 0
    /// The colour of `string`; opaque white by default (nil draws white).
    public var foregroundColor: CGColor? = .white
    /// How the text lines up in the bounds; `.natural` by default.
    public var alignmentMode: CATextLayerAlignmentMode = .natural

    /// A text layer with no text.
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
