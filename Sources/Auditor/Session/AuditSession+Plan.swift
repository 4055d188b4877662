import Foundation

/// Compiling a rules file against the readers a session has.
extension AuditSession {
    /// Parses, validates (including every source's format options) and compiles a rules file.
    /// - Parameters:
    ///   - path: The rules file.
    ///   - registry: The readers: their formats, options and declared fields.
    ///   - structuralRules: The readers' structural rules (a catalog may translate them).
    ///   - catalog: The messages of the rules.
    ///   - now: The reference instant of freshness rules, seconds since 1970.
    ///   - sources: `--source` (``AuditRequest/sources``): the files each named source is read from
    ///     instead, whose formats and schemas the plan is then checked against.
    ///   - sourceFormats: `--source-format` (``AuditRequest/sourceFormats``).
    /// - Throws: ``AuditError`` `.invalidRules` (78) with every diagnostic, located in the file.
    public static func loadPlan(_ path: String, registry: ReaderRegistry, structuralRules: [StructuralRule] = [],
                                catalog: MessageCatalog = .english,
                                now: Int64 = Int64(Date().timeIntervalSince1970),
                                sources: [AuditRequest.SourcePath] = [], sourceFormats: [AuditRequest.SourcePath] = []) throws -> AuditPlan {
        try loadSpecAndPlan(path, registry: registry, structuralRules: structuralRules, catalog: catalog, now: now,
                            sources: sources, sourceFormats: sourceFormats).plan
    }

    /// ``loadPlan(_:registry:structuralRules:catalog:now:sources:sourceFormats:)`` that also returns the parsed file
    /// (for `auditor check`'s warnings).
    public static func loadSpecAndPlan(_ path: String, registry: ReaderRegistry, structuralRules: [StructuralRule] = [],
                                       catalog: MessageCatalog = .english,
                                       now: Int64 = Int64(Date().timeIntervalSince1970),
                                       sources: [AuditRequest.SourcePath] = [],
                                       sourceFormats: [AuditRequest.SourcePath] = []) throws -> (spec: RulesSpec, plan: AuditPlan) {
        let spec = try RulesFileParser(formats: registry.formats, locale: catalog.locale).load(path: path)
        // Every source's option blocks, decoded once; the plan carries the typed options.
        let decoded = registry.decodeOptions(spec.sources)
        var d = decoded.diagnostics
        // List and map constraints need list and map fields (split:, XML as: list|map, a Parquet
        // LIST or MAP; in JSON Lines any field not declared otherwise, as its values say). Every
        // option block of the source counts: one source may be read as CSV or XML (--source).
        // Where a file's schema cannot be read (not there yet), they are not checked here; a
        // value of another shape is then a finding of its rule. A source that `--source`
        // replaces is checked against the files it is read from.
        // (A name no source has, or one given twice, is the run's usage error, after the plan.)
        let replaced = (try? replacedFiles(sources) { name in spec.sources.first { $0.name == name }?.entries ?? [] }) ?? [:]
        func entries(_ source: SourceSpec) -> [String] { replaced[source.name] ?? source.entries }
        func factory(_ source: SourceSpec) -> ReaderFactory? {
            (sourceFormats.last { $0.name == source.name }?.path ?? source.format).flatMap(registry.factory(format:))
                ?? registry.factory(forPath: entries(source).first ?? source.resolvedPath)
        }
        let schema = { (source: SourceSpec) in factory(source).flatMap { $0.schemaShapes == nil ? nil : $0.format.capitalized } }
        let open = { (source: SourceSpec) in factory(source)?.valuesCarryShapes ?? false }
        d += RuleCompiler.collectionDiagnostics(spec, schema: schema, open: open) { source -> [String: FieldShape]? in
            // A format not told (standard input without --source-format) fails when read, more precisely.
            guard let factory = factory(source) else { return nil }
            var shapes = decoded.options.fieldShapes(source: source.name)
            if let read = factory.schemaShapes {
                let file = (try? InputSet.expand(entries(source), extensions: factory.extensions))?.first ?? source.resolvedPath
                guard let schema = read(file) else { return nil }
                shapes.merge(schema) { declared, _ in declared }
            }
            return shapes
        }
        // How the options say fields are written (`dateFormat:`), for the type rules' messages.
        var typeNames = [String: [String: String]]()
        for source in spec.sources {
            guard let factory = factory(source), let options = decoded.options[source.name, factory.format] else { continue }
            for entity in spec.entities where entity.source == source.name {
                for a in entity.attributes {
                    if let name = options.typeName(of: a.name, as: a.type) { typeNames[source.name, default: [:]][a.name] = name }
                }
            }
        }
        var plan: AuditPlan
        do {
            plan = try RuleCompiler.compile(spec, catalog: catalog, now: now, typeNames: typeNames)
            plan.adopt(decoded.options)
        } catch let e as AuditError {
            throw AuditError.invalidRules(d + e.diagnostics)
        }
        // The catalog's rule ids name rules that exist (located in the catalog file).
        let ruleIDs = plan.entities.flatMap { $0.rules.map(\.id) } + structuralRules.map(\.id)
        d += catalog.unknownRuleDiagnostics(known: Set(ruleIDs))
        d += catalog.structuralDiagnostics(structuralRules)
        d += catalog.unknownNameDiagnostics(entities: plan.entities.map { ($0.name, $0.attributes.map(\.name)) })
        // Attributes against fields the options declare (no data is read).
        for entity in plan.entities {
            guard let source = plan.source(named: entity.source), let factory = factory(source),
                  let fields = plan.readerOptions?[source.name, factory.format]?.declaredFields else { continue }
            d += BoundEntity.unknownAttributes(entity, fields: fields, displayPath: source.resolvedPath)
        }
        // Options that name fields, against every field that the source's entities read.
        for source in plan.sources {
            let entities = plan.entities.filter { $0.source == source.name }
            guard !entities.isEmpty, let factory = factory(source),
                  let options = plan.readerOptions?[source.name, factory.format] else { continue }
            d += options.problems(reading: Set(entities.flatMap(\.fields)), displayPath: source.resolvedPath)
        }
        if !d.isEmpty { throw AuditError.invalidRules(d) }
        return (spec, plan)
    }
}
