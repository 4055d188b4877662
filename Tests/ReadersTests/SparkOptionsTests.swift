import Auditor
@testable import AuditorReaders
import Testing

/// The `spark:` block, decoded in every build; and, without the `Spark` trait, the error that
/// reading a Spark source gives.
struct SparkOptionsTests {
    func decode(_ yaml: String) throws -> SparkOptions {
        try SparkOptions.decode(try YAMLLoader.load(yaml, file: "rules.yml"), sourceName: "people")
    }

    @Test func tableAndFiles() throws {
        let table = try decode("{ table: lake.people, locate: id }")
        #expect(table.source == .table("lake.people"))
        #expect(table.locate == "id")
        let files = try decode("{ files: /data/people/, format: parquet, options: { mergeSchema: \"true\" } }")
        #expect(files.source == .files(path: "/data/people/", format: "parquet", options: ["mergeSchema": "true"]))
    }

    /// `readWholeBelow:` is Spark's broadcast threshold by default; 0 pushes every table down.
    @Test func readWholeBelow() throws {
        #expect(try decode("{ table: a }").readWholeBelow == 10 << 20)
        #expect(try decode("{ table: a, readWholeBelow: 0 }").readWholeBelow == 0)
        #expect(try decode("{ table: a, readWholeBelow: 64M }").readWholeBelow == 64 << 20)
        #expect(try decode("{ table: a, readWholeBelow: 1GiB }").readWholeBelow == 1 << 30)
        #expect(try decode("{ table: a, readWholeBelow: 2097152 }").readWholeBelow == 2 << 20)
        let error = try #require(throws: AuditError.self) { try decode("{ table: a, readWholeBelow: 512K }") }
        #expect(error.description.contains("'readWholeBelow:' is a size of at least 1M"), "\(error)")
    }

    @Test(arguments: ["{ }", "{ table: a, files: b, format: csv }", "{ files: b }", "{ files: b, format: orc }",
                      "{ table: a, format: csv }", "{ table: a, timeout: 0 }", "{ table: a, tabel: b }",
                      "{ table: a, readWholeBelow: -1 }", "{ table: a, readWholeBelow: ten }", "{ table: a, readWholeBelow: [1M] }"])
    func refused(_ yaml: String) {
        #expect(throws: AuditError.self) { try decode(yaml) }
    }

    /// Spark ignores an option name it does not know: a typo would read the files as if it were
    /// not written, so it is refused at its line with the likely name. Names are Spark's, in any
    /// case; a name with a dot (a Hadoop setting) passes unchecked. `DROPMALFORMED` would let
    /// Spark drop records uncounted, and a green audit would not have checked them.
    @Test func optionNamesAreSparks() throws {
        let ok = try decode("{ files: s3a://lake/p.csv, format: csv, options: { Header: \"true\", MULTILINE: \"false\", fs.s3a.endpoint: x } }")
        #expect(ok.source == .files(path: "s3a://lake/p.csv", format: "csv", options: ["Header": "true", "MULTILINE": "false", "fs.s3a.endpoint": "x"]))
        _ = try decode("{ files: p.json, format: json, options: { prefersDecimal: \"true\", mode: PERMISSIVE } }")
        _ = try decode("{ files: p/, format: parquet, options: { mergeSchema: \"true\", recursiveFileLookup: \"true\" } }")
        for (yaml, suggestion) in [("{ files: p.csv, format: csv, options: { hedaer: \"true\" } }", "did you mean 'header'?"),
                                   ("{ files: p.json, format: json, options: { primitiveAsString: \"true\" } }", "did you mean 'primitivesAsString'?"),
                                   ("{ files: p/, format: parquet, options: { header: \"true\" } }", "Spark would ignore it. Its options: basePath"),
                                   ("{ files: p.csv, format: csv, options: { mode: FAILFST } }", "Spark would read as PERMISSIVE"),
                                   ("{ files: p.csv, format: csv, options: { mode: dropMalformed } }", "drops the records that Spark cannot parse"),
                                   ("{ files: p.json, format: json, options: { MODE: DROPMALFORMED } }", "use FAILFAST")] {
            let error = try #require(throws: AuditError.self) { try decode(yaml) }
            #expect(error.code.exitStatus.rawValue == 78)
            #expect(error.description.contains("rules.yml:1:") && error.description.contains(suggestion), "\(error)")
        }
    }

    #if !Spark
    @Test func withoutTheTraitReadingSaysHowToBuild() throws {
        let request = ReaderRequest(sourceName: "people", path: "sc://127.0.0.1:15002", displayPath: "sc://127.0.0.1:15002",
                                    fields: ["id"])
        let error = try #require(throws: AuditError.self) { _ = try SparkSource.factory.open(request) }
        #expect(error.code == .invalidRules)
        #expect(error.code.exitStatus.rawValue == 78)
        #expect(error.message.contains("built without Spark: build with `swift build --traits Spark`"))
        #expect(StandardReaders.registry.factory(forPath: "sc://host:15002")?.format == "spark")
    }
    #endif
}
