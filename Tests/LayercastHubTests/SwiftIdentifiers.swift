/// The identifiers of Swift source, for `LayeringTests`: its code without comments and without the
/// literal text of its strings (an interpolation's code is kept), and each identifier's words.
enum SwiftIdentifiers {
    /// Every identifier in `source`'s code (comments and string text left out), once each, sorted.
    static func identifiers(in source: String) -> [String] {
        var scanner = Scanner(characters: Array(source))
        scanner.code(inInterpolation: false)
        var found: Set<String> = [], current = ""
        for character in scanner.output + " " {
            if character == "_" || character.isLetter || (character.isNumber && !current.isEmpty) {
                current.append(character)
            } else if !current.isEmpty {
                found.insert(current)
                current = ""
            }
        }
        return found.sorted()
    }

    /// The lowercased words of `identifier`, split at underscores, digits and case changes:
    /// `badRainID` is bad, rain, id; `drainQueue` is drain, queue.
    static func words(of identifier: String) -> [String] {
        var words: [String] = [], word = ""
        let characters = Array(identifier)
        for (index, character) in characters.enumerated() {
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            let previous = index > 0 ? characters[index - 1] : nil
            let startsWord = character.isUppercase
                && (previous.map { $0.isLowercase || $0.isNumber } == true
                    || (previous?.isUppercase == true && next?.isLowercase == true))
            if character == "_" || character.isNumber || startsWord {
                if !word.isEmpty { words.append(word.lowercased()) }
                word = character.isLetter ? String(character) : ""
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { words.append(word.lowercased()) }
        return words
    }

    /// Copies code to `output`, skipping comments and string text.
    private struct Scanner {
        let characters: [Character]
        var index = 0
        var output: [Character] = []

        init(characters: [Character]) { self.characters = characters }

        func starts(_ text: String, at position: Int) -> Bool {
            let needle = Array(text)
            return position + needle.count <= characters.count && Array(characters[position..<position + needle.count]) == needle
        }

        /// Code up to the end, or (in an interpolation) past its closing parenthesis.
        mutating func code(inInterpolation: Bool) {
            var depth = 0
            while index < characters.count {
                if starts("//", at: index) {
                    while index < characters.count, characters[index] != "\n" { index += 1 }
                } else if starts("/*", at: index) {
                    var nesting = 0
                    repeat {
                        if starts("/*", at: index) { nesting += 1; index += 2 } else if starts("*/", at: index) { nesting -= 1; index += 2 } else { index += 1 }
                    } while nesting > 0 && index < characters.count
                } else if characters[index] == "#", let hashes = rawStringHashes() {
                    skipRawString(hashes: hashes)
                } else if starts("\"\"\"", at: index) {
                    index += 3
                    string(closing: "\"\"\"")
                } else if characters[index] == "\"" {
                    index += 1
                    string(closing: "\"")
                } else {
                    let character = characters[index]
                    index += 1
                    if inInterpolation, character == "(" { depth += 1 }
                    if inInterpolation, character == ")" {
                        if depth == 0 { return }
                        depth -= 1
                    }
                    output.append(character)
                }
            }
        }

        /// The number of `#` that open a raw string here, nil when none does.
        func rawStringHashes() -> Int? {
            var position = index
            while position < characters.count, characters[position] == "#" { position += 1 }
            return position < characters.count && characters[position] == "\"" ? position - index : nil
        }

        /// Skips a raw string (its interpolations too, which no file of ours has).
        mutating func skipRawString(hashes: Int) {
            index += hashes
            let quotes = starts("\"\"\"", at: index) ? "\"\"\"" : "\""
            index += quotes.count
            let closing = quotes + String(repeating: "#", count: hashes)
            while index < characters.count, !starts(closing, at: index) { index += 1 }
            index += closing.count
        }

        /// Skips string text up to `closing`, copying each interpolation's code.
        mutating func string(closing: String) {
            while index < characters.count {
                if starts("\\(", at: index) {
                    index += 2
                    output.append(" ")
                    code(inInterpolation: true)
                    output.append(" ")
                } else if characters[index] == "\\" {
                    index += 2
                } else if starts(closing, at: index) {
                    index += closing.count
                    return
                } else {
                    index += 1
                }
            }
        }
    }
}
