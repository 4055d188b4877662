import Auditor
import Foundation
@_spi(Testing) import AuditorReaders
import Testing

/// Options of the `counted` test format: how many records its reader makes.
struct CountedOptions: ReaderOptions, Equatable {
    var records: Int
    var declaredFields: [String]? { ["id", "parent"] }
}

/// Counts the calls a factory gets (`Sendable` through its lock).
final class FactoryCalls: @unchecked Sendable {     // every access holds `lock`
    private let lock = NSLock()
    private var counts = (decodes: 0, opens: 0)

    func decoded() { lock.withLock { counts.decodes += 1 } }
    func opened() { lock.withLock { counts.opens += 1 } }
    var decodes: Int { lock.withLock { counts.decodes } }
    var opens: Int { lock.withLock { counts.opens } }
}

/// Records `id` 1...n whose `parent` is `id - 1` (none for the first).
final class CountedReader: RecordReader {
    let schema = Schema(fields: ["id", "parent"])
    var locationStyle: LocationStyle { .line }
    private let total: Int
    private var next = 0

    init(records: Int) { total = records }

    func nextChunk(maxRecords: Int) throws -> RecordChunk? {
        guard next < total else { return nil }
        var b = RecordChunkBuilder(columnCount: 2, firstRecord: next)
        while next < total, b.count < maxRecords {
            b.beginRecord(location: Int64(next + 1))
            b.setText(0, String(next + 1))
            if next > 0 { b.setText(1, String(next)) }
            next += 1
        }
        return b.build()
    }
}

/// Issue 14: reader options are decoded once, when the plan is compiled, into typed values
/// the plan carries and the readers are made with.
@Suite struct ReaderOptionsTests {
    static func countedFactory(_ calls: FactoryCalls) -> ReaderFactory {
        ReaderFactory(format: "counted", extensions: ["counted"], decodeOptions: { node throws(AuditError) in
            calls.decoded()
            guard let node else { return DefaultReaderOptions() }
            do throws(Diagnostic) {
                let block = try node.mapping("the counted block")
                guard let records = block["records"] else { throw node.error("the counted block needs 'records:'") }
                return CountedOptions(records: try records.int("records"))
            } catch {
                throw AuditError.invalidRules([error])
            }
        }, open: { request in
            calls.opened()
            guard let options = try request.options(as: CountedOptions.self) else {
                throw AuditError(.invalidRules, "the counted reader needs a block", location: request.displayPath)
            }
            return CountedReader(records: options.records)
        })
    }

    static let yaml = """
        version: 1
        sources:
          nodes: { path: nodes.counted, counted: { records: 25 }, csv: { delimiter: ";" } }
        entities:
          Node:
            source: nodes
            key: [id]
            attributes:
              id: { type: integer, unique: true }
              parent: { type: integer }
            relationships:
              up: { attribute: parent, references: Node.id }
        """

    @Test(arguments: [1, 2])
    func blocksAreDecodedOnceThoughTheSourceIsOpenedTwice(jobs: Int) throws {
        let calls = FactoryCalls()
        var registry = StandardReaders.registry
        registry.register(Self.countedFactory(calls))
        let spec = try RulesFileParser(formats: registry.formats).parse(Self.yaml, path: "rules.yml")
        let decoded = registry.decodeOptions(spec.sources)
        #expect(decoded.diagnostics.isEmpty)
        var plan = try RuleCompiler.compile(spec)
        plan.adopt(decoded.options)
        // The plan carries typed options, not the raw blocks.
        #expect(plan.sources.allSatisfy { $0.options.isEmpty })
        #expect(plan.readerOptions?["nodes", "counted"] as? CountedOptions == CountedOptions(records: 25))
        #expect((plan.readerOptions?["nodes", "csv"] as? CSVOptions)?.delimiter == UInt8(ascii: ";"))
        #expect(plan.readerOptions?["nodes", "counted"]?.declaredFields == ["id", "parent"])
        let result = try AuditEngine(registry: registry, options: AuditOptions(jobs: jobs, chunkSize: 7)).run(plan)
        #expect(result.report.rules.first { $0.id == "Node.parent.fk" }?.violations == 0)
        #expect(result.report.inputs.first?.records == 25)
        // The self-reference reads the source twice (keys first); the block was decoded once.
        #expect(calls.opens == 2)
        #expect(calls.decodes == 1)
    }

