import Auditor
import Foundation
import AuditorReaders
import AuditorReports
import Testing

/// Unique key sets beyond `--memory-limit` (issue 20): spilled to disk in hash partitions and
/// resolved one at a time, the input read again. The report, the failures file and the exit
/// status must be those of the in-memory run, whether the limit is passed at the first chunk
/// or half-way (after records already went to the failures file), with one job or two; and
/// the duplicate counts must be the model's (valid keys minus distinct keys).
@Suite struct KeySpillTests {
    static let rules = """
        version: 1
        sources:
          people: { path: people.csv, csv: { header: true } }
        entities:
          P:
            source: people
            key: [id]
            unique: [[a, b]]
            attributes:
              id: { type: integer, required: true, unique: true }
              code: { type: string, unique: true }
              seq: { type: integer, unique: true }
              a: { type: integer }
              b: { type: string }
              name: { type: string, minLength: 3 }

        """

    /// Sparse 40-bit ids with repeats of earlier ones, bad and missing ids, text codes and
    /// (a, b) pairs with repeats, dense sequence numbers with a few repeats.
    static func data(rows: Int) -> (csv: String, duplicates: [String: Int]) {
        var state: UInt64 = 99
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        var ids = [String](), codes = [String](), pairs = [String](), seqs = [String]()
        var csv = "id,code,seq,a,b,name\n"
        for r in 0 ..< rows {
            let id: String
            switch next(20) {
            case 0 where !ids.isEmpty: id = ids[next(ids.count)]
            case 1: id = "x\(next(9))"
            case 2: id = ""
            default: id = String(next(1 << 40))
            }
            let code = next(8) == 0 && !codes.isEmpty ? codes[next(codes.count)] : "c\(next(rows * 4))"
            let a = String(next(50)), b = ["p", "q", "r", "é"][next(4)] + String(next(60))
            let seq = next(100) == 0 ? String(next(r + 1)) : String(r)
            ids.append(id)
            codes.append(code)
            pairs.append(a + "\u{1}" + b)
            seqs.append(seq)
            csv += "\(id),\(code),\(seq),\(a),\(b),\(["Al", "Bob", "Cyd"][next(3)])\n"
        }
        func duplicates(_ values: [String]) -> Int {
            let valid = values.filter { !$0.isEmpty && !$0.hasPrefix("x") }
            return valid.count - Set(valid).count
        }
        return (csv, ["P.id.unique": duplicates(ids), "P.code.unique": duplicates(codes),
                      "P.seq.unique": duplicates(seqs), "P.a+b.unique": duplicates(pairs)])
    }

    /// The JSON report without the spilled sizes (they depend on the allocator's rounding).
    static func stable(_ report: AuditReport) throws -> NSDictionary {
        try LibraryMatchesCLITests.stable(Data(JSONReporter().render(report).utf8), ignoring: ["keysSpilled", "referencedKeysSpilled"])
    }

    /// An audit of `folder`'s rules.yml in chunks of 300 records, with the failures file `failures`.
    static func run(_ folder: Folder, limit: Int?, jobs: Int, failures: String) throws -> AuditOutcome {
        var request = Session.request(folder)
        request.jobs = jobs
        request.chunkSize = 300
        request.maxSamples = 7
        request.memoryLimit = limit
        request.collectFingerprints = true
        request.findingSink = { try FailuresFile(path: folder.path(failures), protecting: $0) }
        return try AuditSession(request).run()
    }

    @Test("Spilled unique keys give the in-memory report, failures file and exit status", arguments: [1, 2])
    func sameReport(jobs: Int) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (csv, model) = Self.data(rows: 12_000)
        try folder.write("rules.yml", Self.rules)
        try folder.write("people.csv", csv)
        let memory = try Self.run(folder, limit: nil, jobs: jobs, failures: "memory.jsonl")
        #expect(memory.report.inputs.first?.keysSpilled == nil)
        for (rule, count) in model {
            #expect(Session.violations(memory)[rule] == count, "\(rule)")
        }
        #expect(model.values.allSatisfy { $0 > 20 })
        // 1 byte: over at the first chunk. 40,000 bytes: half-way, once the range of `seq`
        // and the hash tables of the others have grown (records already in the failures file).
        for limit in [1, 40_000] {
            let spilled = try Self.run(folder, limit: limit, jobs: jobs, failures: "spilled-\(limit).jsonl")
            let bytes = try #require(spilled.report.inputs.first?.keysSpilled)
            #expect(bytes > limit)
            #expect(try Self.stable(spilled.report) == Self.stable(memory.report))
            #expect(spilled.exitStatus == memory.exitStatus)
            #expect(try folder.read("spilled-\(limit).jsonl") == folder.read("memory.jsonl"))
        }
    }

    @Test("--memory-limit takes sizes of at least 1 MiB in powers of 1024")
    func sizes() {
        #expect(AuditRequest.byteSize("2G") == 2 << 30)
        #expect(AuditRequest.byteSize("512M") == 512 << 20)
        #expect(AuditRequest.byteSize("512MiB") == 512 << 20)
        #expect(AuditRequest.byteSize("1gb") == 1 << 30)
        #expect(AuditRequest.byteSize("1048576") == 1 << 20)
        #expect(AuditRequest.byteSize("3T") == 3 << 40)
        for bad in ["", "G", "1.5G", "-1G", "0", "1K", "1048575", "2X", "９M", "99999999999999999999T"] {
            #expect(AuditRequest.byteSize(bad) == nil, "\(bad)")
        }
    }
}
