import Auditor

/// The options of ``CSVReader``: the `csv:` block of a source in the rules file.
///
/// ```yaml
/// csv:
///   delimiter: ";"        # one ASCII character; "\t" or tab for TAB
///   quote: "'"            # one ASCII character
///   header: false
///   columns: [id, name, email]
///   nullValues: ["", "NA"]
///   explicitNullValues: ["NULL", "\\N"]
///   encoding: windows-1252         # or latin-1; utf-8 by default
///   decimalComma: [price, amount]   # numbers written 1.234,50 (CSVDecimalComma)
///   thousandsComma: [total]         # numbers written 1,234.50
///   dateFormat: { born: DD.MM.YYYY } # dates written 31.12.2024, or M/D/YYYY: 1/2/2024 (CSVDateFormat)
/// ```
///
/// `nullValues` and `explicitNullValues` apply to *unquoted* fields only: an unquoted empty
/// field is missing, a quoted `""` is the empty string. This keeps the nil-versus-empty
/// distinction that a writer expresses by quoting. A `nullValues` text is an *absent* value
/// (`Cell.missing`); an `explicitNullValues` text is an *explicit null* (`Cell.null`), which
/// every rule treats as missing except `allowsNull` and `allowsMissing`, which tell them apart.
@_spi(Testing) public struct CSVOptions: Sendable, Equatable {
    /// The field separator, one ASCII byte (`,`; TAB for `.tsv` files).
    public var delimiter: UInt8
    /// The quote character, one ASCII byte (`"`).
    public var quote: UInt8
    /// Whether the first record holds the field names.
    public var header: Bool
    /// Field names that replace the header's (or name the fields when `header` is false).
    public var columns: [String]?
    /// Unquoted field texts that mean "no value" (absent). Default `[""]`.
    public var nullValues: [String]
    /// Unquoted field texts that mean an explicit null (`NULL`, `\N`). Default none.
    public var explicitNullValues: [String] = []
    /// Columns whose numbers or dates are written otherwise (`decimalComma:`, `thousandsComma:`,
    /// `dateFormat:`), read as the auditor reads numbers and dates. Default none.
    var formats = ValueFormats()
    /// Where `columns` was written, to locate a mismatch with the header found at open time.
    var columnsMark: ConfigMark?
    /// The file's encoding when it is not UTF-8 (`encoding: windows-1252`): read as UTF-8 text.
    var encoding: SingleByteEncoding?
    /// Whether the block set `delimiter`; when not, the reader picks the path's default
    /// (TAB for `.tsv`) when it opens the input.
    var delimiterGiven = false
    /// Check the start of the file for another encoding (UTF-16, UTF-32, Latin-1) and stop with
    /// that root cause (``CSVReader/checkEncoding()``) rather than flag every record. The
    /// registry's factory turns it on; off by default so that the reader alone reads any bytes.
    public var diagnosesEncoding = false

    /// The keys an options block may hold.
    public static let keys = ["delimiter", "quote", "header", "columns", "nullValues", "explicitNullValues", "encoding"]
        + ValueFormats.keys

    /// Options with RFC 4180 defaults.
    /// - Parameters:
    ///   - delimiter: The field separator (`,` by default).
    ///   - quote: The quote character (`"` by default).
    ///   - header: Whether the first record names the fields.
    ///   - columns: Field names; required when `header` is false.
    ///   - nullValues: Unquoted field texts read as missing.
    public init(delimiter: UInt8 = UInt8(ascii: ","), quote: UInt8 = UInt8(ascii: "\""),
                header: Bool = true, columns: [String]? = nil, nullValues: [String] = [""]) {
        self.delimiter = delimiter
        self.quote = quote
        self.header = header
        self.columns = columns
        self.nullValues = nullValues
    }

    public static func == (a: CSVOptions, b: CSVOptions) -> Bool {
        a.delimiter == b.delimiter && a.quote == b.quote && a.header == b.header
            && a.columns == b.columns && a.nullValues == b.nullValues && a.explicitNullValues == b.explicitNullValues
            && a.encoding == b.encoding
    }
}

// MARK: - Decoding

