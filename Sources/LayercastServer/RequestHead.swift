import LayercastWire

/// The head of one HTTP/1.x request exactly as it arrived: request line and header lines, the
/// names in their original case and spacing. Parsing finds the lines; RequestFraming judges them.
struct RequestHead {
    let method: String
    let target: String
    let version: String
    /// Each header line split at its first colon: the raw name (nothing trimmed) and the value
    /// without leading and trailing spaces and tabs.
    let fields: [(name: String, value: String)]
    /// Header lines that begin with a space or tab (obsolete line folding), or have no colon.
    let malformedLines: Int

    /// The head at the start of `bytes` and its length in bytes (through the empty line), or nil
    /// while the empty line that ends it has not arrived. Lines end in CRLF or a bare LF.
    static func parse(_ bytes: some Collection<UInt8>) -> (head: Result<RequestHead, RequestRefusal>, length: Int)? {
        let data = Array(bytes)
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        var end: Int?
        for index in data.indices where data[index] == 0x0A {
            var line = data[start..<index]
            if line.last == 0x0D { line = line.dropLast() }
            start = index + 1
            if line.isEmpty {
                if lines.isEmpty { continue }  // RFC 9112 §2.2: empty lines before the request line
                end = start
                break
            }
            lines.append(line)
        }
        guard let end else { return nil }
        return (read(lines), end)
    }

    private static func read(_ lines: [ArraySlice<UInt8>]) -> Result<RequestHead, RequestRefusal> {
        if lines.contains(where: { $0.contains(0x0D) || $0.contains(0x00) }) {
            return .failure(.badRequest(.badRequestLine, "a bare CR or a NUL in the request head"))
        }
        let parts = lines[0].split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, let version = String(validating: parts[2], as: UTF8.self),
              version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return .failure(.badRequest(.badRequestLine, "the request line must be METHOD SP TARGET SP HTTP/1.1"))
        }
        var fields: [(name: String, value: String)] = []
        var malformed = 0
        for line in lines.dropFirst() {
            guard line.first != 0x20, line.first != 0x09, let colon = line.firstIndex(of: 0x3A) else {
                malformed += 1
                continue
            }
            let value = line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
            let trimmed = value.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
            fields.append((String(decoding: line[..<colon], as: UTF8.self), String(decoding: trimmed, as: UTF8.self)))
        }
        return .success(RequestHead(method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: parts[1], as: UTF8.self),
                                    version: version, fields: fields, malformedLines: malformed))
    }

    /// The values of every field named `name` (compared without case), in order.
    func values(_ name: String) -> [String] {
        fields.filter { $0.name.lowercased() == name }.map(\.value)
    }
}
