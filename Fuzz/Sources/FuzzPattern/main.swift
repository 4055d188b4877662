// libFuzzer target: the pattern compiler and matchers (Sources/Auditor/Text/Pattern*).
//
// Input: the pattern's UTF-8 bytes, then a NUL byte, then probe texts separated by NUL bytes
// (any bytes, ill-formed UTF-8 included). Invariants, each a crash when broken:
// - a pattern that does not compile throws a PatternError with a message and an offset inside
//   the pattern (0 ... its scalar count);
// - a pattern that compiles answers every probe (and the pattern text itself, and ""), with the
//   same answer from every matcher (class run, deterministic automaton, simulation), the same
//   for a String and its bytes, and never a match for ill-formed UTF-8.
@_spi(Testing) import Auditor

func fail(_ what: String, _ pattern: String, _ text: [UInt8]) -> Never {
    fatalError("FuzzPattern invariant broken: \(what); pattern \(pattern.debugDescription), text \(text)")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let parts = UnsafeBufferPointer(start: data, count: size).split(separator: 0, omittingEmptySubsequences: false)
    let source = String(decoding: parts.first.map { Array($0) } ?? [], as: UTF8.self)
    let patterns: [Pattern]
    do throws(PatternError) {
        patterns = try Pattern.everyMatcher(source)
    } catch {
        guard !error.message.isEmpty, error.offset >= 0, error.offset <= source.unicodeScalars.count
        else { fail("error \(error) out of range", source, []) }
        return 0
    }
    var probes = parts.dropFirst().map { Array($0) }
    probes.append(Array(source.utf8))
    probes.append([])
    for text in probes {
        let answers = patterns.map { p in text.withUnsafeBufferPointer { p.matches($0) } }
        guard answers.allSatisfy({ $0 == answers[0] }) else { fail("matchers disagree: \(answers)", source, text) }
        if let string = String(validating: text, as: UTF8.self) {
            guard patterns[0].matches(string) == answers[0] else { fail("String and bytes disagree", source, text) }
        } else if answers[0] {
            fail("ill-formed UTF-8 matched", source, text)
        }
    }
    return 0
}
