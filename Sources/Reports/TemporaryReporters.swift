import Auditor

// TEMPORARY stand-in until the `reports` branch lands (same API).
public enum StandardReporters {
    public static let formats = ["text", "json"]
    public static func reporter(format: String, color: Bool, verbose: Bool) -> (any Reporter)? {
        TempReporter(format: format)
    }
}

struct TempReporter: Reporter {
    var format: String
    func render(_ report: AuditReport) -> String {
        var s = "{\"rules\": [\n"
        s += report.rules.map { "{\"id\": \"\($0.id)\", \"entity\": \"\($0.entity ?? "")\", \"severity\": \"\($0.severity.rawValue)\", \"code\": \($0.code), \"violations\": \($0.violations), \"samples\": [\($0.samples.map { "\"\($0.location.description): \($0.message)\"" }.joined(separator: ","))]}" }.joined(separator: ",\n")
        return s + "\n]}\n"
    }
}
