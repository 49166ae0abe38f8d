/// Words the pages show a person, in the two languages they speak: English and Chinese
/// (simplified). The pages pick the one that matches their language.
public struct LocalizedText: Sendable, Equatable {
    /// The English words.
    public var en: String
    /// The Chinese (simplified) words.
    public var zh: String

    /// The same words in English and in Chinese (simplified).
    public init(en: String, zh: String) {
        self.en = en
        self.zh = zh
    }
}
