import Auditor

extension HTMLReporter {
    /// The most rows of one samples or records table written as markup.
    ///
    /// A larger table (`--max-samples` above this) gets only its first rows as markup: they are
    /// what a reader without JavaScript, and a printout, sees. The other rows are rendered by
    /// the page's script from the embedded JSON, a page at a time as the reader scrolls (or
    /// presses *Show more*), and the filter searches all of them. So a page with 100,000
    /// findings holds a few hundred table rows at load, not 100,000, and weighs about a
    /// twentieth of the JSON report (55 against 1,272 bytes a finding: ``HTMLIsland``).
    public static let eagerRows = 100
}

extension HTMLReporter.Page {
    /// Under a table of `total` samples or records of which only the first
    /// ``HTMLReporter/eagerRows`` are markup: a note for readers without JavaScript (and
    /// printouts), and the pager the script shows instead. Nothing for a table written whole.
    /// - Parameters:
    ///   - total: The rows the table has in the embedded JSON.
    ///   - noun: The phrase key of the rows' noun, `html.noun.sample` or `html.noun.record`.
    func lazyNote(_ total: Int, _ noun: String) -> String {
        let shown = HTMLReporter.eagerRows
        guard total > shown else { return "" }
        return "<p class=\"more lazy-note\">"
            + t("html.lazy", ["shown": n(shown), "total": n(total), "noun": w(noun, ["count": n(total)]), "other": n(total - shown)],
                markup: ["island": "<span class=\"mono\">script#report-data</span>"]) + "</p>\n"
            + "<div class=\"pager\" hidden><span class=\"pager-status\" aria-live=\"polite\"></span> "
            + "<button type=\"button\" class=\"pager-more\">\(t("html.pager.more"))</button></div>\n"
    }
}
