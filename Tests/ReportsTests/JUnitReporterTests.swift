import Auditor
import Foundation
@testable import AuditorReports
import Testing

@Suite("JUnit reporter")
struct JUnitReporterTests {
    static let xmllint = ExternalTool.find(["xmllint"])

    /// A report whose values hold every XML-illegal character class.
    static let illegal: AuditReport = {
        var report = Fixture.xss.report
        let nasty = "a\u{0}b\u{1}c\u{8}d\u{B}e\u{C}f\u{E}g\u{1F}h\u{FFFE}i\u{FFFF}j\u{7F}k\u{85}l]]>m"
        report.rules[0].samples[0].value = nasty
        report.rules[0].samples[0].message = "got '\(nasty)'"
        report.rules[0].samples[1].key = nasty
        report.rules[0].summary = nasty
        report.inputs[0].path = "in\u{1}put.csv"
        return report
    }()

    static func all() -> [(String, String)] {
        Fixture.all.map { ($0.name, JUnitReporter().render($0.report)) } + [("illegal", JUnitReporter().render(illegal))]
    }

    @Test("violations not listed say why: a root-cause finding, a reviewer's suppression, or only the sample cap")
    func unlistedViolationsAreAccountedFor() throws {
        var report = Fixture.xss.report
        let listed = report.rules[0].samples.count
        report.rules[0].violations = listed + 10
        report.rules[0].suppressed = 3
        report.rules[0].suppressedByHook = ["team.review": 2]
        let xml = JUnitReporter().render(report)
        #expect(xml.contains("The root-cause finding stands for 3 more violations."))
        #expect(xml.contains("2 violations suppressed by hook team.review (counted, not listed)."))
        #expect(xml.contains("... 5 more (\(listed) of \(listed + 10) shown)"), "\(xml)")
    }

    @Test("no XML-illegal character, even when the data has them")
    func noIllegalCharacters() {
        for (name, xml) in Self.all() {
            let bad = xml.unicodeScalars.filter { !XMLText.isLegal($0) }
            #expect(bad.isEmpty, "\(name): \(bad.map { String($0.value, radix: 16) })")
            #expect(!xml.contains("&#"), "\(name): no numeric references (XML forbids &#1; too)")
        }
        let xml = JUnitReporter().render(Self.illegal)
        #expect(xml.contains(#"a\u{0}b\u{1}c\u{8}d\u{B}e\u{C}f\u{E}g\u{1F}h\u{FFFE}i\u{FFFF}j\u{7F}k\u{85}l]]&gt;m"#))
    }

    @Test("libxml2 parses every report (xmllint --noout)",
          .enabled(if: xmllint != nil, "xmllint is not installed (apt-get install libxml2-utils): libxml2 check skipped; the Python check still runs"))
    func libxml2Parses() throws {
        let folder = try ExternalTool.temporaryFolder("auditor-junit")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, xml) in Self.all() {
            let file = folder.appendingPathComponent("\(name).xml")
            try Data(xml.utf8).write(to: file)
            let result = ExternalTool.run(try #require(Self.xmllint), ["--noout", file.path])
            #expect(result.status == 0, "\(name): \(result.stderr)")
        }
    }

    /// Parses with Python's minidom and prints the structure the tests check.
    static let structureScript = """
        import sys, json
        from xml.dom import minidom
        doc = minidom.parse(sys.argv[1])
        root = doc.documentElement
        out = {"root": root.tagName, "suites": []}
        for s in root.getElementsByTagName("testsuite"):
            cases = []
            for c in s.getElementsByTagName("testcase"):
                kids = [k for k in c.childNodes if k.nodeType == k.ELEMENT_NODE]
                cases.append({"name": c.getAttribute("name"), "classname": c.getAttribute("classname"),
                              "file": c.getAttribute("file"),
                              "children": [{"tag": k.tagName, "type": k.getAttribute("type"),
                                            "message": k.getAttribute("message"),
                                            "text": "".join(t.data for t in k.childNodes if t.nodeType == t.TEXT_NODE)}
                                           for k in kids]})
            out["suites"].append({"name": s.getAttribute("name"), "tests": int(s.getAttribute("tests")),
                                  "failures": int(s.getAttribute("failures")), "errors": int(s.getAttribute("errors")),
                                  "skipped": int(s.getAttribute("skipped")), "cases": cases})
        print(json.dumps(out))
        """

    @Test("structure: suites per input, cases per rule, failure/error/skipped as rule 1 says",
          .enabled(if: ExternalTool.find(["python3"]) != nil, "python3 is not installed: skipped"))
    func structure() throws {
        let folder = try ExternalTool.temporaryFolder("auditor-junit")
        defer { try? FileManager.default.removeItem(at: folder) }
        for fixture in Fixture.all {
            let file = folder.appendingPathComponent("\(fixture.name).xml")
            try Data(JUnitReporter().render(fixture.report).utf8).write(to: file)
            let result = ExternalTool.run(try #require(ExternalTool.find(["python3"])), ["-c", Self.structureScript, file.path])
            try #require(result.status == 0, "\(fixture.name): \(result.stderr)")
            let doc = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(doc["root"] as? String == "testsuites")
            let suites = try #require(doc["suites"] as? [[String: Any]])
            var paths: [String] = []
            for input in fixture.report.inputs where !paths.contains(input.path) { paths.append(input.path) }
            #expect(suites.compactMap { $0["name"] as? String } == paths.map(TerminalText.escaped))
            for suite in suites {
                let cases = try #require(suite["cases"] as? [[String: Any]])
                let names = cases.compactMap { $0["name"] as? String }
                #expect(Set(names).count == names.count, "names unique in a suite")
                #expect(cases.allSatisfy { $0["classname"] as? String == suite["name"] as? String })
                #expect(suite["tests"] as? Int == cases.count)
                let children = cases.flatMap { $0["children"] as? [[String: Any]] ?? [] }
                #expect(suite["failures"] as? Int == children.filter { $0["tag"] as? String == "failure" }.count)
                #expect(suite["errors"] as? Int == children.filter { $0["tag"] as? String == "error" }.count)
                #expect(suite["skipped"] as? Int == children.filter { $0["tag"] as? String == "skipped" }.count)
            }
            for rule in fixture.report.rules {
                let testcase = suites.flatMap { $0["cases"] as? [[String: Any]] ?? [] }
                    .first { ($0["name"] as? String)?.hasPrefix(TerminalText.escaped(rule.id) + " ") == true }
                let child = (testcase?["children"] as? [[String: Any]])?.first
                switch rule.status {
                case .violated:
                    #expect(child?["tag"] as? String == "failure" && child?["type"] as? String == TerminalText.escaped(rule.id))
                    let text = child?["text"] as? String ?? ""
                    #expect(text.contains("\(NumberText.grouped(rule.violations)) of"), "detail in the element text")
                    #expect(text.split(separator: "\n").count >= 1 + rule.samples.count)
                case .tolerated: #expect(child?["tag"] as? String == "system-out")
                case .passed where (rule.baseline?.resolved ?? 0) > 0:
                    #expect(child?["tag"] as? String == "system-out", "a passing rule says what it resolved")
                case .passed: #expect(child == nil)
                case .notEvaluated: #expect(child?["tag"] as? String == "skipped")
                }
            }
            for input in fixture.report.inputs where !input.complete {
                #expect(suites.contains { suite in
                    (suite["cases"] as? [[String: Any]] ?? []).contains { c in
                        (c["children"] as? [[String: Any]] ?? []).contains { $0["tag"] as? String == "error" }
                    }
                }, "\(fixture.name): an unreadable input is an <error>")
            }
        }
    }
}
