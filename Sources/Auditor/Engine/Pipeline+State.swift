#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the ``Pipeline``'s threads share: the items cut and not taken, the sequencer, the
/// results not merged, and the flags that stop it.
///
/// One mutex guards it all; each kind of waiter has its own condition variable, so an event
/// wakes only the threads it concerns (one condition for all cost a context switch per
/// waiter and event: ~2,000 per million-row run, measured with `perf stat`):
/// - `room`: the producer, waiting for fewer than `window` items in flight;
/// - `items`: the worker threads, waiting for an item;
/// - `turn`: a thread waiting for its item's turn to be placed;
/// - `caller`: the calling thread, waiting for the next result, an item, or the threads' end.
///
/// `@unchecked Sendable`: every stored property other than the (immutable) synchronisation
/// pointers is read and written with `mutex` locked.
final class PipelineState<Result: Sendable>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let room = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let items = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let turn = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let caller = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    private let window: Int
    /// Items cut and not yet merged.
    private var inFlight = 0
    /// Cut and not yet taken, oldest first (at most `window`).
    private var queue: [Pipeline.Item] = []
    private var producerEnded = false
    /// Set when the input ended with an error, or the caller is done: the producer stops.
    private var stopped = false
    /// Set by the caller once it merged its last item: the workers stop too.
    private var cancelled = false
    private var sequencer: MorselSequencer
    /// Items placed so far (the next one to place).
    private var placed = 0
    private var results: [Int: Pipeline.Done<Result>] = [:]
    /// Threads started and not ended (the producer and the workers).
    private var running: Int

    init(window: Int, workers: Int, origin: Int64) {
        self.window = max(1, window)
        running = workers + 1
        sequencer = MorselSequencer(origin: origin)
        pthread_mutex_init(mutex, nil)
        for condition in [room, items, turn, caller] { pthread_cond_init(condition, nil) }
    }

    deinit {
        for condition in [room, items, turn, caller] {
            pthread_cond_destroy(condition)
            condition.deallocate()
        }
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    private func wait(_ condition: UnsafeMutablePointer<pthread_cond_t>) {
        pthread_cond_wait(condition, mutex)
    }

    /// Producer: waits until fewer than `window` items are in flight. - Returns: False once stopped.
    func waitForRoom() -> Bool {
        locked {
            while !stopped, inFlight >= window { wait(room) }
            return !stopped
        }
    }

    func submit(_ item: Pipeline.Item) {
        locked {
            queue.append(item)
            inFlight += 1
            switch item.work {
            case .end, .failure:
                producerEnded = true
                pthread_cond_broadcast(items)          // idle workers end
            case .morsel, .parsed:
                pthread_cond_signal(items)
            }
            pthread_cond_signal(caller)
        }
    }

    /// Worker: the oldest item, waiting for one. - Returns: Nil once the input is done or cancelled.
    func take() -> Pipeline.Item? {
        locked {
            while queue.isEmpty {
                if cancelled || producerEnded || stopped { return nil }
                wait(items)
            }
            if cancelled { return nil }
            return queue.removeFirst()              // at most `window` items: a short move
        }
    }

    /// Runs `body` on the sequencer once every item before `index` is placed.
    /// - Returns: False when the item is dropped instead (stopped before its turn).
    func inOrder(_ index: Int, _ body: (inout MorselSequencer) -> Void) -> Bool {
        locked {
            while placed != index {
                if cancelled || stopped { return false }
                wait(turn)
            }
            body(&sequencer)
            placed += 1
            pthread_cond_broadcast(turn)
            return true
        }
    }

    /// Stops the producer (the input ended with an error: nothing after it is used).
    func stopProducing() {
        locked {
            stopped = true
            wakeAll()
        }
    }

    func complete(_ index: Int, _ done: Pipeline.Done<Result>) {
        locked {
            results[index] = done
            pthread_cond_signal(caller)
        }
    }

    enum Next {
        case result(Pipeline.Done<Result>)
        case item(Pipeline.Item)
    }

    /// Caller: the item `index`'s results when they are ready, else an item to work on,
    /// waiting for either.
    func resultOrItem(_ index: Int) -> Next {
        locked {
            while true {
                if let done = results.removeValue(forKey: index) { return .result(done) }
                if !queue.isEmpty { return .item(queue.removeFirst()) }
                wait(caller)
            }
        }
    }

    /// Caller: one more item merged (room for the producer).
    func merged() {
        locked {
            inFlight -= 1
            pthread_cond_signal(room)
        }
    }

    func threadEnded() {
        locked {
            running -= 1
            pthread_cond_signal(caller)
        }
    }

    /// Caller: stops every thread and waits until all have ended (the reader is then free).
    func cancelAndWait() {
        locked {
            stopped = true
            cancelled = true
            wakeAll()
            while running > 0 { wait(caller) }
        }
    }

    private func wakeAll() {
        for condition in [room, items, turn, caller] { pthread_cond_broadcast(condition) }
    }
}
