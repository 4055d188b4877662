import Auditor

/// The record element of an XML file that `auditor profile` reads without one named: with no
/// rules file to name it, the file's first elements tell it (``ReaderFactory/sniff``).
extension XMLReader {
    /// How much of the file the sniff reads (decompressed).
    static let sniffBytes = 64 * 1024

    /// `["record": "/people/person"]`: the element path that ``likelyRecord(_:)`` finds in the
    /// file's first ``sniffBytes``; empty when none, or the file cannot be read (opening it
    /// then says why).
    package static func sniffOptions(path: String, displayPath: String) -> [String: String] {
        guard let sample = ByteSources.sample(path: path, displayPath: displayPath, count: sniffBytes) else { return [:] }
        return likelyRecord(sample.bytes).map { ["record": $0] } ?? [:]
    }

    /// The path from the root, of local names (`/people/person`), of the shallowest element
    /// that repeats in `sample`, the earliest seen on a tie; else the root's first child's. Nil
    /// when the sample has no child of the root, is not UTF-8 text, or a name is one that a
    /// record path cannot take. Comments, processing instructions, CDATA sections and the
    /// document type are skipped; quotes in attributes are honoured.
    package static func likelyRecord(_ sample: [UInt8]) -> String? {
        // UTF-16 and UTF-32 text: no byte-wise names to read.
        if sample.prefix(4).contains(0) || sample.starts(with: [0xFE, 0xFF]) || sample.starts(with: [0xFF, 0xFE]) { return nil }
        var stack = [String]()
        var counts = [String: Int]()
        var order = [String]()
        var i = 0
        let n = sample.count
        func skip(past end: [UInt8]) {
            while i < n {
                if sample[i] == end[0], i + end.count <= n, Array(sample[i ..< i + end.count]) == end {
                    i += end.count
                    return
                }
                i += 1
            }
        }
        while i < n {
            guard sample[i] == UInt8(ascii: "<") else { i += 1; continue }
            let rest = sample[i...]
            if rest.starts(with: Array("<?".utf8)) {
                skip(past: Array("?>".utf8))
            } else if rest.starts(with: Array("<!--".utf8)) {
                skip(past: Array("-->".utf8))
            } else if rest.starts(with: Array("<![CDATA[".utf8)) {
                skip(past: Array("]]>".utf8))
            } else if rest.starts(with: Array("<!".utf8)) {
                // <!DOCTYPE …>, with an internal subset in brackets.
                var depth = 0
                while i < n, !(sample[i] == UInt8(ascii: ">") && depth == 0) {
                    if sample[i] == UInt8(ascii: "[") { depth += 1 }
                    if sample[i] == UInt8(ascii: "]") { depth -= 1 }
                    i += 1
                }
                i += 1
            } else if rest.starts(with: Array("</".utf8)) {
                if !stack.isEmpty { stack.removeLast() }
                skip(past: Array(">".utf8))
            } else {
                var end = i + 1
                while end < n, !" \t\r\n/>".utf8.contains(sample[end]) { end += 1 }
                guard end < n, let name = String(validating: sample[(i + 1) ..< end], as: UTF8.self), !name.isEmpty else { break }
                // Up to the tag's end, outside quoted attribute values.
                var quote: UInt8?
                while end < n {
                    let b = sample[end]
                    if let q = quote {
                        if b == q { quote = nil }
                    } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                        quote = b
                    } else if b == UInt8(ascii: ">") {
                        break
                    }
                    end += 1
                }
                guard end < n else { break }                     // a tag cut by the sample's end
                let local = String(name.split(separator: ":").last ?? Substring(name))
                let path = "/" + (stack + [local]).joined(separator: "/")
                if stack.count >= 1 {
                    if counts[path] == nil { order.append(path) }
                    counts[path, default: 0] += 1
                }
                if sample[end - 1] != UInt8(ascii: "/") { stack.append(local) }
                i = end + 1
            }
        }
        let depth = { (path: String) in path.split(separator: "/").count }
        let repeated = order.filter { counts[$0]! >= 2 }
        let found = repeated.min { depth($0) < depth($1) } ?? order.first { depth($0) == 2 }
        guard let found, found.split(separator: "/").allSatisfy(isName) else { return nil }
        return found
    }

    /// Whether `name` is an XML name without a prefix that a record path can take.
    private static func isName(_ name: Substring) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy {
            $0 == "_" || $0 == "-" || $0 == "." || $0.properties.isAlphabetic || $0.properties.numericType != nil
        }
    }
}
