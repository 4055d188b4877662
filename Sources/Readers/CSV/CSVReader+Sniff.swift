import Auditor

/// The delimiter of a CSV file that `auditor profile` reads: with no rules file to name it,
/// the file's first records tell it (``ReaderFactory/sniff``).
extension CSVReader {
    /// The delimiters a profile tries (the path's default first, then these in this order), and
    /// that a header lacking declared columns is split on (``checkDelimiter(expecting:source:)``).
    static let candidateDelimiters: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), 9, UInt8(ascii: "|")]
    /// How much of the file the sniff reads (decompressed).
    static let dialectSampleBytes = 64 * 1024
    /// How many records after the header the sniff compares with it.
    static let sniffRecords = 100

    /// The `csv:` options that read `path` as a table: `["delimiter": ";"]` when its first
    /// records read as one with another delimiter than the path's default, and
    /// `["encoding": "windows-1252"]` when its text looks Latin-1; empty otherwise, also when
    /// the file cannot be read (opening it for the profile then says why).
    /// - Complexity: O(``dialectSampleBytes``).
    package static func sniffOptions(path: String, displayPath: String) -> [String: String] {
        guard let sample = ByteSources.sample(path: path, displayPath: displayPath, count: dialectSampleBytes) else { return [:] }
        let standard = defaultDelimiter(for: path)
        // A `sep=;` first line says it (the reader skips that line).
        let hinted = sample.bytes.withUnsafeBufferPointer { separatorLine($0)?.delimiter }
        let found = hinted ?? sniffDelimiter(sample.bytes, whole: sample.whole, default: standard)
        var options = found == standard ? [:] : ["delimiter": String(UnicodeScalar(found))]
        // Text that looks Latin-1 is read as Windows-1252, as Excel on Windows saves it (its superset for text).
        if case (.latin1, _)? = sample.bytes.withUnsafeBufferPointer({ sniff($0, complete: sample.whole) }) {
            options["encoding"] = SingleByteEncoding.windows1252.rawValue
        }
        return options
    }

    /// The delimiter that reads `sample` as a table: among the candidates (`standard`, then
    /// ``candidateDelimiters``) that split the header into at least two fields and at least 90 %
    /// of the next records (up to ``sniffRecords``) into as many, the one that gives the most
    /// fields, the earlier candidate on a tie; `standard` when none does.
    /// - Parameters:
    ///   - sample: The file's first bytes (decompressed).
    ///   - whole: True when `sample` is the whole file (its last record counts without a line break).
    ///   - standard: The path's default delimiter.
    package static func sniffDelimiter(_ sample: [UInt8], whole: Bool, default standard: UInt8) -> UInt8 {
        var best: (delimiter: UInt8, fields: Int)?
        for candidate in [standard] + candidateDelimiters.filter({ $0 != standard }) {
            let counts = fieldCounts(sample, delimiter: candidate, whole: whole)
            guard let header = counts.first, header >= 2 else { continue }
            let records = counts.dropFirst()
            guard records.filter({ $0 == header }).count * 10 >= records.count * 9 else { continue }
            if header > best?.fields ?? 0 { best = (candidate, header) }
        }
        return best?.delimiter ?? standard
    }

    /// The number of fields of each complete record of `sample` split on `delimiter` (RFC 4180
    /// quoting with `"`; blank lines skipped), the header's first, at most ``sniffRecords`` + 1.
    package static func fieldCounts(_ sample: [UInt8], delimiter: UInt8, whole: Bool) -> [Int] {
        let quote = UInt8(ascii: "\""), lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        var counts = [Int]()
        var fields = 1, length = 0
        var quoted = false, fieldStart = true
        var i = 0
        while i < sample.count, counts.count <= sniffRecords {
            let b = sample[i]
            i += 1
            if quoted {
                if b == quote {
                    if i < sample.count, sample[i] == quote { i += 1 } else { quoted = false }
                }
                continue
            }
            switch b {
            case quote where fieldStart:
                quoted = true
                fieldStart = false
                length += 1
            case delimiter:
                fields += 1
                fieldStart = true
                length += 1
            case lf:
                if length > 0 { counts.append(fields) }
                fields = 1
                length = 0
                fieldStart = true
            case cr where i == sample.count || sample[i] == lf:
                break
            default:
                fieldStart = false
                length += 1
            }
        }
        // A last record without a line break is complete only at the end of the file.
        if whole, !quoted, length > 0, counts.count <= sniffRecords { counts.append(fields) }
        return counts
    }
}
