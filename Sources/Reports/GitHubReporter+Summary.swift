import Auditor

extension GitHubReporter {
    /// The job summary: the Markdown report (``MarkdownReporter``) within `limit` UTF-8 bytes.
    /// - Parameter limit: The most bytes (GitHub allows 1 MiB per step; pass what is left).
    public func summaryMarkdown(_ report: AuditReport, limit: Int = GitHubReporter.summaryLimit) -> String {
        MarkdownReporter(maxBytes: limit).render(report)
    }
}
