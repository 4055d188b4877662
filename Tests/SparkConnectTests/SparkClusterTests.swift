#if Spark
import Foundation
import SparkConnect
import Testing

/// The audit on a standalone Spark cluster on loopback (issue 17): a master and two one-core
/// workers started with `spark-class`, and a Connect server submitted to that master
/// (`scripts/spark-connect.sh` with `SPARK_CONNECT_WORKERS=2`). It proves that the pushed-down
/// audit runs distributed, not only in local mode: exact counts, and tasks on both executors.
///
/// Opt-in with `SPARK_CLUSTER=1`, since it starts four JVMs (about 1.5 minutes here):
/// `SPARK_CLUSTER=1 SPARK_PYTHON=/work/venv-spark/bin/python swift test --traits Spark --filter SparkClusterTests`.
@Suite("spark: the audit on a standalone cluster of two workers",
       .enabled(if: SparkTestServer.clusterEnabled, "opt-in: SPARK_CLUSTER=1, with pyspark 4.x and Java 17"))
struct SparkClusterTests {

    /// gen.py's people.csv cut into 4 files at record boundaries (a line starts a record when the
    /// quotes before it are balanced): Spark reads a multi-line CSV file in one task, so one file
    /// would keep the second worker idle.
    static let split = #"""
        import os, sys
        src, out, parts = sys.argv[1], sys.argv[2], 4
        os.makedirs(out)
        lines = open(src, "rb").readlines()
        header, body = lines[0], lines[1:]
        size = sum(map(len, body)) / parts
        part, written, quotes, f = 0, 0, 0, None
        for line in body:
            if f is None or (quotes % 2 == 0 and written >= size * (part + 1) and part < parts - 1):
                if f is not None:
                    f.close()
                    part += 1
                f = open(os.path.join(out, "part-%d.csv" % part), "wb")
                f.write(header)
            f.write(line)
            written += len(line)
            quotes += line.count(b'"')
        f.close()
        """#

    /// The executors (not the driver) in the driver's REST API, `/api/v1/applications/<id>/executors`
    /// (read with python3's urllib): how many, how many ran tasks, and each one's id and task count.
    static func executors(uiPort: Int) throws -> (count: Int, busy: Int, detail: String) {
        let script = "import json, urllib.request as u; base = 'http://127.0.0.1:\(uiPort)/api/v1/applications'; "
            + "app = json.load(u.urlopen(base))[0]['id']; print(json.dumps(json.load(u.urlopen(base + '/' + app + '/executors'))))"
        let result = try SparkTestServer.run(["-c", "python3 -c \"\(script)\""])
        guard result.status == 0, let data = result.output.data(using: .utf8),
              let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw SparkTestServer.Failure(description: "the REST API did not answer: \(result.output)")
        }
        let executors = list.filter { $0["id"] as? String != "driver" }
        let tasks = executors.map { (($0["id"] as? String) ?? "?", ($0["totalTasks"] as? NSNumber)?.intValue ?? 0) }
        return (executors.count, tasks.filter { $0.1 > 0 }.count, tasks.map { "executor \($0.0): \($0.1) tasks" }.joined(separator: ", "))
    }

    @Test("the pushed-down audit gives expected.json's counts, with tasks on both workers' executors")
    func auditOnTwoWorkers() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-spark-cluster-\(getpid())")
        let data = folder.appendingPathComponent("data")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let port = SparkTestServer.freePort(), ui = SparkTestServer.freePort()
        let server = folder.appendingPathComponent("spark").path
        // `stop` ends the server, the master and the workers (and the watchdog, if this process dies first).
        defer {
            _ = try? SparkTestServer.run([SparkTestServer.script, "stop", server])
            try? FileManager.default.removeItem(at: folder)
        }
        let started = try await AuditorBinary.offPool {
            try SparkTestServer.run([SparkTestServer.script, "start", server, String(port), String(getpid())],
                                    environment: ["SPARK_CONNECT_WORKERS": "2", "SPARK_CONNECT_UI_PORT": String(ui)])
        }
        try #require(started.status == 0, "spark-connect.sh start: \(started.output)")
        try Self.split.write(to: folder.appendingPathComponent("split.py"), atomically: true, encoding: .utf8)
        let gen = try await AuditorBinary.offPool {
            try SparkTestServer.run(["-c", "python3 /work/shared/bench/gen.py --rows 20000 --seed 7 --formats csv --out '\(data.path)' "
                                           + "&& python3 '\(folder.path)/split.py' '\(data.path)/people.csv' '\(data.path)/people'"])
        }
        try #require(gen.status == 0, "gen.py / split.py: \(gen.output)")

        let url = "sc://127.0.0.1:\(port)"
        let spark = try SparkConnectClient(url, timeout: .seconds(300))
        for (table, path) in [("bench_people", "people"), ("bench_departments", "departments.csv")] {
            _ = try await spark.sql("CREATE TABLE \(table) USING csv OPTIONS (path '\(data.appendingPathComponent(path).path)', "
                                    + "header 'true', multiLine 'true', escape '\"', inferSchema 'false')")
        }
        // Both executors registered before the audit, so that the scheduler can use both.
        var waited = 0
        while try await AuditorBinary.offPool({ try Self.executors(uiPort: ui).count }) < 2 {
            try #require(waited < 240, "two executors did not register within 2 minutes")
            try await Task.sleep(for: .milliseconds(500))
            waited += 1
        }

        let rules = try SparkSourceTests.rules(data)
        let run = try await AuditorBinary.offPool {
            try AuditorBinary.run(["run", rules, "--source", "people=\(url)", "--source", "departments=\(url)",
                                   "--format", "json", "--pushdown"])
        }
        #expect(run.status == 1, "rule failures: exit 1\n\(run)")
        let report = try AuditorBinary.json(run)
        let got = AuditorBinary.violations(report)
        let expected = try SparkSourceTests.expected(data)
        #expect(expected.count == 26)
        for (id, want) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(got[id] == want, "\(id): expected \(want), the report says \(got[id].map(String.init) ?? "nothing")")
        }
        let people = try #require(AuditorBinary.input(report, source: "people"))
        #expect(people["ranIn"] as? String == "spark", "\(people)")
        #expect((people["records"] as? NSNumber)?.intValue == 20_000)

        let executors = try await AuditorBinary.offPool { try Self.executors(uiPort: ui) }
        #expect(executors.count == 2, "\(executors.detail)")
        #expect(executors.busy == 2, "both workers' executors ran tasks: \(executors.detail)")
    }
}

extension SparkTestServer {
    /// Whether SparkClusterTests run: `SPARK_CLUSTER=1` and a Spark that can start here.
    static var clusterEnabled: Bool {
        ProcessInfo.processInfo.environment["SPARK_CLUSTER"] == "1" && (try? run([script, "check"]).status) == 0
    }
}
#endif
