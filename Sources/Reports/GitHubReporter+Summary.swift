import Auditor

extension GitHubReporter {
    /// The job summary: the Markdown report (``MarkdownReporter``) within `limit` UTF-8 bytes.
    /// - Parameters:
    ///   - limit: The most bytes (GitHub allows 1 MiB per step; pass what is left).
    ///   - wording: The Markdown report's own words (the `--locale` catalog's); the annotations
    ///     are never translated.
    public func summaryMarkdown(_ report: AuditReport, limit: Int = GitHubReporter.summaryLimit,
                                wording: ReportWording = .english) -> String {
        MarkdownReporter(maxBytes: limit, wording: wording).render(report)
    }
}
