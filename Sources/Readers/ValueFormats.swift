import Auditor

/// The fields of a text source whose values are written otherwise than the auditor reads them,
/// declared in its `csv:` or `xml:` block: `decimalComma: [price]` (`1.234,50`),
/// `thousandsComma: [total]` (`1,234.50`) and `dateFormat: { born: DD.MM.YYYY }`. Each is read
/// as the auditor reads numbers and dates (``CSVDecimalComma``, ``CSVDateFormat``), exactly.
struct ValueFormats: Sendable, Hashable {
    var decimalComma: [String] = []
    var thousandsComma: [String] = []
    /// Field → the order of its dates.
    var dateFormats: [String: CSVDateFormat] = [:]
    /// Where each option was written, to locate a name that is no field.
    var decimalCommaMark: ConfigMark?
    var thousandsCommaMark: ConfigMark?
    var dateFormatMark: ConfigMark?

    static let keys = ["decimalComma", "thousandsComma", "dateFormat"]

    /// Reads the three options of `mapping`, adding each problem to `problems`.
    init(_ mapping: ConfigMapping, _ problems: inout [Diagnostic]) {
        if let value = mapping["decimalComma"] {
            decimalCommaMark = value.mark
            decimalComma = Self.names(value, "decimalComma", &problems)
        }
        if let value = mapping["thousandsComma"] {
            thousandsCommaMark = value.mark
            thousandsComma = Self.names(value, "thousandsComma", &problems)
            for name in thousandsComma where decimalComma.contains(name) {
                problems.append(value.error("'\(name)' is in both decimalComma and thousandsComma; a column writes its numbers one way"))
            }
        }
        if let value = mapping["dateFormat"] {
            dateFormatMark = value.mark
            do throws(Diagnostic) {
                for (key, format) in try value.mapping("dateFormat").pairs {
                    guard let name = key.scalar else { continue }
                    let text = (try? format.string("dateFormat.\(name)")) ?? ""
                    let numbers = decimalComma.contains(name) ? "decimalComma" : thousandsComma.contains(name) ? "thousandsComma" : nil
                    if let other = numbers {
                        problems.append(key.error("'\(name)' is in both \(other) and dateFormat; a column holds numbers or dates"))
                    } else if let parsed = CSVDateFormat(text) {
                        dateFormats[name] = parsed
                    } else {
                        problems.append(format.error("dateFormat of '\(name)' must be \(CSVDateFormat.accepted); got '\(text)'"))
                    }
                }
            } catch { problems.append(error) }
        }
    }

    init() {}

    var isEmpty: Bool { decimalComma.isEmpty && thousandsComma.isEmpty && dateFormats.isEmpty }

    /// How a field's values of `type` are written, as its option says (``ReaderOptions/typeName(of:as:)``).
    func typeName(of field: String, as type: ValueType) -> String? {
        if let format = dateFormats[field], type == (format.time == nil ? .date : .datetime) {
            return format.time == nil ? "a date (\(format.text), or YYYY-MM-DD)" : "a date-time (\(format.text), or YYYY-MM-DDTHH:MM:SSZ)"
        }
        guard type == .decimal || type == .integer else { return nil }
        let written = decimalComma.contains(field) ? (type == .decimal ? "1.234,5" : "1.234")
            : thousandsComma.contains(field) ? (type == .decimal ? "1,234.5" : "1,234") : nil
        return written.map { "\(type.phrase) (written \($0))" }
    }

    /// The rewrite of each named field that is one of `fields`, at its index there.
    /// - Parameter unknown: The error for a name that is no field (nil: such a name is skipped).
    /// - Throws: `unknown`'s error for the first name that is no field.
    func rewrites(of fields: [String], unknown: ((_ option: String, _ name: String, _ mark: ConfigMark?) -> AuditError)?) throws
        -> [CSVColumnRewrite] {
        let thousands = CSVColumnRewrite(column: 0, numbers: .thousandsComma)
        let named = decimalComma.map { ($0, "decimalComma", CSVColumnRewrite(column: 0), decimalCommaMark) }
            + thousandsComma.map { ($0, "thousandsComma", thousands, thousandsCommaMark) }
            + dateFormats.sorted { $0.key < $1.key }
                .map { ($0.key, "dateFormat", CSVColumnRewrite(column: 0, date: $0.value), dateFormatMark) }
        var rewrites = [CSVColumnRewrite]()
        for (name, option, var rewrite, mark) in named {
            guard let c = fields.firstIndex(of: name) else {
                if let unknown { throw unknown(option, name, mark) }
                continue
            }
            rewrite.column = c
            if !rewrites.contains(where: { $0.column == c }) { rewrites.append(rewrite) }
        }
        return rewrites
    }

    /// The columns of `chunk` (the first records of a source) whose values tell that they are
    /// written so, for `auditor profile` to read and declare them (``ReaderFactory`` `columnReadings`).
    static func found(in chunk: RecordChunk, names: [String]) -> ColumnReadings {
        let decimalComma = CSVDecimalComma.columns(of: chunk, names: names)
        return ColumnReadings(decimalComma: decimalComma,
                              thousandsComma: CSVDecimalComma.columns(of: chunk, names: names, style: .thousandsComma)
                                  .filter { !decimalComma.contains($0) },
                              dateFormats: CSVDateFormat.columns(of: chunk, names: names))
    }

    /// A list of scalars, each taken as text (an unquoted `null` is the text `null`).
    static func names(_ node: ConfigNode, _ what: String, _ problems: inout [Diagnostic]) -> [String] {
        let items: [ConfigNode]
        do {
            items = try node.sequence(what)
        } catch {
            problems.append(error)
            return []
        }
        var result = [String]()
        for item in items {
            do throws(Diagnostic) {
                result.append(try item.string("each item of \(what)"))
            } catch { problems.append(error) }
        }
        return result
    }
}
