import Auditor
import Foundation

/// Reads another source on a thread of its own, ahead of the reader: decompression runs on
/// one core while the reader parses on another, so a gzip audit costs about the inflate
/// alone. At most ``depth`` blocks of ``blockBytes`` are decoded ahead (4 MiB in all), so
/// memory stays constant however far the producer could run.
///
/// The bytes, their order, the end and the errors are the wrapped source's; ``rawBytesRead``
/// is the wrapped source's count when the block being read was produced (so progress follows
/// what the reader consumed, not what was decoded ahead).
package final class ReadAheadSource: ByteSource {
    package let displayPath: String
    package let compression: InputCompression
    package let totalBytes: Int64?
    package let watch: FileChangeWatch?
    package private(set) var rawBytesRead: Int64 = 0
    package private(set) var rawAtEnd = false

    static let blockBytes = 1 << 20
    static let depth = 4

    private let shared: Shared
    /// The block being read, and how far.
    private var current: Block?
    private var offset = 0
    private var ended = false

    /// Starts a thread that reads `source` ahead; this object takes the source over (nothing
    /// else may use it afterwards).
    package init(_ source: any ByteSource, blockBytes: Int = ReadAheadSource.blockBytes) {
        displayPath = source.displayPath
        compression = source.compression
        totalBytes = source.totalBytes
        watch = source.watch
        let shared = Shared(blocks: ReadAheadSource.depth, bytes: max(1, blockBytes))
        self.shared = shared
        let owned = Owned(source: source)
        let thread = Thread { shared.produce(owned.source) }
        thread.name = "auditor.readahead"
        thread.stackSize = 1 << 20
        thread.start()
    }

    deinit {
        if let current, let buffer = current.buffer { shared.recycle(buffer) }
        shared.cancel()
    }

    package func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(AuditError) -> Int {
        guard count > 0 else { return 0 }
        while true {
            if ended { return 0 }
            if let block = current {
                if offset < block.count, let data = block.buffer {
                    let n = min(count, block.count - offset)
                    buffer.update(from: data + offset, count: n)
                    offset += n
                    return n
                }
                current = nil
                if let data = block.buffer { shared.recycle(data) }
                if let error = block.error {
                    ended = true
                    throw error
                }
                if block.last {
                    ended = true
                    rawAtEnd = block.rawAtEnd
                    return 0
                }
            }
            let next = shared.take()
            current = next
            offset = 0
            rawBytesRead = next.rawBytes
            rawAtEnd = next.rawAtEnd
        }
    }

    package func close() {
        ended = true
        shared.cancel()
    }

    /// One block of bytes handed from the producer to the reader.
    struct Block {
        var buffer: UnsafeMutablePointer<UInt8>?
        var count: Int
        var rawBytes: Int64
        var rawAtEnd: Bool
        /// The source's end follows these bytes.
        var last: Bool
        /// The source's error follows these bytes.
        var error: AuditError?
    }

    /// Carries the source to the producer thread.
    // @unchecked: the source is handed over once (the consumer keeps no reference to it) and
    // used only by the producer thread from then on.
    private struct Owned: @unchecked Sendable {
        let source: any ByteSource
    }

    // @unchecked: every mutable field is read and written under `condition` only; the
    // buffers' contents are written by the producer before a block is queued and read by the
    // consumer after it is taken, both under the lock, which orders the accesses.
    final class Shared: @unchecked Sendable {
        private let condition = NSCondition()
        private var free: [UnsafeMutablePointer<UInt8>]
        private var all: [UnsafeMutablePointer<UInt8>]
        private var queue: [Block] = []
        private var cancelled = false
        private let bytes: Int

        init(blocks: Int, bytes: Int) {
            self.bytes = bytes
            all = (0..<blocks).map { _ in UnsafeMutablePointer<UInt8>.allocate(capacity: bytes) }
            free = all
        }

        deinit {
            for buffer in all { buffer.deallocate() }
        }

        func cancel() {
            condition.lock()
            cancelled = true
            condition.broadcast()
            condition.unlock()
        }

        func recycle(_ buffer: UnsafeMutablePointer<UInt8>) {
            condition.lock()
            free.append(buffer)
            condition.broadcast()
            condition.unlock()
        }

        /// The next block (waits for the producer).
        func take() -> Block {
            condition.lock()
            defer { condition.unlock() }
            while queue.isEmpty {
                if cancelled { return Block(buffer: nil, count: 0, rawBytes: 0, rawAtEnd: false, last: true) }
                condition.wait()
            }
            return queue.removeFirst()
        }

        private func buffer() -> UnsafeMutablePointer<UInt8>? {
            condition.lock()
            defer { condition.unlock() }
            while free.isEmpty, !cancelled { condition.wait() }
            return cancelled ? nil : free.popLast()
        }

        private func push(_ block: Block) {
            condition.lock()
            queue.append(block)
            condition.broadcast()
            condition.unlock()
        }

        /// The producer's loop: fills free buffers from `source` until its end, an error or cancellation.
        func produce(_ source: any ByteSource) {
            defer { source.close() }
            while let data = buffer() {
                var count = 0
                var last = false
                var error: AuditError?
                while count < bytes {
                    do {
                        let n = try source.read(into: data + count, count: bytes - count)
                        if n == 0 {
                            last = true
                            break
                        }
                        count += n
                    } catch let failure {
                        error = failure
                        break
                    }
                }
                push(Block(buffer: data, count: count, rawBytes: source.rawBytesRead, rawAtEnd: source.rawAtEnd,
                           last: last, error: error))
                if last || error != nil { return }
            }
        }
    }
}
