import Foundation

/// `message:` (and a record rule's `description:`) in one language or several:
///
/// ```yaml
/// message: "Name must be {minLength} to {maxLength} letters; got '{value}'."
/// message:
///   en: "Name must be {minLength} to {maxLength} letters; got '{value}'."
///   fr: "Le nom doit compter de {minLength} à {maxLength} lettres ; reçu « {value} »."
/// ```
///
/// A map is read for the parser's ``RulesFileParser/locale``: the exact tag (`fr-CA`), then its
/// language (`fr`), then `en`. A map without any of them gives no text, so the rule's message
/// comes from the catalog's kind or the built-in message.
extension RulesFileParser {
    /// The text of a `message:` or `description:` node for ``locale``, and where it is written.
    /// - Throws: A located ``Diagnostic`` when the node is neither a string nor a map of
    ///   language tags to strings.
    func localized(_ node: ConfigNode, _ what: String) throws(Diagnostic) -> (text: String, mark: ConfigMark)? {
        if node.scalar != nil { return (try node.string(what), node.mark) }
        guard case .mapping = node.kind else {
            throw node.error("\(what) must be a string, or a map of language tags to strings (en: …, fr: …)")
        }
        let map = try node.mapping(what)
        var byTag = [String: (String, ConfigMark)]()
        for (k, v) in map.pairs {
            let tag = try k.string("a language tag")
            guard tag.range(of: "^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$", options: .regularExpression) != nil else {
                throw k.error("'\(tag)' is not a language tag; write \(what): { en: \"…\", fr: \"…\" }")
            }
            byTag[tag.lowercased().replacingOccurrences(of: "_", with: "-")] = (try v.string(what), v.mark)
        }
        let wanted = locale.lowercased().replacingOccurrences(of: "_", with: "-")
        let language = String(wanted.prefix { $0 != "-" })
        guard let (text, mark) = byTag[wanted] ?? byTag[language] ?? byTag["en"] else { return nil }
        return (text, mark)
    }
}
