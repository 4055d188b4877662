import Auditor

/// The `spark:` block of a source: what a Spark Connect server reads for the audit.
///
/// ```yaml
/// sources:
///   people:
///     path: sc://spark.example.com:15002    # --source people=sc://127.0.0.1:15002 keeps the block
///     spark:
///       table: people          # a table or view of Spark's catalog (db.table allowed)
///       # or: files: s3a://lake/people/, format: parquet, options: { mergeSchema: "true" }
///       locate: id             # optional: an integer column that orders and locates records
///       timeout: 3600          # optional: the longest one Spark call may take, in seconds
///       readWholeBelow: 10M    # optional: pushed down, a table Spark estimates smaller is read whole (0: never)
/// ```
///
/// Exactly one of `table:` and `files:`; `format:` and `options:` go with `files:`, which Spark
/// reads as they are (through a temporary view). A source without a `spark:` block reads the
/// table named like the source.
///
/// Not behind the `Spark` trait (unlike `Readers/Spark`): the block is plain configuration, so
/// a build without Spark still checks it and still audits the other formats of a rules file
/// that has one; only opening a Spark source says that this build has no Spark.
package struct SparkOptions: ReaderOptions, Equatable {
    /// What the server reads.
    package enum Source: Sendable, Equatable {
        case table(String)
        /// Files and their Spark data source (`parquet`, `csv`, `json`) with its options.
        case files(path: String, format: String, options: [String: String])
    }

    package var source: Source
    /// Where `table:` or `files:` was written, for errors about it.
    package var mark: ConfigMark?
    /// `locate: id`: an integer column that orders the rows and locates findings.
    package var locate: String?
    /// `timeout:` in seconds: the longest one Spark call may take.
    package var timeoutSeconds = 3600
    /// `readWholeBelow:` in bytes: with pushdown, a read that Spark estimates smaller (its plan's
    /// `sizeInBytes`, by which it also decides to broadcast a join) brings every row in one query
    /// instead, cheaper than a pushed-down audit's queries; 0: never. Spark's own broadcast
    /// threshold by default.
    package var readWholeBelow = 10 << 20

    package init(source: Source, mark: ConfigMark? = nil, locate: String? = nil) {
        self.source = source
        self.mark = mark
        self.locate = locate
    }

    /// The keys a `spark:` block may hold.
    package static let keys = ["table", "files", "format", "options", "locate", "timeout", "readWholeBelow"]
    /// The data sources `format:` may name.
    package static let formats = ["parquet", "csv", "json"]

    /// The options of Spark 4's file data sources, by `format:` (from Spark's `CSVOptions`,
    /// `JSONOptions`, `ParquetOptions` and the file index's). Spark ignores a name it does not
    /// know, so `hedaer: "true"` would read the file as if it were not written: such a name is
    /// a rules-file error. A name with a dot (a Hadoop setting such as `fs.s3a.endpoint`) is
    /// passed on unchecked.
    package static let sparkOptions: [String: [String]] = {
        let files = ["basePath", "ignoreCorruptFiles", "ignoreInvalidPartitionPaths", "ignoreMissingFiles", "modifiedAfter",
                     "modifiedBefore", "pathGlobFilter", "recursiveFileLookup"]
        let parsed = ["columnNameOfCorruptRecord", "compression", "dateFormat", "enableDateTimeParsingFallback", "encoding", "charset",
                      "lineSep", "locale", "mode", "multiLine", "samplingRatio", "singleVariantColumn", "timeFormat", "timeZone",
                      "timestampFormat", "timestampNTZFormat"]
        return [
            "csv": files + parsed + ["charToEscapeQuoteEscaping", "codec", "columnPruning", "comment", "delimiter", "emptyValue",
                                     "enforceSchema", "escape", "escapeQuotes", "header", "ignoreLeadingWhiteSpace",
                                     "ignoreTrailingWhiteSpace", "inferSchema", "inputBufferSize", "maxCharsPerColumn", "maxColumns",
                                     "nanValue", "negativeInf", "nullValue", "positiveInf", "preferDate", "quote", "quoteAll", "sep",
                                     "unescapedQuoteHandling"],
            "json": files + parsed + ["allowBackslashEscapingAnyCharacter", "allowComments", "allowNonNumericNumbers",
                                      "allowNumericLeadingZeros", "allowSingleQuotes", "allowUnquotedControlChars",
                                      "allowUnquotedFieldNames", "dropFieldIfAllNull", "ignoreNullFields", "inferTimestamp",
                                      "prefersDecimal", "primitivesAsString"],
            "parquet": files + ["compression", "datetimeRebaseMode", "int96RebaseMode", "mergeSchema"],
        ]
    }()

    /// Decodes a `spark:` block (nil: the table named like the source).
    /// - Throws: ``AuditError`` `.invalidRules` with every located problem.
    package static func decode(_ node: ConfigNode?, sourceName: String) throws(AuditError) -> SparkOptions {
        guard let node, !node.isNull else { return SparkOptions(source: .table(sourceName)) }
        let mapping: ConfigMapping
        do {
            mapping = try node.mapping("the spark block")
        } catch {
            throw AuditError.invalidRules([error])
        }
        var d = mapping.unknownKeys(allowed: keys, context: "the spark block")
        var options: SparkOptions?
        func string(_ key: String) -> String? {
            guard let value = mapping[key] else { return nil }
            do {
                let text = try value.string("'\(key):'")
                if text.isEmpty { d.append(value.error("'\(key):' must not be empty")) }
                return text.isEmpty ? nil : text
            } catch {
                d.append(error)
                return nil
            }
        }
        switch (mapping["table"], mapping["files"]) {
        case (nil, nil):
            d.append(node.error("the spark block needs 'table:' (a table or view of Spark's catalog) or 'files:' (files Spark reads, with format:)"))
        case (.some, .some(let files)):
            d.append((mapping.keyNode("files") ?? files).error("'table:' and 'files:' cannot be used together; keep one of them"))
        case (.some(let table), nil):
            if let name = string("table") { options = SparkOptions(source: .table(name), mark: table.mark) }
            for key in ["format", "options"] where mapping[key] != nil {
                d.append((mapping.keyNode(key) ?? node).error("'\(key):' goes with 'files:'; a table has its own format"))
            }
        case (nil, .some(let files)):
            let path = string("files")
            var format: String?
            if let value = string("format") {
                if formats.contains(value) { format = value } else {
                    d.append((mapping["format"] ?? node).error("'format:' of the spark block is one of \(formats.joined(separator: ", ")); got '\(value)'"))
                }
            } else if mapping["format"] == nil {
                d.append(node.error("'files:' needs 'format:' (\(formats.joined(separator: ", ")))"))
            }
            var pairs = [String: String]()
            if let block = mapping["options"] {
                do {
                    for (key, value) in try block.mapping("'options:'").pairs {
                        guard let k = key.scalar, !k.isEmpty, let v = value.scalar else {
                            d.append(value.error("'options:' maps names to text, e.g. options: { header: \"true\" }"))
                            continue
                        }
                        if let format, !k.contains("."), let known = sparkOptions[format],
                           !known.contains(where: { $0.lowercased() == k.lowercased() }) {
                            var m = "'\(k)' is not an option of Spark's \(format) files, and Spark would ignore it"
                            m += Suggest.closest(to: k, in: known).map { "; did you mean '\($0)'?" } ?? "."
                            d.append(key.error(m + " Its options: \(known.sorted().joined(separator: ", "))"))
                        }
                        // Spark reads a mode it does not know as PERMISSIVE, which repairs malformed records;
                        // DROPMALFORMED drops them without a count, so the audit would pass records it never saw.
                        let mode = k.lowercased() == "mode" && (format == "csv" || format == "json")
                        if mode, v.uppercased() == "DROPMALFORMED" {
                            d.append(value.error("'mode: \(v)' drops the records that Spark cannot parse without counting them, so "
                                                 + "the audit could pass on records it never checked; use FAILFAST (the default: the "
                                                 + "first such record stops the read), PERMISSIVE (Spark repairs them: a missing field "
                                                 + "is NULL), or the auditor's own \(format == "json" ? "jsonl" : "csv") reader, which "
                                                 + "reports each one"))
                        } else if mode, !["PERMISSIVE", "FAILFAST"].contains(v.uppercased()) {
                            d.append(value.error("'mode:' of Spark's files is FAILFAST or PERMISSIVE; got '\(v)', which "
                                                 + "Spark would read as PERMISSIVE"))
                        }
                        pairs[k] = v
                    }
                } catch {
                    d.append(error)
                }
            }
            if let path, let format { options = SparkOptions(source: .files(path: path, format: format, options: pairs), mark: files.mark) }
        }
        if let locate = string("locate") { options?.locate = locate }
        if let timeout = mapping["timeout"] {
            if let seconds = timeout.scalar.flatMap({ Int($0) }), seconds >= 1, seconds <= 86_400 * 7 {
                options?.timeoutSeconds = seconds
            } else {
                d.append(timeout.error("'timeout:' is the longest one Spark call may take, in seconds (1 to 604800), e.g. timeout: 3600"))
            }
        }
        if let node = mapping["readWholeBelow"] {
            if let text = node.scalar, let bytes = text == "0" ? 0 : AuditRequest.byteSize(text) {
                options?.readWholeBelow = bytes
            } else {
                d.append(node.error("'readWholeBelow:' is a size of at least 1M, such as 10M or 1G, or 0 to push every table down"))
            }
        }
        if let options, d.isEmpty { return options }
        throw AuditError.invalidRules(d)
    }
}
