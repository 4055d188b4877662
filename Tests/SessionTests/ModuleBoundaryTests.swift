import Foundation
import Testing

/// The module walls of issue 14, checked on the sources: the core imports none of the
/// modules around it, and only AuditorHistory writes a history.
@Suite("Module boundaries")
struct ModuleBoundaryTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// Every Swift file under `Sources/<folder>` with its text.
    static func files(in folder: String) throws -> [(path: String, text: String)] {
        let root = sources.appendingPathComponent(folder)
        let names = try #require(FileManager.default.subpaths(atPath: root.path)).filter { $0.hasSuffix(".swift") }.sorted()
        return try names.map { ($0, try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) }
    }

    /// The modules a file imports (`import X`, `internal import X`, `@testable import X`).
    static func imports(_ text: String) -> Set<String> {
        Set(text.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard let i = words.firstIndex(of: "import"), i + 1 < words.count,
                  words[..<i].allSatisfy({ ["internal", "public", "package", "@testable", "@_implementationOnly"].contains($0) })
            else { return nil }
            return String(words[i + 1])
        })
    }

    @Test("The core imports nothing of ours; Readers and Reports never import the history")
    func imports() throws {
        let ours: Set = ["Readers", "Reports", "AuditorHistory", "SQLiteSupport", "CSQLite", "CXMLShim", "CLibXML2", "AuditorCLI"]
        let files = try Self.files(in: "Auditor")
        #expect(files.count > 50)
        for (path, text) in files {
            #expect(Self.imports(text).isDisjoint(with: ours), "Sources/Auditor/\(path) imports \(Self.imports(text).intersection(ours))")
        }
        for folder in ["Readers", "Reports"] {
            for (path, text) in try Self.files(in: folder) {
                #expect(!Self.imports(text).contains("AuditorHistory"), "Sources/\(folder)/\(path) imports the history")
            }
        }
    }

    @Test("Readers keeps no history code: the history store and its schema live in Sources/History only")
    func historyLivesInItsModule() throws {
        for (path, text) in try Self.files(in: "Readers") {
            for name in ["HistoryStore", "HistorySchema", "RunHistory", "RunRecord"] {
                #expect(!text.contains(name), "Sources/Readers/\(path) mentions \(name)")
            }
        }
        let history = try Self.files(in: "History").map(\.text).joined()
        #expect(history.contains("final class HistoryStore") && history.contains(": RunHistory"))
        // The history takes the narrow RunRecord, never the whole report.
        #expect(!history.contains("AuditReport"))
    }
}
