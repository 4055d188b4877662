import ArgumentParser
import Auditor
import Foundation
import Readers
import Reports

/// Shared wiring of the subcommands.
enum CLI {
    /// Parses, validates (including every source's format options) and compiles a rules file.
    static func loadPlan(_ path: String, catalog: MessageCatalog = .english,
                         now: Int64 = Int64(Date().timeIntervalSince1970)) throws -> AuditPlan {
        try loadSpecAndPlan(path, catalog: catalog, now: now).plan
    }

    /// ``loadPlan(_:catalog:now:)`` that also returns the parsed file (for `check`'s warnings).
    static func loadSpecAndPlan(_ path: String, catalog: MessageCatalog = .english,
                                now: Int64 = Int64(Date().timeIntervalSince1970)) throws -> (spec: RulesSpec, plan: AuditPlan) {
        let registry = StandardReaders.registry
        let spec = try RulesFileParser(formats: registry.formats, locale: catalog.locale).load(path: path)
        // Every source's option blocks, decoded once; the plan carries the typed options.
        let decoded = registry.decodeOptions(spec.sources)
        var d = decoded.diagnostics
        // List and map constraints need list and map fields (split:, XML as: list|map). Every
        // option block of the source counts: one source may be read as CSV or XML (--source).
        d += RuleCompiler.collectionDiagnostics(spec) { source in decoded.options.fieldShapes(source: source.name) }
        var plan: AuditPlan
        do {
            plan = try RuleCompiler.compile(spec, catalog: catalog, now: now)
            plan.adopt(decoded.options)
        } catch let e as AuditError {
            throw AuditError.invalidRules(d + e.diagnostics)
        }
        // The catalog's rule ids name rules that exist (located in the catalog file).
        let ruleIDs = plan.entities.flatMap { $0.rules.map(\.id) } + StandardReaders.structuralRules.map(\.id)
        d += catalog.unknownRuleDiagnostics(known: Set(ruleIDs))
        d += catalog.structuralDiagnostics(StandardReaders.structuralRules)
        d += catalog.unknownNameDiagnostics(entities: plan.entities.map { ($0.name, $0.attributes.map(\.name)) })
        // Attributes against fields the options declare (no data is read).
        for entity in plan.entities {
            guard let source = plan.source(named: entity.source),
                  let factory = source.format.flatMap(registry.factory(format:)) ?? registry.factory(forPath: source.resolvedPath),
                  let fields = plan.readerOptions?[source.name, factory.format]?.declaredFields else { continue }
            d += BoundEntity.unknownAttributes(entity, fields: fields, displayPath: source.resolvedPath)
        }
        if !d.isEmpty { throw AuditError.invalidRules(d) }
        return (spec, plan)
    }

    /// Seconds since 1970 of `2026-11-20` (midnight UTC) or `2026-11-20T06:00:00Z`.
    static func instant(_ text: String) -> Int64? {
        Array(text.utf8).withUnsafeBufferPointer { p in
            ByteParsers.datetime(p) ?? ByteParsers.date(p).map { Int64($0) * 86400 }
        }
    }

    /// Runs a body, printing any error on stderr and mapping it to its exit status.
    static func guarded(_ body: () throws -> ExitStatus) -> ExitStatus {
        do {
            return try body()
        } catch let e as AuditError {
            printError(e)
            return e.code.exitStatus
        } catch {
            FileHandle.standardError.write(Data("auditor: internal error: \(error)\n".utf8))
            return .software
        }
    }

    static func printWarning(_ e: AuditError) {
        FileHandle.standardError.write(Data((TerminalText.escaped("auditor: warning: " + e.description) + "\n").utf8))
    }

    static func printError(_ e: AuditError) {
        // One line per diagnostic, each escaped on its own (data can never forge a line).
        let lines = e.diagnostics.isEmpty ? ["auditor: error: " + e.description] : e.diagnostics.map(\.description)
        FileHandle.standardError.write(Data(lines.map { TerminalText.escaped($0) + "\n" }.joined().utf8))
    }
}
