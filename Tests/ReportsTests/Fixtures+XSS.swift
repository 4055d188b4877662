import Auditor
import Foundation

extension Fixture {
    /// Values that try to run script in the HTML report, or to break out of an attribute, the
    /// JSON data island, a CSV cell, an XML document or a workflow command. A script that ran
    /// would set the attribute `data-pwned` on the root element (the name is built at run time,
    /// so it never appears in the page as text); ``BrowserTests`` checks that it is absent.
    enum XSS {
        static let mark = "document.documentElement.setAttribute('data-'+'pwned',"
        static let script = "<script>\(mark)'script')</script>"
        static let img = "\"><img src=x onerror=\"\(mark)'img')\">"
        static let svg = "'><svg onload=\(mark)'svg')>"
        static let breakout = "</script><script>\(mark)'breakout')</script><!--"
        static let javascriptURL = "javascript:\(mark)'href')"
        static let separators = "a\u{2028}b\u{2029}c"
        static let style = "</style><style>*{display:none}</style>"
        static let meta = "<meta http-equiv=\"refresh\" content=\"0;url=javascript:\(mark)'meta')\"><base href=\"http://evil.invalid/\">"
        static let xmlIllegal = "bell\u{1}\u{8}form\u{C}nonchar\u{FFFE}\u{FFFF}end"
        static let csvFormula = "=cmd|' /C calc'!A0"
        static let workflow = "ok\r\n::error file=x::forged%0A"

        static let all = [script, img, svg, breakout, javascriptURL, separators, style, meta, xmlIllegal,
                          csvFormula, workflow]
    }

    static let xss: Fixture = {
        let entity = "Person<b>\(XSS.img)"
        let path = "data/\(XSS.svg).csv"
        func location(_ line: Int) -> RecordLocation { RecordLocation(path: path, line: line, record: line - 1) }
        let ruleA = "person.name\"onmouseover=\"\(XSS.mark)'id')"
        let ruleB = "person.url.\(XSS.script)"
        let a = XSS.all.enumerated().map { index, value in
            finding(ruleA, 1680, .error, entity, "name", location(index + 2), key: "id=\(XSS.breakout)",
                    value: value, "Name must be plain; got '\(value)'.")
        }
        let b = [
            finding(ruleB, 1680, .warning, entity, "url", location(20), key: XSS.javascriptURL,
                    value: XSS.javascriptURL, "URL must be https; got \(XSS.javascriptURL) \(XSS.separators)"),
            finding(ruleB, 1680, .warning, entity, "url", location(21), key: XSS.style,
                    value: XSS.meta, "URL must be https \(XSS.style)"),
        ]
        let rules = [
            RuleOutcome(id: ruleA, entity: entity, source: "people", attribute: "name", kind: "pattern",
                        severity: .error, code: 1680, summary: "name is plain text \(XSS.script)", evaluated: 30,
                        violations: a.count, samples: a, definedAt: "rules/\(XSS.img).yml:3:5"),
            RuleOutcome(id: ruleB, entity: entity, source: "people", attribute: "url", kind: "pattern",
                        severity: .warning, code: 1680, summary: "url is https \(XSS.breakout)", evaluated: 30,
                        violations: 2, samples: b, threshold: Threshold(maxFailures: 5)),
        ]
        let records = a.prefix(3).map {
            RecordFindings(entity: entity, location: $0.location, key: $0.key, findings: [$0])
        } + [RecordFindings(entity: entity, location: b[0].location, key: b[0].key, findings: b)]
        let report = AuditReport(
            toolVersion: "0.1.0\(XSS.script)", rulesFile: "rules/\(XSS.breakout).yml", startedAt: startedAt,
            durationSeconds: 0.01, failOn: .error, maxSamples: 20,
            inputs: [InputSummary(source: "people", path: path, format: "csv\(XSS.style)", bytes: 4096, records: 30,
                                  complete: false, error: "\(path):31:1: \(XSS.meta) \(XSS.xmlIllegal)",
                                  errorStatus: .dataError, seconds: 0.01)],
            rules: rules,
            entities: [EntityOutcome(name: entity, source: "people", records: 30, violatingRecords: a.count + 1,
                                     violations: a.count + 2, ruleIDs: rules.map(\.id))],
            records: records)
        return Fixture(name: "xss", report: report)
    }()
}