    @Test func aPlanCompiledWithoutTheRegistryIsDecodedOnceByTheEngine() throws {
        let calls = FactoryCalls()
        var registry = StandardReaders.registry
        registry.register(Self.countedFactory(calls))
        let plan = try RuleCompiler.compile(try RulesFileParser(formats: registry.formats).parse(Self.yaml, path: "rules.yml"))
        #expect(plan.readerOptions == nil)
        _ = try AuditEngine(registry: registry, options: AuditOptions(jobs: 1, chunkSize: 7)).run(plan)
        #expect(calls.opens == 2)
        #expect(calls.decodes == 1)
    }

    @Test func problemsKeepTheirRulesFileLocations() throws {
        let yaml = """
            version: 1
            sources:
              a: { path: a.csv, csv: { delimiter: ";;" }, xml: { recrod: x } }
              b:
                path: b.sqlite
                sqlite: { table: t, query: "SELECT 1" }
            entities:
              A: { source: a, attributes: { x: string } }
              B: { source: b, attributes: { x: string } }
            """
        let registry = StandardReaders.registry
        let spec = try RulesFileParser(formats: registry.formats).parse(yaml, path: "rules.yml")
        let (options, diagnostics) = registry.decodeOptions(spec.sources)
        #expect(options.bySource.isEmpty)
        // Sources in order, each one's formats by name: csv, xml, then sqlite; every one located
        // at its token (what `auditor check` printed before the options were typed).
        #expect(diagnostics.map { "\($0.mark.line):\($0.mark.column)" } == ["3:39", "3:54", "3:52", "6:25"], "\(diagnostics)")
        #expect(diagnostics.first?.message.contains("delimiter") == true)
        #expect(diagnostics.last?.message.contains("cannot be used together") == true)
    }

    /// The `.tsv` default delimiter follows the path the reader opens (`--source`), not the
    /// path the plan was compiled with, unless the block sets one.
    @Test(arguments: [("x.tsv", nil, "a\tb"), ("x.csv", nil, "a,b"), ("x.tsv", ";", "a;b")] as [(String, String?, String)])
    func theDelimiterDefaultFollowsTheOpenedPath(name: String, delimiter: String?, line: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-options-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = dir.appendingPathComponent(name).path
        try Data("a\(line.dropFirst().first.map(String.init) ?? ",")b\n\(line.replacingOccurrences(of: "a", with: "1").replacingOccurrences(of: "b", with: "2"))\n".utf8)
            .write(to: URL(fileURLWithPath: data))
        let block = delimiter.map { "{ header: true, delimiter: \"\($0)\" }" } ?? "{ header: true }"
        let yaml = """
            version: 1
            sources:
              t: { path: compiled.csv, format: csv, csv: \(block) }
            entities:
              T: { source: t, attributes: { a: { type: integer, required: true }, b: { type: integer, required: true } } }
            """
        let registry = StandardReaders.registry
        let spec = try RulesFileParser(formats: registry.formats).parse(yaml, path: "rules.yml")
        let decoded = registry.decodeOptions(spec.sources)
        var plan = try RuleCompiler.compile(spec)
        plan.adopt(decoded.options)
        let result = try AuditEngine(registry: registry, options: AuditOptions(jobs: 1, sourcePaths: ["t": data])).run(plan)
        #expect(result.report.inputs.first?.records == 1)
        #expect(result.report.rules.allSatisfy { $0.violations == 0 }, "\(result.report.rules.map { ($0.id, $0.violations) })")
    }
}
