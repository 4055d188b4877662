import Auditor
import Foundation

/// The `--failures-out` file as the HTML report links to it.
public struct FailuresLink: Sendable, Equatable {
    /// The file's path as given on the command line (shown on the page).
    public var path: String
    /// The link target, relative to the folder of the HTML file, percent-encoded.
    public var href: String
    /// Failing records the file holds.
    public var records: Int
    /// Findings the file holds (one row each in CSV).
    public var findings: Int
    /// `jsonl` or `csv`.
    public var format: String

    /// Creates the link to `path` from a page written to `pagePath` (nil: stdout, read from the
    /// current directory).
    /// - Parameters:
    ///   - path: The failures file, as given.
    ///   - pagePath: Where the HTML report is written, or nil for stdout.
    ///   - currentDirectory: The directory relative paths start from.
    public init(path: String, pagePath: String?, records: Int, findings: Int, format: String,
                currentDirectory: String = FileManager.default.currentDirectoryPath) {
        self.path = path
        self.records = records
        self.findings = findings
        self.format = format
        href = Self.relativeHref(to: path, from: pagePath, currentDirectory: currentDirectory)
    }

    /// The components of `path` (absolute, standardized), made absolute against `base`.
    static func components(_ path: String, base: String) -> [String] {
        let absolute = path.hasPrefix("/") ? path : base + "/" + path
        return URL(fileURLWithPath: absolute).standardizedFileURL.pathComponents.filter { $0 != "/" }
    }

    /// A relative, percent-encoded URL from the page's folder to `target`.
    static func relativeHref(to target: String, from page: String?, currentDirectory: String) -> String {
        let to = components(target, base: currentDirectory)
        var from = components(page ?? "index.html", base: currentDirectory)
        from.removeLast()   // the page's own name
        var common = 0
        while common < min(from.count, to.count - 1), from[common] == to[common] { common += 1 }
        let parts = Array(repeating: "..", count: from.count - common) + to[common...]
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#%;:")
        return parts.map { $0 == ".." ? $0 : ($0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0) }
            .joined(separator: "/")
    }
}

extension HTMLReporter.Page {
    /// `Every failing record: failures.csv (1,234 records, 2,345 findings, CSV)`, or nothing.
    func failuresLink() -> String {
        guard let link = failures else { return "" }
        return "<p class=\"failures-out\">"
            + t("html.failures", ["records": w("entity.records", ["count": n(link.records)]),
                                  "findings": w("baseline.findings", ["count": n(link.findings)]),
                                  "format": w(link.format == "csv" ? "html.failures.csv" : "html.failures.jsonl")],
                markup: ["link": "<a href=\"\(HTMLText.escaped(link.href))\" class=\"mono\">\(HTMLText.escaped(link.path))</a>"])
            + "</p>\n"
    }
}
