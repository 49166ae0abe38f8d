/// Words the pages show a person, in the two languages they speak: English and Chinese
/// (simplified). The pages pick the one that matches their language.
public struct LocalizedText: Sendable, Equatable {
    public var en: String
    public var zh: String

    public init(en: String, zh: String) {
        self.en = en
        self.zh = zh
    }
}
