import Auditor
import Foundation
import Testing

/// Issue 13 §5: every code the engine can emit is in the README's one Codes table, and the
/// table lists no code the engine does not know.
@Suite struct FindingCodeTableTests {
    /// The codes in the first column of the README's `### Codes` table.
    static func documentedCodes() throws -> [Int] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0 == "### Codes" }, "README.md has no '### Codes' section")
        var codes = [Int]()
        for line in lines[(start + 1)...] {
            if line.hasPrefix("#") { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            guard line.hasPrefix("|"), cells.count > 2,
                  let code = Int(cells[1].trimmingCharacters(in: .whitespaces)) else { continue }
            codes.append(code)
        }
        return codes
    }

    @Test("The README's Codes table lists exactly FindingCode.allCases, each once")
    func tableMatchesEnum() throws {
        let documented = try Self.documentedCodes()
        #expect(documented.count == Set(documented).count, "a code is listed twice: \(documented)")
        let known = Set(FindingCode.allCases.map(\.rawValue))
        #expect(known.subtracting(documented).sorted() == [], "codes the engine emits but the README's table lacks")
        #expect(Set(documented).subtracting(known).sorted() == [], "codes the README lists but the engine does not know")
    }

    @Test("Every default constraint code is a FindingCode", arguments: ConstraintKind.allCases)
    func defaultCodesAreKnown(kind: ConstraintKind) {
        for type in ValueType.allCases {
            #expect(FindingCode(rawValue: kind.defaultCode(for: type)) != nil, "\(kind) on \(type)")
        }
    }

    @Test("The validators' codes are FindingCodes")
    func validationCodesAreKnown() {
        let codes = [ValidationCode.generic, ValidationCode.required, ValidationCode.minCount, ValidationCode.maxCount,
                     ValidationCode.tooLarge, ValidationCode.tooSmall, ValidationCode.tooLong, ValidationCode.tooShort,
                     ValidationCode.pattern, ValidationCode.type, ValidationCode.enum, ValidationCode.integral,
                     ValidationCode.null, ValidationCode.uniqueItems, ValidationCode.unknownKey, ValidationCode.anyOf,
                     ValidationCode.oneOf, ValidationCode.not, ValidationCode.multipleErrors]
        for c in codes { #expect(FindingCode(rawValue: c) != nil, "\(c)") }
    }

    @Test("Required keys are 1570 (as the docs say), not 2006; allowedKeys 2006; each constraint its own code")
    func mapCodes() {
        #expect(ConstraintKind.requiredKeys.defaultCode(for: .string) == 1570)
        #expect(ConstraintKind.allowedKeys.defaultCode(for: .string) == 2006)
        #expect(ConstraintKind.minLength.defaultCode(for: .string) == 1670)
        #expect(ConstraintKind.maxLength.defaultCode(for: .string) == 1660)
    }

    @Test("A record group's code: its finding's when alone, 1560 when several")
    func groupCode() {
        #expect(FindingCode.group([1680]) == 1680)
        #expect(FindingCode.group([1680, 1610]) == 1560)
        #expect(FindingCode.group([1670, 1670]) == 1560)
    }
}
