import Foundation

/// The one pipeline every pass over an input runs through: ordered, bounded and morsel-driven.
///
/// With one job everything runs on the calling thread: read a chunk, evaluate it, merge it.
///
/// With several jobs:
/// - One **producer** thread drives the reader. A ``MorselReader`` only cuts morsels there
///   (CSV: a block of whole records found by a quote-aware split); any other reader (XML,
///   SQLite) parses its chunks there, one call at a time.
/// - `jobs - 1` **worker** threads and the calling thread take the items in order. Each one
///   parses its morsel, waits for its turn to place it (``MorselSequencer``: record numbers and
///   locations, which need the line counts of the morsels before it), then evaluates its
///   chunks on the same thread, while their bytes are still in that core's cache.
/// - The **calling** thread merges the results strictly in input order, so findings, samples,
///   key tables and lifecycle are those of the one-job run. It merges whenever the next result
///   is ready, and works on the next item when it is not, so `jobs` threads share the cores
///   (plus the producer, which only cuts for a CSV file).
///
/// At most `2 × jobs` items are cut and not yet merged: the producer waits for room, so memory
/// is bounded whatever the input size. The first error (a morsel's framing error, or the
/// reader's throw) ends the input: the items after it are dropped, the producer stops cutting,
/// and `run` returns only once every thread has left the reader and the evaluation closure.
/// Threads block on condition variables (``PipelineState``); nothing spins.
enum Pipeline {
    /// Runs one pass over `reader`.
    /// - Parameters:
    ///   - reader: The input; the pipeline's producer uses it until `run` returns.
    ///   - chunkSize: The most records per chunk.
    ///   - jobs: Threads that parse and evaluate, the calling thread among them (1: everything
    ///     on the calling thread; more: a producer thread besides).
    ///   - evaluate: Called for each chunk on a worker thread or the calling thread, in any order.
    ///   - merge: Called on the calling thread with each chunk's result, in input order, and
    ///     the reader's ``RecordReader/bytesRead`` as of that chunk (for progress displays).
    ///     An error it throws stops the input as a reader's would.
    /// - Returns: The error that stopped the input, if any (the chunks before it are merged).
    static func run<Result: Sendable>(reader: any RecordReader, chunkSize: Int, jobs: Int,
                                      evaluate: @escaping @Sendable (RecordChunk) -> Result,
                                      merge: (Result, Int64) throws -> Void) -> (any Error)? {
        if jobs <= 1 {
            do {
                while let chunk = try reader.nextChunk(maxRecords: chunkSize) { try merge(evaluate(chunk), reader.bytesRead) }
                return nil
            } catch {
                return error
            }
        }
        let state = PipelineState<Result>(window: 2 * jobs, workers: jobs - 1,
                                          origin: (reader as? any MorselReader)?.morselOrigin ?? 0)
        let source = ProducerReader(reader: reader)
        start("auditor.read") { produce(source, chunkSize: chunkSize, into: state) }
        for _ in 1 ..< jobs {
            start("auditor.evaluate") { work(state, evaluate: evaluate) }
        }
        var failure: (any Error)?
        var index = 0
        merging: while true {
            let done: Pipeline.Done<Result>
            switch state.resultOrItem(index) {
            case .result(let result): done = result
            case .item(let item):
                process(item, state, evaluate: evaluate)
                continue merging
            }
            do {
                for result in done.results { try merge(result, done.bytesRead) }
            } catch {
                failure = error
                break merging
            }
            state.merged()
            index += 1
            switch done.stop {
            case nil: continue
            case .end: break merging
            case .failure(let error):
                failure = error
                break merging
            }
        }
        state.cancelAndWait()
        return failure
    }

    /// The producer: cuts morsels (or reads chunks) until the end, an error, or cancellation.
    private static func produce<Result>(_ source: ProducerReader, chunkSize: Int, into state: PipelineState<Result>) {
        defer { state.threadEnded() }
        let reader = source.reader
        let morsels = reader as? any MorselReader
        var index = 0
        while state.waitForRoom() {
            let work: Work
            do {
                if let morsels {
                    work = try morsels.nextMorsel(maxRecords: chunkSize).map { .morsel($0) } ?? .end
                } else {
                    work = try reader.nextChunk(maxRecords: chunkSize).map { .parsed(ParsedMorsel(chunks: [$0])) } ?? .end
                }
            } catch {
                work = .failure(error)
            }
            state.submit(Item(index: index, work: work, bytesRead: reader.bytesRead))
            index += 1
            switch work {
            case .morsel, .parsed: continue
            case .end, .failure: return
            }
        }
    }

    /// A worker thread: processes items until there are none left.
    private static func work<Result>(_ state: PipelineState<Result>, evaluate: @Sendable (RecordChunk) -> Result) {
        defer { state.threadEnded() }
        while let item = state.take() { process(item, state, evaluate: evaluate) }
    }

    /// Parse, place in order, evaluate, hand the results to the merger.
    private static func process<Result>(_ item: Item, _ state: PipelineState<Result>,
                                        evaluate: @Sendable (RecordChunk) -> Result) {
        var parsed: ParsedMorsel?
        var stop: Stop?
        switch item.work {
        case .morsel(let morsel): parsed = morsel.parse()
        case .parsed(let chunks): parsed = chunks
        case .end: stop = .end
        case .failure(let error): stop = .failure(error)
        }
        var chunks = [RecordChunk]()
        let placed = state.inOrder(item.index) { sequencer in
            guard let morsel = parsed else { return }
            parsed = nil                        // the morsel's only reference: placed in place
            let (ordered, failure) = sequencer.place(morsel)
            chunks = ordered
            if let failure { stop = .failure(failure) }
        }
        // Dropped after an earlier failure: nobody merges it.
        guard placed else { return }
        if case .failure = stop { state.stopProducing() }
        let results = chunks.map(evaluate)
        state.complete(item.index, Done(results: results, bytesRead: item.bytesRead, stop: stop))
    }

    private static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.stackSize = 8 << 20          // as the main thread's: the reader may be a C parser
        thread.start()
    }

    enum Work: Sendable {
        case morsel(any RecordMorsel)
        /// A chunk a reader that cannot be cut parsed on the producer thread.
        case parsed(ParsedMorsel)
        case end
        case failure(any Error)
    }

    struct Item: Sendable {
        var index: Int
        var work: Work
        var bytesRead: Int64
    }

    enum Stop: Sendable {
        case end
        case failure(any Error)
    }

    struct Done<Result: Sendable>: Sendable {
        var results: [Result]
        var bytesRead: Int64
        var stop: Stop?
    }

    /// The reader, handed to the producer thread. `@unchecked Sendable`: from `run`'s start
    /// until ``PipelineState/cancelAndWait()`` has seen the producer end, only the producer
    /// thread uses the reader; the calling thread uses it again only after that.
    private struct ProducerReader: @unchecked Sendable {
        let reader: any RecordReader
    }
}
