// libFuzzer target: the rules-file parser and compiler (Sources/Auditor/Config, Rules):
// YAML (Yams, libyaml) → ConfigNode → RulesSpec → AuditPlan, with every pattern, expression
// and message template in the file compiled along the way.
//
// Input: the rules file's text. Invariants, each a crash when broken:
// - a file that is rejected throws AuditError `.invalidRules` (exit 78) with at least one
//   diagnostic, each in the file and located on a line of it (1 ... line breaks + 2, counting YAML's CR, NEL, LS and PS; column >= 1);
// - a file that is accepted compiles to a plan or is rejected the same way.
import Auditor

let path = "/nonexistent/fuzz/rules.yml"

func fail(_ what: String, _ text: String) -> Never {
    fatalError("FuzzRules invariant broken: \(what); rules file \(text.debugDescription)")
}

func checkRejection(_ error: any Error, _ text: String) {
    guard let error = error as? AuditError else { fail("threw \(type(of: error)): \(error)", text) }
    guard error.code == .invalidRules, error.code.exitStatus == .configError, !error.diagnostics.isEmpty
    else { fail("threw \(error.code) with \(error.diagnostics.count) diagnostics: \(error)", text) }
    // YAML breaks lines at LF, CR, CRLF, NEL, LS and PS: an upper bound on the line count.
    let lines = text.unicodeScalars.filter { ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains($0) }.count + 1
    for d in error.diagnostics {
        guard !d.message.isEmpty, d.mark.file == path, d.mark.line >= 1, d.mark.line <= lines + 1, d.mark.column >= 1
        else { fail("diagnostic out of range: \(d)", text) }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let spec: RulesSpec
    do {
        spec = try RulesFileParser(formats: ["csv", "xml", "sqlite"]).parse(text, path: path)
    } catch {
        checkRejection(error, text)
        return 0
    }
    do {
        _ = try RuleCompiler.compile(spec, now: 1_700_000_000)
    } catch {
        checkRejection(error, text)
    }
    return 0
}
