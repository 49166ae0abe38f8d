/// Text a client sent, made safe for a log line: printable ASCII is kept, everything else
/// (control characters, line breaks, non-ASCII bytes) becomes `\xNN`, and it is cut at 100 bytes.
enum LogText {
    static func escaped(_ text: String) -> String {
        var out = ""
        for byte in text.utf8.prefix(100) {
            if byte >= 0x20, byte < 0x7F, byte != 0x5C {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return text.utf8.count > 100 ? out + "…" : out
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
