/// A reader whose input can be cut, in order and without parsing it, into independent pieces
/// ("morsels") that any thread can parse. The engine's pipeline cuts morsels on one thread and
/// parses *and* evaluates each one on a worker thread, so a morsel's records are evaluated
/// while they are still in that core's cache (morsel-driven parallelism, as in HyPer and DuckDB).
///
/// What an implementation must guarantee:
/// - ``nextMorsel(maxRecords:)`` is called from one thread at a time, like every reader
///   method; the morsels it returns are parsed on any threads, several at once, in any order.
/// - Parsing the morsels in order and placing them with a ``MorselSequencer`` started at
///   ``morselOrigin`` gives exactly the records, locations, issues and error that
///   ``RecordReader/nextChunk(maxRecords:)`` would give (only where chunks end may differ).
/// - After a morsel whose ``ParsedMorsel/failure`` is set, or after a throw, no later morsel
///   is used: the reader may stop there.
/// - ``RecordReader/bytesRead`` counts the bytes cut into morsels so far.
package protocol MorselReader: RecordReader {
    /// The location of the first record that the next morsel holds: the base that morsels'
    /// relative locations are added to (for CSV, the line after the header).
    var morselOrigin: Int64 { get }

    /// Cuts the next morsel of the input, without parsing it.
    /// - Parameter maxRecords: The most records per chunk that the morsel's parse returns.
    /// - Returns: The next morsel, or `nil` at the end of the input.
    /// - Throws: ``AuditError`` when the input cannot be read further (morsels cut before stay valid).
    func nextMorsel(maxRecords: Int) throws -> (any RecordMorsel)?
}

/// A piece of input that parses independently of the others (see ``MorselReader``).
package protocol RecordMorsel: Sendable {
    /// Parses the morsel; safe to call on any thread, once.
    /// - Complexity: O(bytes of the morsel).
    func parse() -> ParsedMorsel
}

/// The records of one morsel, before they know where they are in the input.
package struct ParsedMorsel: Sendable {
    /// The morsel's records: each chunk's `firstRecord` counts from the morsel's first record
    /// (0), and its locations are relative to the morsel's start (added to the base).
    public var chunks: [RecordChunk]
    /// How far the location base moves past this morsel (for CSV: the lines it spans).
    public var locationSpan: Int64
    /// The error that ends the input after these chunks, given the morsel's location base
    /// (a framing error is located only once the lines before it are known).
    public var failure: (@Sendable (_ locationBase: Int64) -> AuditError)?
    /// When set, the morsel starts another file of a multi-file source: the location base is
    /// reset to this (the file's origin, carrying its index: ``FileLocation``) before it is placed.
    public var locationOrigin: Int64?

    /// - Parameters:
    ///   - chunks: The records, with relative record numbers and locations.
    ///   - locationSpan: How far the location base moves past this morsel.
    ///   - failure: The error after the chunks, if the input ends with one.
    public init(chunks: [RecordChunk], locationSpan: Int64 = 0,
                failure: (@Sendable (_ locationBase: Int64) -> AuditError)? = nil) {
        self.chunks = chunks
        self.locationSpan = locationSpan
        self.failure = failure
    }
}

/// Places parsed morsels, in input order: gives each chunk its record numbers and absolute
/// locations, and locates the error that ends the input. The only step of a morsel that
/// must wait for the morsels before it; it is O(records of the morsel).
package struct MorselSequencer: Sendable {
    /// The location base of the next morsel.
    public private(set) var locationBase: Int64
    /// Records placed so far.
    public private(set) var records = 0
    /// True once a morsel ended the input with an error: later morsels are not placed.
    public private(set) var failed = false

    /// - Parameter origin: The first morsel's location base (``MorselReader/morselOrigin``).
    public init(origin: Int64) {
        locationBase = origin
    }

    /// Places the next morsel.
    /// - Returns: Its chunks, numbered and located, and the error that follows them (nothing
    ///   once an earlier morsel failed).
    /// - Complexity: O(records of the morsel).
    public mutating func place(_ parsed: consuming ParsedMorsel) -> (chunks: [RecordChunk], failure: AuditError?) {
        guard !failed else { return ([], nil) }
        if let origin = parsed.locationOrigin { locationBase = origin }
        // Taken out, so that each chunk's locations are uniquely referenced (shifted in place).
        var chunks = parsed.chunks
        parsed.chunks = []
        let base = locationBase
        for c in chunks.indices {
            chunks[c].firstRecord = records
            records += chunks[c].count
            if base != 0 {
                chunks[c].locations.withUnsafeMutableBufferPointer { locations in
                    for r in locations.indices { locations[r] &+= base }
                }
            }
        }
        locationBase &+= parsed.locationSpan
        guard let failure = parsed.failure else { return (chunks, nil) }
        failed = true
        return (chunks, failure(base))
    }
}
