import Auditor

/// A tiny reader of records held in memory: what a library user writes to plug in a source.
final class InMemoryReader: RecordReader {
    let schema: Schema
    let rows: [[String?]]
    var position = 0
    var locationStyle: LocationStyle { .line }

    init(fields: [String], rows: [[String?]]) {
        schema = Schema(fields: fields)
        self.rows = rows
    }

    func nextChunk(maxRecords: Int) throws -> RecordChunk? {
        guard position < rows.count else { return nil }
        var b = RecordChunkBuilder(columnCount: schema.fields.count, firstRecord: position, capacity: maxRecords)
        while position < rows.count, b.count < maxRecords {
            b.beginRecord(location: Int64(position + 2))    // line 1 is a header
            for (c, v) in rows[position].enumerated() where v != nil { b.setText(c, v!) }   // v != nil checked
            position += 1
        }
        return b.build()
    }

    /// A factory whose format is `memory`, serving `rows` for any path.
    static func factory(fields: [String], rows: [[String?]]) -> ReaderFactory {
        ReaderFactory(format: "memory", extensions: ["mem"]) { _ in InMemoryReader(fields: fields, rows: rows) }
    }
}

extension InMemoryReader {
    /// A factory serving one table per file name (`people.mem` → `tables["people"]`).
    static func factory(tables: [String: (fields: [String], rows: [[String?]])]) -> ReaderFactory {
        ReaderFactory(format: "memory", extensions: ["mem"]) { request in
            let name = String(request.path.split(separator: "/").last ?? "").replacingOccurrences(of: ".mem", with: "")
            guard let t = tables[name] else { throw AuditError(.missingInput, "no such table", location: request.path) }
            return InMemoryReader(fields: t.fields, rows: t.rows)
        }
    }
}

/// Runs YAML rules on several in-memory tables.
func audit(_ yaml: String, tables: [String: (fields: [String], rows: [[String?]])], jobs: Int = 1, chunkSize: Int = 2,
           asOf: Int64 = 0) throws -> AuditResult {
    let registry = ReaderRegistry([InMemoryReader.factory(tables: tables)])
    let plan = try RuleCompiler.compile(try RulesFileParser(formats: registry.formats).parse(yaml, path: "rules.yml"))
    return try AuditEngine(registry: registry, options: AuditOptions(jobs: jobs, chunkSize: chunkSize, asOf: asOf)).run(plan)
}

/// Builds a plan from YAML text and runs it on in-memory rows.
func audit(_ yaml: String, fields: [String], rows: [[String?]], jobs: Int = 1, chunkSize: Int = 3,
           maxSamples: Int = 20) throws -> AuditResult {
    let registry = ReaderRegistry([InMemoryReader.factory(fields: fields, rows: rows)])
    let spec = try RulesFileParser(formats: registry.formats).parse(yaml, path: "rules.yml")
    let plan = try RuleCompiler.compile(spec)
    let engine = AuditEngine(registry: registry, options: AuditOptions(jobs: jobs, chunkSize: chunkSize, maxSamples: maxSamples))
    return try engine.run(plan)
}

extension AuditResult {
    /// Violations per rule id.
    var counts: [String: Int] {
        Dictionary(report.rules.map { ($0.id, $0.violations) }, uniquingKeysWith: +)
    }
}
