import Foundation

/// `--mark-file FILE`, read when the run ends: one mark a line, `SECONDS NAME` with SECONDS from
/// the run's start, or `@UNIX NAME` with wall-clock Unix seconds (`date +@%s.%N`); blank lines and
/// lines starting with `#` are skipped. Anything else is an error naming the file and line.
public enum MarkFile {
    /// The longest name kept: a label on a chart.
    static let maxNameLength = 80

    /// The marks of the file at `path`, for a run that started at Unix time `startedAt`.
    public static func load(path: String, startedAt: Double) throws(LoadError) -> [LoadTimeline.Mark] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw LoadError("cannot read the mark file \(path): \(String(cString: strerror(errno)))") }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let data: Data?
        do {
            data = try handle.readToEnd()
        } catch {
            throw LoadError("cannot read the mark file \(path): \(error.localizedDescription)")
        }
        guard let text = String(data: data ?? Data(), encoding: .utf8) else { throw LoadError("the mark file \(path) is not UTF-8 text") }
        return try parse(text, file: path, startedAt: startedAt)
    }

    /// The marks of `text` (the contents of `file`), for a run that started at Unix time `startedAt`.
    public static func parse(_ text: String, file: String, startedAt: Double) throws(LoadError) -> [LoadTimeline.Mark] {
        var marks: [LoadTimeline.Mark] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(maxSplits: 1, whereSeparator: \.isWhitespace)
            func problem(_ what: String) -> LoadError { LoadError("\(file):\(index + 1): \(what)") }
            let time = parts[0], wallClock = time.hasPrefix("@")
            guard let value = Double(wallClock ? time.dropFirst() : time), value.isFinite else {
                throw problem("\(String(time).debugDescription) is not SECONDS from the start or @UNIX seconds")
            }
            let name = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
            guard !name.isEmpty else { throw problem("a mark needs a name after its time") }
            guard name.count <= maxNameLength else { throw problem("a mark's name is at most \(maxNameLength) characters") }
            marks.append(LoadTimeline.Mark(seconds: wallClock ? value - startedAt : value, name: name))
        }
        return marks
    }
}
