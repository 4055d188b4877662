/// English plurals for counted nouns, in messages and reports.
package enum Plural {
    /// `1 rule`, `2 rules`, `2,000 records` (grouped).
    public static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        Evidence.count(n) + " " + noun(n, singular, plural)
    }

    /// The noun alone, agreeing with `n`.
    public static func noun(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        n == 1 ? singular : (plural ?? singular + "s")
    }
}
