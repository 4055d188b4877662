import Foundation

/// A fresh temporary folder for one test's rules files, data and reports.
///
/// Call ``remove()`` in a `defer` right after creating it: that also keeps the folder alive
/// for the whole test (a `deinit` could run as soon as the last use of `url`).
final class Scratch {
    let url: URL

    init(_ label: String = "case") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("auditor-e2e-\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// The absolute path of `name` inside the folder.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` (UTF-8, exactly as given: no newline translation) to `name`, creating folders.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        try write(name, bytes: Data(text.utf8))
    }

    @discardableResult
    func write(_ name: String, bytes: Data) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try bytes.write(to: file)
        return file
    }

    /// Copies a file of the package (e.g. `examples/people/people.csv`) into the folder.
    @discardableResult
    func copy(fromPackage relativePath: String, as name: String? = nil) throws -> URL {
        let source = Auditor.packageRoot.appendingPathComponent(relativePath)
        let target = url.appendingPathComponent(name ?? source.lastPathComponent)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source, to: target)
        return target
    }

    /// The names in a folder of the scratch area, hidden files included, sorted.
    func listing(_ folder: String = ".") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(folder).path).sorted()
    }
}

/// The 1-based (line, column) of the first occurrence of `needle` in `text`, counting columns in
/// characters; `nil` when absent. Used to compute where a rules-file diagnostic must point.
func position(of needle: String, in text: String, after anchor: String? = nil) -> (line: Int, column: Int)? {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    var seenAnchor = anchor == nil
    for (i, line) in lines.enumerated() {
        if let anchor, !seenAnchor {
            guard line.contains(anchor) else { continue }
            seenAnchor = true
        }
        if let r = line.range(of: needle) {
            return (i + 1, line.distance(from: line.startIndex, to: r.lowerBound) + 1)
        }
    }
    return nil
}
