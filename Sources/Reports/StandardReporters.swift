import Auditor

/// The reporters that ship with auditor, by `--format` name.
///
/// The CLI validates `--format` against ``formats`` and builds the reporter with
/// ``reporter(format:color:verbose:)``; decide `color` with ``ColorChoice`` for the stream
/// the report goes to (a file given with `--output` is not a terminal).
public enum StandardReporters {
    /// Every supported `--format` value, the default first.
    public static let formats = ["text", "json", "html", "junit", "sarif", "github", "markdown"]

    /// A reporter for a format name.
    ///
    /// - Parameters:
    ///   - format: One of ``formats``, exactly as listed (lower case).
    ///   - color: Emit ANSI colour; ignored by formats that have none (`json`).
    ///   - verbose: More detail; ignored by formats that always hold everything (`json`).
    ///   - unicode: The text report may draw trends with Unicode symbols (decide with
    ///     ``TextCharset``); ignored by the other formats, which are always UTF-8.
    ///   - failures: The `--failures-out` file the `html` report links to.
    ///   - wording: The `text`, `markdown` and `html` reports' own words, from the `--locale` catalog.
    ///   - maxBytes: The `markdown` report's size budget in UTF-8 bytes (`--max-bytes`).
    ///   - baseDirectory: The directory CI paths are relative to (`sarif`, `github`): the
    ///     current directory of the run, which is the repository root in CI.
    /// - Returns: The reporter, or `nil` for an unknown format.
    public static func reporter(format: String, color: Bool, verbose: Bool,
                                baseDirectory: String? = nil, unicode: Bool = false,
                                maxBytes: Int = MarkdownReporter.defaultMaxBytes,
                                failures: FailuresLink? = nil, wording: ReportWording = .english) -> (any Reporter)? {
        switch format {
        case "text": return TextReporter(color: color, verbose: verbose, unicode: unicode, wording: wording)
        case "json": return JSONReporter()
        case "html": return HTMLReporter(failures: failures, wording: wording)
        case "junit": return JUnitReporter()
        case "sarif": return SARIFReporter(baseDirectory: baseDirectory)
        case "github": return GitHubReporter(baseDirectory: baseDirectory)
        case "markdown": return MarkdownReporter(maxBytes: maxBytes, wording: wording)
        default: return nil
        }
    }
}
