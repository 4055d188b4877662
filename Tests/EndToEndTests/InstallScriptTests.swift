import Foundation
import TestSupport
import Testing

/// `scripts/install.sh` (issue 23): what it puts under a prefix, and that the installed
/// program, its completions and the bundled example work from there. The tarball in a clean
/// Debian root is `scripts/test-release.sh`, run by `.ci/run`.
@Suite struct InstallScriptTests {
    private func sh(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        // install.sh may build the package (release) first: a long limit.
        let run = try ChildProcess.run(["/bin/sh"] + arguments, directory: Auditor.packageRoot,
                                       environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new },
                                       mergeErrors: true, timeout: 3600)
        return (run.status, run.stdoutText)
    }

    @Test func installsTheProgramManPageCompletionsAndExampleUnderThePrefix() throws {
        let binary = try #require(Auditor.executable)
        let scratch = try Scratch("install")
        defer { scratch.remove() }
        let staged = scratch.path("stage")
        let result = try sh(["scripts/install.sh", "--binary", binary.path, "--prefix", "/opt/auditor", "--destdir", staged])
        #expect(result.status == 0, "\(result.output)")
        let root = staged + "/opt/auditor"
        let fm = FileManager.default
        for file in ["bin/auditor", "share/man/man1/auditor.1", "share/bash-completion/completions/auditor",
                     "share/zsh/site-functions/_auditor", "share/fish/vendor_completions.d/auditor.fish",
                     "share/auditor/rules/people.yml", "share/auditor/examples/people/people.csv"] {
            #expect(fm.fileExists(atPath: root + "/" + file), "\(file) is not installed")
        }
        #expect(fm.isExecutableFile(atPath: root + "/bin/auditor"))
        let bash = try String(contentsOfFile: root + "/share/bash-completion/completions/auditor", encoding: .utf8)
        #expect(bash.contains("_auditor"), "not a bash completion script")
        let man = try String(contentsOfFile: root + "/share/man/man1/auditor.1", encoding: .utf8)
        #expect(man.contains(".Dt AUDITOR 1"), "not the man page")

        // The installed program audits the installed example, wherever the prefix is.
        let installed = try ChildProcess.run([root + "/bin/auditor", "run", root + "/share/auditor/rules/people.yml", "--quiet",
                                              "--format", "json", "-o", scratch.path("report.json")])
        #expect(installed.status == 1, "the bundled example fails by design (exit 1): \(installed)")
        let report = try Data(contentsOf: URL(fileURLWithPath: scratch.path("report.json")))
        let json = try #require(try JSONSerialization.jsonObject(with: report) as? [String: Any])
        #expect(json["rules"] != nil)
    }

    @Test func refusesARelativePrefixAndAnUnknownOption() throws {
        var result = try sh(["scripts/install.sh", "--no-build", "--prefix", "relative/dir"])
        #expect(result.status == 64)
        #expect(result.output.contains("absolute"))
        result = try sh(["scripts/install.sh", "--frobnicate"])
        #expect(result.status == 64)
        #expect(result.output.contains("unknown option '--frobnicate'"))
    }

    @Test func aMissingBinaryIsExit66NotAnEmptyInstall() throws {
        let scratch = try Scratch("install-missing")
        defer { scratch.remove() }
        let result = try sh(["scripts/install.sh", "--binary", scratch.path("no-such-auditor"), "--destdir", scratch.path("stage")])
        #expect(result.status == 66, "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("stage")))
    }
}
