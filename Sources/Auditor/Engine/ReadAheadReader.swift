import Foundation

/// Reads another reader's chunks on a thread of its own, a few chunks ahead of the caller.
///
/// With several jobs the calling thread of ``Pipeline`` reads and merges: for a reader that
/// parses on the calling thread (XML through libxml2, SQLite), parsing and merging then
/// take turns on one core while the evaluation threads wait for chunks. Here the parsing
/// goes on while the caller merges.
///
/// The wrapped reader is used from the read-ahead thread only, one call at a time, until the
/// input ends or fails; then ``finish()`` runs it on the caller's thread. Chunks, their order,
/// errors and ``bytesRead`` (as of the last chunk handed out) are the wrapped reader's.
///
/// `@unchecked Sendable` is not claimed: the wrapper itself is used from one thread at a time,
/// like every reader; only ``Channel`` is shared with the read-ahead thread.
final class ReadAheadReader: RecordReader {
    let schema: Schema
    let locationStyle: LocationStyle
    let structuralRules: [StructuralRule]
    let totalBytes: Int64?
    private let fieldsAtOpen: [String]
    private var finished = false
    private(set) var bytesRead: Int64

    /// The wrapped reader's, as of open until ``finish()`` (then as of the end: a reader
    /// may learn its fields only by reading).
    var availableFields: [String] { finished ? base.availableFields : fieldsAtOpen }

    private let base: any RecordReader
    private let channel: Channel
    private var started = false
    private var terminal: Channel.Item?

    /// - Parameters:
    ///   - base: The reader to read ahead; this wrapper takes it over.
    ///   - depth: The most chunks read and not yet handed out.
    init(_ base: any RecordReader, depth: Int) {
        self.base = base
        schema = base.schema
        locationStyle = base.locationStyle
        structuralRules = base.structuralRules
        totalBytes = base.totalBytes
        fieldsAtOpen = base.availableFields
        bytesRead = base.bytesRead
        channel = Channel(depth: max(1, depth))
    }

    deinit {
        channel.cancel()
    }

    /// The next chunk read ahead. `maxRecords` is the first call's for every chunk.
    func nextChunk(maxRecords: Int) throws -> RecordChunk? {
        if !started {
            started = true
            start(maxRecords: maxRecords)
        }
        let item = terminal ?? channel.take()
        switch item {
        case .chunk(let chunk, let bytes):
            bytesRead = bytes
            return chunk
        case .end:
            terminal = item
            return nil
        case .failure(let error):
            terminal = item
            throw error
        }
    }

    /// Stops reading ahead, waits for the read-ahead thread to leave the wrapped reader, then
    /// finishes the wrapped reader on this thread.
    func finish() throws {
        if started { channel.cancelAndWait() }
        finished = true
        try base.finish()
    }

    private func start(maxRecords: Int) {
        let base = UncheckedReader(reader: base)
        let channel = self.channel
        let thread = Thread {
            defer { channel.producerEnded() }
            while channel.waitForRoom() {
                let item: Channel.Item
                do {
                    if let chunk = try base.reader.nextChunk(maxRecords: maxRecords) {
                        item = .chunk(chunk, base.reader.bytesRead)
                    } else {
                        item = .end
                    }
                } catch {
                    item = .failure(error)
                }
                channel.put(item)
                if case .chunk = item { continue }
                return
            }
        }
        thread.name = "auditor.read-ahead"
        thread.stackSize = 8 << 20             // as the main thread's: the reader may be a C parser
        thread.start()
    }

    /// The wrapped reader, handed to the read-ahead thread. `@unchecked Sendable`: after
    /// `start`, only that thread uses the reader until ``Channel/producerEnded()``, and the
    /// caller uses it again only after ``Channel/cancelAndWait()`` has seen that.
    private struct UncheckedReader: @unchecked Sendable {
        let reader: any RecordReader
    }

    /// The bounded queue between the read-ahead thread and the caller.
    /// `@unchecked Sendable`: every stored property is accessed with `condition` locked.
    final class Channel: @unchecked Sendable {
        enum Item {
            case chunk(RecordChunk, Int64)
            case end
            case failure(any Error)
        }

        private let condition = NSCondition()
        private let depth: Int
        private var items: [Item] = []
        private var cancelled = false
        private var ended = false

        init(depth: Int) {
            self.depth = depth
        }

        /// Waits until there is room for one more item. - Returns: False once cancelled.
        func waitForRoom() -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while !cancelled, items.count >= depth { condition.wait() }
            return !cancelled
        }

        func put(_ item: Item) {
            condition.lock()
            items.append(item)
            condition.broadcast()
            condition.unlock()
        }

        /// The oldest item, waiting for one.
        func take() -> Item {
            condition.lock()
            defer { condition.unlock() }
            while items.isEmpty { condition.wait() }
            let item = items.removeFirst()             // at most `depth` items: a short move
            condition.broadcast()
            return item
        }

        func producerEnded() {
            condition.lock()
            ended = true
            condition.broadcast()
            condition.unlock()
        }

        func cancel() {
            condition.lock()
            cancelled = true
            condition.broadcast()
            condition.unlock()
        }

        /// Cancels, then waits until the read-ahead thread has ended.
        func cancelAndWait() {
            condition.lock()
            cancelled = true
            condition.broadcast()
            while !ended { condition.wait() }
            condition.unlock()
        }
    }
}
