import Foundation

/// `auditor check --data`: opens every entity's source and compares the declared attributes
/// with the fields the input really has (CSV header, SQLite table columns, the child elements
/// and attributes of XML records), without evaluating any rule.
package enum SourceFieldsCheck {
    /// - Returns: an error per declared attribute the input lacks (located at the attribute),
    ///   a warning per field of the input that no attribute declares (at the entity).
    /// - Throws: ``AuditError`` when a source cannot be opened or read (its own exit status).
    /// - Parameters:
    ///   - plan: The compiled rules.
    ///   - registry: The readers that open the sources.
    public static func run(_ plan: AuditPlan, registry: ReaderRegistry) throws -> [LintDiagnostic] {
        var out = [LintDiagnostic]()
        for entity in plan.entities {
            guard let source = plan.source(named: entity.source) else { continue }
            // A source of several files: its first one (the audit checks the others against it).
            let extensions = source.format.flatMap { registry.factory(format: $0)?.extensions } ?? registry.factories.flatMap(\.extensions)
            let path = try InputSet.expand(source.entries, extensions: extensions).first ?? source.resolvedPath
            guard let factory = source.format.flatMap(registry.factory(format:)) ?? registry.factory(forPath: path) else {
                throw AuditError.invalidRules([Diagnostic(mark: source.pathMark, message: "cannot tell the format of '\(path)' from its extension; add 'format:' to the source (known formats: \(registry.formats.joined(separator: ", ")))")])
            }
            let request = ReaderRequest(sourceName: source.name, path: path, displayPath: path,
                                        options: try plan.readerOptions?[source.name, factory.format] ?? factory.decodeOptions(source.options[factory.format]),
                                        fields: entity.fields,
                                        missingFieldsAllowed: true)
            let reader = try factory.open(request)
            // CSV, SQLite, PostgreSQL and Spark know every field when opened; an XML document only once read.
            if !["csv", "sqlite", "postgres", "spark"].contains(factory.format) {
                while try reader.nextChunk(maxRecords: 4096) != nil {}
            }
            let available = reader.availableFields
            let have = Set(available)
            for a in entity.attributes where !have.contains(a.name) {
                var m = "attribute '\(a.name)' of '\(entity.name)' is not a field of \(path)"
                if let s = Suggest.closest(to: a.name, in: available) { m += "; did you mean '\(s)'?" }
                m += " (its fields: \(available.prefix(12).joined(separator: ", "))\(available.count > 12 ? ", ..." : ""))"
                out.append(LintDiagnostic(.error, Diagnostic(mark: a.mark, message: m)))
            }
            let declared = Set(entity.fields)
            let extra = available.filter { !declared.contains($0) }
            if !extra.isEmpty {
                out.append(LintDiagnostic(.warning, Diagnostic(mark: source.mark, message: "\(path) has \(extra.count == 1 ? "a field" : "fields") that '\(entity.name)' does not declare, so no rule checks them: \(extra.joined(separator: ", "))")))
            }
        }
        return out
    }
}
