import Foundation
import TestSupport
import Testing

/// The library products export a deliberate, listed surface (issue 14): `scripts/public-api.sh`
/// lists the top-level public declarations of Auditor, Readers and Reports, and
/// `scripts/public-api.txt` is the committed allow-list.
@Suite struct PublicSurfaceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Runs the script on a package root and returns its lines.
    static func surface(of root: URL) throws -> [String] {
        let run = try ChildProcess.run(["/bin/sh", Self.root.appendingPathComponent("scripts/public-api.sh").path, root.path])
        #expect(run.status == 0, "\(run)")
        return run.stdoutText.split(separator: "\n").map(String.init)
    }

    @Test func publicDeclarationsMatchTheAllowList() throws {
        let actual = try Self.surface(of: Self.root)
        let listed = try String(contentsOf: Self.root.appendingPathComponent("scripts/public-api.txt"), encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") }
        let required = Set(listed.filter { !$0.hasPrefix("?") })
        // `? Module Name`: allowed with any kind, not required.
        let optional = Set(listed.filter { $0.hasPrefix("?") }.map { $0.dropFirst(2).split(separator: " ") }
            .map { "\($0.first ?? "") \($0.last ?? "")" })
        let unlisted = actual.filter { line in
            let words = line.split(separator: " ")
            return !required.contains(line) && !optional.contains("\(words.first ?? "") \(words.last ?? "")")
        }
        let missing = required.subtracting(actual).sorted()
        #expect(unlisted.isEmpty, """
            New public declarations: \(unlisted). Make them `package` (used only inside this package) \
            or, if they are deliberate public API, add these lines to scripts/public-api.txt.
            """)
        #expect(missing.isEmpty, "scripts/public-api.txt lists \(missing), which no longer exist as listed; remove or correct those lines.")
        #expect(actual.count > 50, "the scan found only \(actual.count) declarations; is scripts/public-api.sh broken?")
    }

    /// The scanner sees every form of a top-level public declaration, and only those.
    @Test func scannerRecognisesDeclarationForms() throws {
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("public-surface-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = scratch.appendingPathComponent("Sources/Auditor/Deep")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
            public struct Plain: Sendable {
                public var nested: Int
            }
            public final class Sealed {}
            public indirect enum Tree {}
            @_spi(Testing)
            public struct Hidden {}
            @_spi(Testing) public protocol HiddenToo {}
            @preconcurrency public typealias Alias = Int
            public func helper() {}
            public extension Plain {}
            open class Base {}
            package struct Inside {}
            struct Internal {}
            // public struct Commented {}
            """.write(to: folder.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
        let lines = try Self.surface(of: scratch)
        #expect(lines == [
            "Auditor class Base", "Auditor class Sealed", "Auditor enum Tree", "Auditor extension Plain",
            "Auditor func helper", "Auditor spi protocol HiddenToo", "Auditor spi struct Hidden",
            "Auditor struct Plain", "Auditor typealias Alias",
        ])
    }
}
