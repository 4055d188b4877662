#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Auditor
import Foundation

/// Whole lines of a JSON Lines file, or its last bytes, to be parsed on any thread.
struct JSONLMorsel: RecordMorsel {
    /// Why a morsel is the input's last one.
    enum Last: Sendable {
        /// The file ends after it (its last line may lack a line feed).
        case endOfFile
        /// Its one line is longer than the limit (and has no line feed yet).
        case tooLong
        /// Reading more failed; its bytes are an incomplete line.
        case readError(AuditError)
    }

    let bytes: CSVMorselBytes
    /// Nil for a morsel of whole lines with more after it.
    let last: Last?
    let tree: JSONLFieldTree
    let width: Int
    let limit: Int
    let sightings: JSONLSightings
    let displayPath: String
    let maxLineBytes: Int
    let watch: FileChangeWatch?

    /// Parses every line; locations are 0-based line indexes within the morsel until placed.
    /// - Complexity: O(bytes of the morsel).
    func parse() -> ParsedMorsel {
        let base = UnsafePointer(bytes.base)
        let stop = bytes.end
        var lines: Int64 = 0
        var chunks = [RecordChunk]()
        var seen = [Bool](repeating: false, count: width)
        var records = 0
        var failure: (@Sendable (Int64) -> AuditError)?
        switch last {
        case .tooLong?:
            return ParsedMorsel(chunks: [], failure: tooLong(at: 0))
        case .readError(let error)?:
            // The bytes are one incomplete line: nothing to parse before the error.
            return ParsedMorsel(chunks: [], failure: { _ in error })
        case .endOfFile?, nil:
            break
        }
        var parser = JSONLLineParser(tree: tree, width: width)
        var assembly = JSONLChunkAssembly(width: width, capacity: min(limit, 4096))
        var k = bytes.start
        while k < stop {
            let feed = memchr(base + k, 10, stop - k)
            let lineEnd = feed.map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? stop
            if lineEnd - k > maxLineBytes {
                failure = tooLong(at: lines)
                break
            }
            if !Self.isBlank(base, k, lineEnd) {
                if assembly.count == limit {
                    chunks.append(assembly.build(&parser))
                    assembly = JSONLChunkAssembly(width: width, capacity: min(limit, 4096))
                }
                if parser.parse(base, from: k, to: lineEnd) {
                    assembly.append(parser.cells, location: lines)
                    records += 1
                    for c in 0 ..< width where parser.presence[c] != .absent { seen[c] = true }
                } else if let problem = parser.problem {
                    let at: Int
                    switch problem {
                    case .malformed(let offset, _), .encoding(let offset, _), .duplicate(let offset, _): at = offset
                    }
                    assembly.appendMissing(location: lines,
                                           issue: JSONLMessages.issue(problem, row: assembly.count,
                                                                      column: Self.column(base, k, at)))
                }
            }
            if feed == nil { break }
            lines += 1
            k = lineEnd + 1
        }
        if assembly.count > 0 { chunks.append(assembly.build(&parser)) }
        sightings.add(seen, records: records)
        return ParsedMorsel(chunks: chunks, locationSpan: lines, failure: failure)
    }

    /// The error for a line longer than the limit, `line` lines into the morsel.
    private func tooLong(at line: Int64) -> @Sendable (Int64) -> AuditError {
        let path = displayPath
        let limit = maxLineBytes
        let watch = self.watch
        return { base in
            let error = JSONLMessages.lineTooLong(path, line: base + line, limit: limit)
            return watch?.unlessChanged(error) ?? error
        }
    }

    /// Whether `[start, end)` holds only spaces, TABs and CRs.
    private static func isBlank(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var k = start
        while k < end {
            let b = base[k]
            if b != 0x20, b != 0x09, b != 0x0D { return false }
            k += 1
        }
        return true
    }

    /// The 1-based character column of byte `at` in the line that starts at `start`.
    private static func column(_ base: UnsafePointer<UInt8>, _ start: Int, _ at: Int) -> Int {
        var column = 1
        for k in start ..< max(start, at) where base[k] & 0xC0 != 0x80 { column += 1 }
        return column
    }
}

/// The records of a chunk under construction, in columns.
struct JSONLChunkAssembly {
    private var columns: [[Cell]]
    private var locations: [Int64] = []
    private var issues: [RecordIssue] = []
    private(set) var count = 0

    init(width: Int, capacity: Int) {
        columns = (0 ..< width).map { _ in
            var column = [Cell]()
            column.reserveCapacity(capacity)
            return column
        }
        locations.reserveCapacity(capacity)
    }

    mutating func append(_ cells: [Cell], location: Int64) {
        for c in columns.indices { columns[c].append(cells[c]) }
        locations.append(location)
        count += 1
    }

    mutating func appendMissing(location: Int64, issue: RecordIssue) {
        for c in columns.indices { columns[c].append(.missing) }
        locations.append(location)
        issues.append(issue)
        count += 1
    }

    /// The chunk, with the parser's bytes and composites (which it hands over and starts afresh).
    mutating func build(_ parser: inout JSONLLineParser) -> RecordChunk {
        let chunk = RecordChunk(firstRecord: 0, count: count, bytes: parser.bytes, columns: columns,
                                locations: locations, composites: parser.composites, issues: issues)
        let reserve = parser.bytes.count
        parser.bytes = []
        parser.bytes.reserveCapacity(reserve)
        parser.composites = []
        return chunk
    }
}

/// Which fields some record had, over every morsel parsed so far (morsels are parsed on
/// several threads at once).
/// `@unchecked Sendable`: `flags` and `count` are used with `lock` held.
final class JSONLSightings: @unchecked Sendable {
    private let lock = NSLock()
    private var flags: [Bool]
    private var count = 0

    init(width: Int) {
        flags = [Bool](repeating: false, count: width)
    }

    func add(_ seen: [Bool], records: Int) {
        lock.lock()
        for c in flags.indices where seen[c] { flags[c] = true }
        count += records
        lock.unlock()
    }

    var seen: [Bool] {
        lock.lock()
        defer { lock.unlock() }
        return flags
    }

    /// Records parsed without a problem.
    var records: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
