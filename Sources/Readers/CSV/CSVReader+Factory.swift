import Auditor

extension CSVReader {
    /// The registry entry: format `csv`, extensions `csv` and `tsv` (TAB is the default
    /// delimiter for a `.tsv` path), options from the source's `csv:` block.
    public static let factory: ReaderFactory = {
        var factory = ReaderFactory(
            format: "csv",
            extensions: ["csv", "tsv"],
            decodeOptions: { node throws(AuditError) in
                let (options, problems) = CSVOptions.decode(node)
                guard problems.isEmpty else { throw AuditError.invalidRules(problems) }
                return options
            },
            open: { request in
                var options = try request.options(as: CSVOptions.self) ?? CSVOptions()
                if !options.delimiterGiven { options.delimiter = defaultDelimiter(for: request.path) }
                options.diagnosesEncoding = true          // root causes before per-record findings
                let reader = try CSVReader(path: request.path, displayPath: request.displayPath, options: options,
                                           parallelism: request.parallelism)
                try reader.checkDelimiter(expecting: request.fields, source: request.sourceName)
                return reader
            })
        factory.sniff = { path, displayPath in sniffOptions(path: path, displayPath: displayPath) }
        factory.columnReadings = { chunk, names in ValueFormats.found(in: chunk, names: names) }
        return factory
    }()

    /// TAB for a `.tsv` path (any case), `,` otherwise.
    /// - Parameter path: The input's path.
    public static func defaultDelimiter(for path: String) -> UInt8 {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: "."), name[name.index(after: dot)...].lowercased() == "tsv" {
            return 9
        }
        return UInt8(ascii: ",")
    }
}