extension CSVOptions {
    /// Decodes an options block, collecting every problem instead of stopping at the first.
    ///
    /// - Parameters:
    ///   - node: The `csv:` block, or `nil` when the source has none (a null node counts as none).
    ///   - defaultDelimiter: The delimiter when the block does not set one (TAB for `.tsv`).
    /// - Returns: The options (defaults where a value was invalid) and the located diagnostics;
    ///   the options are usable only when the diagnostics are empty.
    public static func decode(_ node: ConfigNode?,
                              defaultDelimiter: UInt8 = UInt8(ascii: ",")) -> (CSVOptions, [Diagnostic]) {
        var options = CSVOptions(delimiter: defaultDelimiter)
        guard let node, !node.isNull else { return (options, []) }
        let mapping: ConfigMapping
        do {
            mapping = try node.mapping("the csv options")
        } catch {
            return (options, [error])
        }
        var problems = mapping.unknownKeys(allowed: keys, context: "the csv options")

        var charactersValid = true
        if let value = mapping["delimiter"] {
            do throws(Diagnostic) {
                options.delimiter = try character(value, "delimiter", allowTab: true)
                options.delimiterGiven = true
            } catch { problems.append(error); charactersValid = false }
        }
        if let value = mapping["quote"] {
            do throws(Diagnostic) {
                options.quote = try character(value, "quote", allowTab: false)
            } catch { problems.append(error); charactersValid = false }
        }
        if charactersValid, options.delimiter == options.quote,
           let value = mapping["quote"] ?? mapping["delimiter"] {
            problems.append(value.error(
                "delimiter and quote must be different characters; both are '\(Character(Unicode.Scalar(options.quote)))'"))
        }
        if let value = mapping["header"] {
            do throws(Diagnostic) {
                options.header = try value.bool("header")
            } catch { problems.append(error) }
        }
        if let value = mapping["columns"] {
            options.columnsMark = value.mark
            options.columns = names(value, &problems)
        }
        if let value = mapping["nullValues"] {
            options.nullValues = ValueFormats.names(value, "nullValues", &problems)
        }
        if let value = mapping["explicitNullValues"] {
            options.explicitNullValues = ValueFormats.names(value, "explicitNullValues", &problems)
            for text in options.explicitNullValues where options.nullValues.contains(text) {
                problems.append(value.error(
                    "'\(text)' is in both nullValues (absent) and explicitNullValues (explicit null); keep it in one of them"
                        + (text.isEmpty ? " (nullValues holds \"\" by default: write nullValues: [] to make an empty field an explicit null)" : "")))
            }
        }
        options.formats = ValueFormats(mapping, &problems)
        if let value = mapping["encoding"] {
            do throws(Diagnostic) {
                let name = try value.string("encoding")
                let folded = name.lowercased()
                if let encoding = SingleByteEncoding(name: name) {
                    options.encoding = encoding
                } else if folded != "utf-8", folded != "utf8" {
                    problems.append(value.error(
                        "encoding '\(name)' is not supported; the CSV reader reads utf-8, windows-1252 (cp1252) and latin-1 "
                            + "(iso-8859-1). Convert the file first, for example: iconv -f \(name) -t utf-8 in.csv > out.csv"))
                }
            } catch { problems.append(error) }
        }
        if !options.header, options.columns == nil, mapping["columns"] == nil {
            let at = mapping["header"] ?? node
            problems.append(at.error(
                "columns is required when header is false: list the field names, for example columns: [id, name]"))
        }
        return (options, problems)
    }

    /// One ASCII character other than CR and LF.
    private static func character(_ node: ConfigNode, _ what: String, allowTab: Bool) throws(Diagnostic) -> UInt8 {
        let text = try node.string(what)
        if allowTab, text == "\\t" || text.lowercased() == "tab" { return 9 }
        let bytes = Array(text.utf8)
        guard bytes.count == 1, let byte = bytes.first, byte > 0, byte < 0x80 else {
            let hint = allowTab ? " (write \"\\t\" or tab for a TAB)" : ""
            throw node.error("\(what) must be a single ASCII character\(hint); got \(node.describe)")
        }
        guard byte != 10, byte != 13 else {
            throw node.error("\(what) cannot be a line break")
        }
        return byte
    }

    /// The `columns` list: non-empty, distinct names.
    private static func names(_ node: ConfigNode, _ problems: inout [Diagnostic]) -> [String]? {
        let before = problems.count
        let list = ValueFormats.names(node, "columns", &problems)
        guard problems.count == before else { return nil }
        if list.isEmpty {
            problems.append(node.error("columns must list at least one field name"))
            return nil
        }
        var seen = [String: Int]()
        let items = node.sequenceOrSingle()
        for (index, name) in list.enumerated() {
            let at = index < items.count ? items[index] : node
            if name.isEmpty {
                problems.append(at.error("columns: item \(index + 1) is empty; every field needs a name"))
            } else if let first = seen[name] {
                problems.append(at.error("columns: '\(name)' is listed twice (items \(first + 1) and \(index + 1))"))
            } else {
                seen[name] = index
            }
        }
        return problems.count == before ? list : nil
    }
}

extension CSVOptions: ReaderOptions {
    /// `columns:`, when the block names the fields.
    public var declaredFields: [String]? { columns }

    /// How `decimalComma:`, `thousandsComma:` or `dateFormat:` say the field is written.
    public func typeName(of field: String, as type: ValueType) -> String? { formats.typeName(of: field, as: type) }
}
