import Foundation
import Testing

/// The core's folders form layers (issue 14): `Model` is the ground floor and depends on no
/// other folder, and no two folders depend on each other, directly or through others.
///
/// A folder depends on another when one of its files names a type declared at the top level
/// of the other's files. Comments and string literals do not count. The scan is textual, so
/// it sees what a reader of the code sees; the compiler does not check folders.
@Suite struct FolderLayersTests {
    static let core = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/Auditor")

    @Test func groundFloorDependsOnNothing() throws {
        let graph = try FolderGraph(root: Self.core)
        #expect(graph.folders.contains("Model"))
        let up = graph.edges["Model", default: [:]]
        #expect(up.isEmpty, "Model names types of \(up.map { "\($0.key) (\($0.value.sorted().joined(separator: ", ")))" })")
    }

    @Test func noFolderCycles() throws {
        let graph = try FolderGraph(root: Self.core)
        let cycles = graph.cycles()
        #expect(cycles.isEmpty, "folder cycles in Sources/Auditor: \(cycles.map(graph.describe))")
    }

    /// The scanner itself: a cycle that it must find, and references it must not count.
    @Test func scannerFindsACycleAndIgnoresCommentsAndStrings() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("layers-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        try write("A/A.swift", "public struct Alpha { var b: Beta }\n")
        try write("B/B.swift", "struct Beta {\n    struct Nested {}\n    // Alpha in a comment\n    let s = \"Gamma\"\n}\n")
        try write("C/C.swift", "enum Gamma { static let x = Beta.Nested() }\n")
        var graph = try FolderGraph(root: root)
        #expect(graph.edges["A"]?["B"] == ["Beta"])
        #expect(graph.edges["B"] == nil)
        #expect(graph.edges["C"]?["B"] == ["Beta"])
        #expect(graph.cycles().isEmpty)

        try write("B/B2.swift", "extension Beta { func g() -> Gamma { .x } }\n")
        try write("C/C2.swift", "extension Gamma { var a: Alpha? { nil } }\n")
        graph = try FolderGraph(root: root)
        #expect(graph.cycles().map { Set($0) } == [["A", "B", "C"]])
    }
}

/// Folders of a source tree and the types each names from the others.
struct FolderGraph {
    var folders = Set<String>()
    /// edges[a][b]: the types declared in folder b that files in folder a name.
    var edges = [String: [String: Set<String>]]()

    init(root: URL) throws {
        let fm = FileManager.default
        var files = [(folder: String, text: String)]()
        let enumerator = fm.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let folder = url.deletingLastPathComponent().path.dropFirst(root.path.count + 1)
            guard !folder.isEmpty else { continue }
            files.append((String(folder), Self.code(try String(contentsOf: url, encoding: .utf8))))
        }
        var declaredIn = [String: String]()
        let declaration = #/^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect|nonisolated)\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z]\w*)/#
        for (folder, text) in files {
            folders.insert(folder)
            for line in text.split(separator: "\n") {
                if let m = line.prefixMatch(of: declaration), declaredIn[String(m.1)] == nil {
                    declaredIn[String(m.1)] = folder
                }
            }
        }
        for (folder, text) in files {
            for name in Self.capitalisedIdentifiers(text) {
                if let other = declaredIn[name], other != folder { edges[folder, default: [:]][other, default: []].insert(name) }
            }
        }
    }

    /// The identifiers that start with a capital letter (Swift Regex's `\b` misses some here).
    static func capitalisedIdentifiers(_ text: String) -> Set<String> {
        var names = Set<String>()
        var current = ""
        var inWord = false
        for c in text.unicodeScalars {
            let isWord = c == "_" || c.properties.isAlphabetic || ("0" ... "9").contains(c)
            if isWord {
                if !inWord { current = "" }
                current.unicodeScalars.append(c)
            } else if inWord, current.first?.isUppercase == true {
                names.insert(current)
            }
            inWord = isWord
        }
        if inWord, current.first?.isUppercase == true { names.insert(current) }
        return names
    }

    /// The text without comments and the contents of string literals.
    static func code(_ text: String) -> String {
        var out = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var kept = line.replacing(#/"(?:[^"\\]|\\.)*"/#, with: "\"\"")
            if let r = kept.range(of: "//") { kept = kept[..<r.lowerBound] }
            out += kept + "\n"
        }
        return out.replacing(#/\/\*[\s\S]*?\*\//#, with: "")
    }

    /// `A -> B -> A (A->B: Type, ...; B->A: ...)`.
    func describe(_ cycle: [String]) -> String {
        var steps = [String]()
        for (a, b) in zip(cycle, cycle.dropFirst()) {
            let names: [String] = Array(edges[a, default: [:]][b, default: []].sorted().prefix(4))
            steps.append("\(a)->\(b): " + names.joined(separator: ","))
        }
        return cycle.joined(separator: " -> ") + " (" + steps.joined(separator: "; ") + ")"
    }

    /// Each strongly connected set of two or more folders, as a path through it that returns
    /// to its start.
    func cycles() -> [[String]] {
        var result = [[String]]()
        var reported = Set<String>()
        for start in folders.sorted() where !reported.contains(start) {
            // The shortest path from a successor of start back to start.
            var previous = [String: String]()
            var queue = edges[start, default: [:]].keys.sorted()
            for q in queue { previous[q] = start }
            var found = false
            while !queue.isEmpty, !found {
                let f = queue.removeFirst()
                if f == start { found = true; break }
                for next in edges[f, default: [:]].keys.sorted() where previous[next] == nil || next == start {
                    if next == start { previous[start] = f; found = true; break }
                    previous[next] = f
                    queue.append(next)
                }
            }
            guard found else { continue }
            var path = [start]
            var node = previous[start]!
            while node != start { path.append(node); node = previous[node]! }
            path.append(start)
            let cycle = [start] + path.dropFirst().dropLast().reversed() + [start]
            reported.formUnion(cycle)
            result.append(cycle)
        }
        return result
    }
}
