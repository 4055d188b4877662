import Foundation

/// Where a record of a multi-file source comes from: the file's index is packed into the high
/// bits of the record's location number (``RecordChunk/locations``), so that everything that
/// keeps a location (key tables for `unique` and `references`, the first occurrence of a
/// duplicate, lifecycle tallies) also keeps its file, at no cost for single-file sources
/// (file 0 packs to the number itself).
///
/// A location of a file after the first must be in `0 ..< 2^48` (lines, rowids and ordinals of
/// any real file are); the multi-file reader refuses one that is not.
package enum FileLocation {
    /// Bits of the location number itself.
    static let bits: Int64 = 48
    static let mask: Int64 = (1 << bits) - 1
    /// The most files a source may have.
    static let maxFiles = 1 << 15

    /// The location number `value` of file `file`.
    static func pack(file: Int, _ value: Int64) -> Int64 {
        file == 0 ? value : Int64(file) << bits | value
    }

    /// Whether `value` can be packed with a file index.
    static func fits(_ value: Int64) -> Bool { value >= 0 && value <= mask }

    /// The file index of a packed location (0 for a negative one: a single file's rowid).
    static func file(_ packed: Int64) -> Int {
        packed < 0 ? 0 : Int(packed >> bits)
    }

    /// The location number within its file.
    static func value(_ packed: Int64) -> Int64 {
        packed < 0 ? packed : packed & mask
    }
}

/// The files of one source in one pass, shared by the multi-file reader (which notes the files
/// it could not read) and the entity's accumulator (which notes, in input order, where each
/// file's records start): findings name their file and number records within it.
///
/// `@unchecked Sendable`: every mutable property is read and written under `lock`.
package final class SourceFiles: @unchecked Sendable {
    /// The files, as the user wrote them (patterns and folders expanded), in reading order.
    public let paths: [String]
    /// The source as a whole, for findings about all of it (table rules): the entries joined.
    public let label: String
    private let lock = NSLock()
    private var starts: [Int]
    private var records: [Int]
    private var errors: [AuditError?]
    private var lastFile = -1
    private var failed: Int?

    /// - Parameters:
    ///   - paths: The files, in reading order.
    ///   - label: How messages name the whole source.
    public init(paths: [String], label: String) {
        self.paths = paths
        self.label = label
        starts = Array(repeating: 0, count: paths.count)
        records = Array(repeating: 0, count: paths.count)
        errors = Array(repeating: nil, count: paths.count)
    }

    /// The path of file `index` (the first one for an index out of range).
    public func path(_ index: Int) -> String {
        paths.indices.contains(index) ? paths[index] : paths.first ?? label
    }

    /// Notes a merged chunk: its file starts at its first record if it is the first chunk of it.
    /// Called in input order.
    func note(_ chunk: RecordChunk) {
        guard let first = chunk.locations.first else { return }
        let file = FileLocation.file(first)
        lock.withLock {
            guard records.indices.contains(file) else { return }
            if file != lastFile {
                starts[file] = chunk.firstRecord
                lastFile = file
            }
            records[file] += chunk.count
        }
    }

    /// The 0-based ordinal (within the source) of file `index`'s first record.
    func start(_ index: Int) -> Int {
        lock.withLock { starts.indices.contains(index) ? starts[index] : 0 }
    }

    /// Records read from file `index`.
    func recordCount(_ index: Int) -> Int {
        lock.withLock { records.indices.contains(index) ? records[index] : 0 }
    }

    /// Notes why file `index` was not read (or not fully).
    func setError(_ index: Int, _ error: AuditError) {
        lock.withLock { if errors.indices.contains(index), errors[index] == nil { errors[index] = error } }
    }

    /// Notes that the error that ends the pass came from file `index`. Several may be noted
    /// (the producer reads ahead of the evaluation); the pass's error is the earliest file's.
    func noteFailure(_ index: Int) {
        lock.withLock { failed = min(failed ?? index, index) }
    }

    /// The file whose error ended the pass, if one did.
    var failedFile: Int? { lock.withLock { failed } }

    /// Why file `index` was not read (or not fully), if it was not.
    func error(_ index: Int) -> AuditError? {
        lock.withLock { errors.indices.contains(index) ? errors[index] : nil }
    }
}
