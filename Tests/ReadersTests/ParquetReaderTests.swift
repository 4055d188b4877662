import Auditor
@testable import AuditorReaders
import Foundation
import TestSupport
import Testing

@Suite struct ParquetReaderTests {
    static let fixtureFiles: [String] = {
        ((try? FileManager.default.contentsOfDirectory(atPath: ParquetTestSupport.fixtures.path)) ?? [])
            .filter { $0.hasSuffix(".parquet") && $0 != "struct.parquet" }.sorted()
    }()

    @Test("a committed fixture reads exactly as pyarrow reads it", arguments: fixtureFiles)
    func fixture(_ name: String) throws {
        let url = ParquetTestSupport.fixtures.appendingPathComponent(name)
        for (size, jobs) in [(4096, 1), (7, 1), (1, 1), (4096, 2), (5, 2)] {
            let problems = try ParquetTestSupport.compare(url, chunkSize: size, parallelism: jobs)
            #expect(problems.isEmpty, "chunk size \(size), \(jobs) jobs: \(problems.joined(separator: "\n"))")
        }
    }

    @Test func conformance() throws {
        let path = ParquetTestSupport.fixtures.appendingPathComponent("nested-plain-none-v1.parquet").path
        let one = try ReaderConformance.check { try ParquetTestSupport.reader(path) }
        let two = try ReaderConformance.check { try ParquetTestSupport.reader(path, parallelism: 2) }
        #expect(one == two)
        #expect(one.count == 17)
    }

    @Test func onlyRequestedColumnsInRequestOrder() throws {
        let path = ParquetTestSupport.fixtures.appendingPathComponent("flat-plain-none-v1.parquet").path
        let reader = try ParquetTestSupport.reader(path, fields: ["s", "nope", "i32"])
        #expect(reader.schema.fields == ["s", "i32"])
        #expect(reader.availableFields.contains("dec38"))
        let chunk = try #require(try reader.nextChunk(maxRecords: 100))
        #expect(chunk.columns.count == 2)
        #expect(!chunk.storageClasses)
    }

    @Test func locationsNameRowGroupAndRow() throws {
        let path = ParquetTestSupport.fixtures.appendingPathComponent("flat-plain-none-v1.parquet").path
        let reader = try ParquetTestSupport.reader(path, fields: ["i32"])
        #expect(reader.locationStyle == .rowGroup)
        var locations = [String]()
        while let chunk = try reader.nextChunk(maxRecords: 100) {
            for r in 0 ..< chunk.count {
                locations.append(RecordLocation(path: "f.parquet", style: .rowGroup, value: chunk.locations[r],
                                                record: chunk.firstRecord + r + 1).description)
            }
        }
        #expect(locations.first == "f.parquet:rowgroup 0:row 0")
        #expect(locations.contains("f.parquet:rowgroup 1:row 0"))
        #expect(locations.count == 23)
    }

    @Test func structColumnIsRefusedByName() throws {
        let path = ParquetTestSupport.fixtures.appendingPathComponent("struct.parquet").path
        #expect(throws: AuditError.self) { try ParquetTestSupport.reader(path, fields: ["id", "point"]) }
        do {
            _ = try ParquetTestSupport.reader(path, fields: ["id", "point"])
        } catch let error as AuditError {
            #expect(error.code == .malformedInput)
            #expect(error.message.contains("'point'"))
            #expect(error.message.contains("struct"))
        }
        // Not needed by the rules: the other column reads.
        let reader = try ParquetTestSupport.reader(path, fields: ["id"])
        #expect(try ParquetTestSupport.records(reader, chunkSize: 10).count == 2)
    }

    @Test func registeredForTheExtension() {
        #expect(StandardReaders.registry.factory(forPath: "x/people.PARQUET")?.format == "parquet")
    }

    /// The differential test: random tables × every encoding × every codec × page v1/v2 ×
    /// nulls, written by pyarrow, read by us, compared value by value with pyarrow's reading.
    @Test(.enabled(if: ParquetTestSupport.pyarrowPython != nil, "needs a Python with pyarrow (.venv made by .ci/run)"),
          arguments: [1, 2])
    func differentialWithPyarrow(seed: Int) throws {
        let python = try #require(ParquetTestSupport.pyarrowPython)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parquet-diff-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ChildProcess.run([python, ParquetTestSupport.repository.appendingPathComponent("scripts/make-parquet-fixtures.py").path,
                                        folder.path, "--random", String(seed)])
        try #require(run.status == 0, "\(run)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".parquet") }.sorted()
        #expect(files.count == 4 * 4 * 2 * 2 + 2 * 4 * 2 * 2)
        for name in files {
            let problems = try ParquetTestSupport.compare(folder.appendingPathComponent(name), chunkSize: 97, parallelism: 2)
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        }
    }
}
