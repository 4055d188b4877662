/// Columns that `auditor profile` reads otherwise than a format's defaults do, found in their
/// first values and declared in the format's options, so that the profile and the drafted rules
/// read them alike: numbers with a decimal comma and dates in another order (a CSV's
/// `decimalComma:` and `dateFormat:`), and fields that repeat within a record (XML `as: list`).
package struct ColumnReadings: Sendable, Equatable {
    /// Columns of numbers written with a decimal comma (`1.234,50`).
    public var decimalComma: [String] = []
    /// Columns of numbers written with grouping commas (`1,234.50`).
    public var thousandsComma: [String] = []
    /// Column → the order of its dates (`DD.MM.YYYY`), or of its date-times with the offset they
    /// are read in (`YYYY-MM-DD hh:mm:ss UTC`).
    public var dateFormats: [String: String] = [:]
    /// Fields that hold several values in a record, read as lists (sorted).
    public var lists: [String] = []

    public init(decimalComma: [String] = [], thousandsComma: [String] = [], dateFormats: [String: String] = [:], lists: [String] = []) {
        self.decimalComma = decimalComma
        self.thousandsComma = thousandsComma
        self.dateFormats = dateFormats
        self.lists = lists
    }

    public var isEmpty: Bool { decimalComma.isEmpty && thousandsComma.isEmpty && dateFormats.isEmpty && lists.isEmpty }

    /// The options that declare the numbers and dates: `decimalComma: ["price"]`, `dateFormat: { "born": "DD.MM.YYYY" }`
    /// (the lists are declared with the other lists and maps of the source, as `fields:`).
    public var yaml: [String] {
        var lines = [String]()
        if !decimalComma.isEmpty { lines.append("decimalComma: [\(decimalComma.map(Evidence.quoted).joined(separator: ", "))]") }
        if !thousandsComma.isEmpty { lines.append("thousandsComma: [\(thousandsComma.map(Evidence.quoted).joined(separator: ", "))]") }
        if !dateFormats.isEmpty {
            let pairs = dateFormats.sorted { $0.key < $1.key }.map { "\(Evidence.quoted($0.key)): \(Evidence.quoted($0.value))" }
            lines.append("dateFormat: { \(pairs.joined(separator: ", ")) }")
        }
        return lines
    }

    /// For the profile's text: `decimal comma in 'price', dates DD.MM.YYYY in 'born'`.
    public var described: [String] {
        var parts = [String]()
        if !decimalComma.isEmpty { parts.append("decimal comma in \(decimalComma.map { "'\($0)'" }.joined(separator: ", "))") }
        if !thousandsComma.isEmpty { parts.append("thousands commas in \(thousandsComma.map { "'\($0)'" }.joined(separator: ", "))") }
        var times = [String]()
        for (format, columns) in Dictionary(grouping: dateFormats.keys.sorted(), by: { dateFormats[$0]! }).sorted(by: { $0.key < $1.key }) {
            let named = columns.map { "'\($0)'" }.joined(separator: ", ")
            if format.contains(":") { times.append("date-times \(format) in \(named)") } else { parts.append("dates \(format) in \(named)") }
        }
        // A profile reads date-times as UTC: their values write no offset.
        if !times.isEmpty { parts.append(times.joined(separator: ", ") + " (no offset written: read as UTC)") }
        return parts
    }
}
