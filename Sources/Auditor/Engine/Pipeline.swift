import Dispatch
import Foundation

/// Reads chunks on the calling thread, evaluates them on `jobs` worker threads, and merges
/// the results strictly in chunk order on the calling thread. At most `2 × jobs` chunks are
/// in flight (the calling thread merges, waiting if needed, before it reads more), so memory is bounded whatever the input size. With one job everything runs
/// inline on the calling thread.
enum Pipeline {
    /// - Returns: The error that stopped the reader, if any (chunks read before it are merged).
    static func run<Result: Sendable>(reader: any RecordReader, chunkSize: Int, jobs: Int,
                                      evaluate: @escaping @Sendable (RecordChunk) -> Result,
                                      merge: (Result) -> Void) -> (any Error)? {
        if jobs <= 1 {
            do {
                while let chunk = try reader.nextChunk(maxRecords: chunkSize) { merge(evaluate(chunk)) }
                return nil
            } catch {
                return error
            }
        }
        let slots = ResultSlots<Result>()
        let window = jobs * 2
        let workers = DispatchSemaphore(value: jobs)
        let queue = DispatchQueue(label: "auditor.evaluate", attributes: .concurrent)
        var submitted = 0
        var merged = 0
        var failure: (any Error)?
        while failure == nil {
            // Bound the chunks in flight: merge (waiting if needed) before reading more.
            while submitted - merged >= window, let ready = slots.take(merged, wait: true) {
                merge(ready)
                merged += 1
            }
            let chunk: RecordChunk?
            do {
                chunk = try reader.nextChunk(maxRecords: chunkSize)
            } catch {
                failure = error
                chunk = nil
            }
            guard let chunk else { break }
            let index = submitted
            submitted += 1
            queue.async {
                workers.wait()
                let result = evaluate(chunk)
                workers.signal()
                slots.put(index, result)
            }
            while let ready = slots.take(merged, wait: false) {
                merge(ready)
                merged += 1
            }
        }
        while merged < submitted, let ready = slots.take(merged, wait: true) {
            merge(ready)
            merged += 1
        }
        return failure
    }
}

/// Evaluated chunks waiting to be merged, by chunk index.
/// `@unchecked Sendable`: every access to `results` happens with `condition` locked.
private final class ResultSlots<Result: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var results: [Int: Result] = [:]

    func put(_ index: Int, _ result: Result) {
        condition.lock()
        results[index] = result
        condition.broadcast()
        condition.unlock()
    }

    func take(_ index: Int, wait: Bool) -> Result? {
        condition.lock()
        defer { condition.unlock() }
        while results[index] == nil {
            if !wait { return nil }
            condition.wait()
        }
        return results.removeValue(forKey: index)
    }
}
