import Foundation

/// `--locale`: finds and loads a message catalog (`<locale>.yml`).
///
/// Search, first match wins:
/// 1. a value ending in `.yml`/`.yaml` is the catalog file itself;
/// 2. `messages/<locale>.yml` in the rules file's folder (`rules/people.yml` →
///    `rules/messages/fr.yml`), then in each folder of `$AUDITOR_MESSAGES_PATH`
///    (`:`-separated);
/// 3. the same with the language alone (`fr-CA`, `fr_CA` → `fr`);
/// 4. `en` needs no file: the built-in English messages.
/// Anything else is a usage error (exit 64) naming the folders searched and the locales found.
package enum MessageLocale {
    /// The catalog of `locale` for the rules file at `rulesPath`.
    /// - Parameters:
    ///   - locale: A language tag (`fr`, `fr-CA`) or a catalog file ending in `.yml`/`.yaml`.
    ///   - rulesPath: The rules file (its folder holds `messages/`).
    ///   - structuralRules: The readers' structural rules (a catalog may translate them).
    ///   - environment: Where `AUDITOR_MESSAGES_PATH` is read.
    /// - Returns: The loaded catalog, or ``MessageCatalog/english`` for `en`.
    /// - Throws: ``AuditError`` `.usage` when no catalog is found (naming the folders searched
    ///   and the locales there), the catalog's own errors when it is invalid.
    public static func catalog(for locale: String, rulesPath: String, structuralRules: [StructuralRule] = [],
                               environment: [String: String] = ProcessInfo.processInfo.environment) throws -> MessageCatalog {
        let lower = locale.lowercased()
        if lower.hasSuffix(".yml") || lower.hasSuffix(".yaml") {
            guard FileManager.default.fileExists(atPath: locale) else {
                throw AuditError(.usage, "--locale names the catalog file '\(locale)', which does not exist")
            }
            return try MessageCatalog.load(path: locale, structuralRules: structuralRules)
        }
        guard locale.range(of: "^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$", options: .regularExpression) != nil else {
            throw AuditError(.usage, "--locale takes a language tag such as 'fr' or 'fr-CA', or a catalog file ending in .yml; got '\(locale)'")
        }
        let folders = searchFolders(rulesPath: rulesPath, environment: environment)
        var tags = [locale]
        if let cut = locale.firstIndex(where: { $0 == "-" || $0 == "_" }) { tags.append(String(locale[..<cut])) }
        for tag in tags {
            for folder in folders {
                let path = (folder as NSString).appendingPathComponent("\(tag).yml")
                if FileManager.default.fileExists(atPath: path) { return try MessageCatalog.load(path: path, structuralRules: structuralRules) }
            }
        }
        if tags.last?.lowercased() == "en" { return .english }
        let available = Set(folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                .filter { $0.hasSuffix(".yml") }.map { String($0.dropLast(4)) }
        }).union(["en"]).sorted()
        var message = "no message catalog for locale '\(locale)': looked for \(tags.map { "\($0).yml" }.joined(separator: " and ")) in "
            + folders.map { "'\($0)/'" }.joined(separator: ", ")
        message += "; available: \(available.joined(separator: ", "))"
        if let close = Suggest.closest(to: locale, in: available) { message += "; did you mean '\(close)'?" }
        let firstCandidate = (folders[0] as NSString).appendingPathComponent("\(locale).yml")
        throw AuditError(.usage, message, location: firstCandidate)
    }

    /// `<rules folder>/messages`, then `$AUDITOR_MESSAGES_PATH`'s folders.
    public static func searchFolders(rulesPath: String, environment: [String: String]) -> [String] {
        let rulesFolder = (rulesPath as NSString).deletingLastPathComponent
        var folders = [((rulesFolder.isEmpty ? "." : rulesFolder) as NSString).appendingPathComponent("messages")]
        if let extra = environment["AUDITOR_MESSAGES_PATH"] {
            folders += extra.split(separator: ":").map(String.init).filter { !$0.isEmpty }
        }
        return folders
    }
}
