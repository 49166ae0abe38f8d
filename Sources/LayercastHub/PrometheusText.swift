/// Prometheus exposition text, written a family at a time: its HELP and TYPE lines, then its
/// samples. The hub's `/metrics` and its transport's families (`HubTransport.writeMetrics`) write into one.
public struct PrometheusText {
    /// A family's TYPE.
    public enum MetricType: String {
        case gauge, counter, histogram
    }

    /// The text written so far.
    public private(set) var text = ""

    /// An empty text.
    public init() {}

    /// A family of one sample without labels.
    mutating func family(_ name: String, _ type: MetricType, _ help: String, value: Int) {
        header(name, type, help)
        text += "\(name) \(value)\n"
    }

    /// A family of one sample per (label value, count), labelled `label`, in the order given.
    mutating func family(_ name: String, _ type: MetricType, _ help: String, label: String, samples: [(String, Int)]) {
        header(name, type, help)
        for (labelValue, count) in samples { text += "\(name){\(label)=\"\(labelValue)\"} \(count)\n" }
    }

    /// A family of one sample per (first label value, second label value, count), labelled
    /// `labels`, in the order given.
    mutating func family(_ name: String, _ type: MetricType, _ help: String, labels: (String, String), samples: [(String, String, Int)]) {
        header(name, type, help)
        for (first, second, count) in samples { text += "\(name){\(labels.0)=\"\(first)\",\(labels.1)=\"\(second)\"} \(count)\n" }
    }

    /// A family of one sample per key of `counts`, labelled `label`, in the order of the keys.
    public mutating func family(_ name: String, _ type: MetricType, _ help: String, label: String, counts: [String: Int]) {
        family(name, type, help, label: label, samples: counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// A family of one sample per case of `Key`, labelled `label` with its raw value, in the cases'
    /// order; a case missing from `counts` counts 0.
    mutating func family<Key: CaseIterable & Hashable & RawRepresentable<String>>(
        _ name: String, _ type: MetricType, _ help: String, label: String, counts: [Key: Int]
    ) {
        family(name, type, help, label: label, samples: Key.allCases.map { ($0.rawValue, counts[$0, default: 0]) })
    }

    /// A histogram family.
    mutating func family(_ name: String, _ help: String, histogram: Histogram) {
        header(name, .histogram, help)
        text += histogram.render(name: name)
    }

    /// A histogram family with one histogram per key of `histograms`, labelled `label`, in key order.
    mutating func family(_ name: String, _ help: String, label: String, histograms: [String: Histogram]) {
        header(name, .histogram, help)
        for (key, histogram) in histograms.sorted(by: { $0.key < $1.key }) { text += histogram.render(name: name, labels: "\(label)=\"\(key)\"") }
    }

    private mutating func header(_ name: String, _ type: MetricType, _ help: String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type.rawValue)\n"
    }
}
