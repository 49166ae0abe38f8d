import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI

/// An item's text: styled runs laid on one line from the top of the rect, and their alignment.
public struct DrawText: Hashable, Sendable {
    public var runs: [DrawTextRun]
    /// `natural`, `left`, `right`, `center` or `justified`.
    public var alignment: CATextLayerAlignmentMode

    public init(runs: [DrawTextRun], alignment: CATextLayerAlignmentMode = .natural) {
        self.runs = runs
        self.alignment = alignment
    }

    static let alignments: [CATextLayerAlignmentMode] = [.natural, .left, .right, .center, .justified]

    /// The text a layer shows; nil when no run is visible or a number is not finite. All runs are
    /// kept (a transparent run still takes its width); an unknown alignment reads as `natural`.
    init?(_ layer: CATextLayer) {
        let runs = layer.textRuns
        var drawRuns: [DrawTextRun] = []
        drawRuns.reserveCapacity(runs.count)
        for run in runs {
            guard let drawRun = DrawTextRun(run) else { return nil }
            drawRuns.append(drawRun)
        }
        guard drawRuns.contains(where: \.isVisible) else { return nil }
        self.init(runs: drawRuns, alignment: Self.alignments.contains(layer.alignmentMode) ? layer.alignmentMode : .natural)
    }

    /// The object above as a jansson tree.
    var tree: JSONTree {
        let array = JSONTree.array()
        for run in runs { array.append(run.tree) }
        let object = JSONTree.object()
        object.set("runs", array)
        object.set("align", alignment.rawValue)
        return object
    }

    init(_ field: FieldReader) throws(ProtocolError) {
        _ = try field.object()
        var runs: [DrawTextRun] = []
        for run in try field.member("runs").array() { runs.append(try DrawTextRun(run)) }
        let align = field.member("align")
        var alignment = CATextLayerAlignmentMode.natural
        if !align.isAbsent {
            alignment = CATextLayerAlignmentMode(rawValue: try align.string())
            guard Self.alignments.contains(alignment) else {
                throw align.error("natural, left, right, center or justified")
            }
        }
        self.init(runs: runs, alignment: alignment)
    }
}
