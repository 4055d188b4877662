import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program that a test runs: started with `posix_spawn`, its output captured in files, its end
/// seen by `waitpid` on its own pid, and killed when it outlives its time limit.
///
/// Not Foundation's `Process`, whose end on Linux is noticed through a socket that the child
/// inherits: a grandchild that outlives the child (a server that a script starts) keeps it open,
/// and when many children start at once its end can be missed, so `waitUntilExit()` may never
/// return and the whole `swift test` run hangs. Nor pipes: a pipe ends only when every process
/// holding it has closed it, which a long-lived process started elsewhere in the run may not.
/// The child keeps only descriptors 0, 1 and 2, so that a long-lived child (the throwaway
/// PostgreSQL server) never holds another test's files open.
public final class ChildProcess: @unchecked Sendable {
    /// What an ended child did.
    public struct Result: Sendable, CustomStringConvertible {
        public var command: [String]
        /// The exit status, or 128 + the signal that ended the child.
        public var status: Int32
        /// The signal that ended the child, if one did.
        public var signal: Int32?
        public var stdout: Data
        /// Empty when stderr went into stdout (`mergeErrors`).
        public var stderr: Data

        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        public var stderrText: String { String(decoding: stderr, as: UTF8.self) }

        public var description: String {
            func clip(_ s: String) -> String { s.count > 3000 ? String(s.suffix(3000)) : s }
            return "$ \(command.joined(separator: " "))\nstatus \(status)\n--- stderr ---\n\(clip(stderrText))\n--- stdout ---\n\(clip(stdoutText))"
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    private let pid: pid_t
    public let command: [String]
    private let folder: URL
    private let mergeErrors: Bool
    private let lock = NSLock()
    private var ended: (status: Int32, signal: Int32?)?

    /// Starts `command` (its first word is a path, or a name looked up in `PATH`).
    /// - Parameters:
    ///   - directory: The working directory; the test process's own when `nil`.
    ///   - environment: The whole environment; the test process's own when `nil`.
    ///   - input: What the child reads on stdin (`/dev/null` when `nil`).
    ///   - inputFile: A file the child reads on stdin instead.
    ///   - mergeErrors: stderr goes to the same file as stdout, in the order written.
    public init(_ command: [String], directory: URL? = nil, environment: [String: String]? = nil,
                input: Data? = nil, inputFile: String? = nil, mergeErrors: Bool = false) throws {
        precondition(!command.isEmpty, "a command needs a program")
        self.command = command
        self.mergeErrors = mergeErrors
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var stdin = inputFile ?? "/dev/null"
        if let input {
            stdin = folder.appendingPathComponent("stdin").path
            try input.write(to: URL(fileURLWithPath: stdin))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, folder.appendingPathComponent("stdout").path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if mergeErrors {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, folder.appendingPathComponent("stderr").path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        if let closeFrom = Self.closeFrom { _ = closeFrom(&actions, 3) }
        if let directory {
            guard let changeDirectory = Self.changeDirectory else {
                throw Failure(description: "this C library cannot set a spawned program's directory (posix_spawn_file_actions_addchdir_np)")
            }
            _ = changeDirectory(&actions, directory.path)
        }
        let arguments = command.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { variables.forEach { free($0) } }
        var pid = pid_t()
        let rc = posix_spawnp(&pid, command[0], &actions, nil, arguments, variables)
        guard rc == 0 else {
            try? FileManager.default.removeItem(at: folder)
            throw Failure(description: "cannot start \(command[0]): \(String(cString: strerror(rc)))")
        }
        self.pid = pid
    }

    deinit {
        if state() == nil {
            kill(pid, SIGKILL)
            while waitpid(pid, nil, 0) == -1 && errno == EINTR {}
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `command` to its end, at most `timeout` seconds.
    /// - Throws: ``Failure`` when it cannot start, or when it outlived `timeout` (it is killed).
    public static func run(_ command: [String], directory: URL? = nil, environment: [String: String]? = nil,
                           input: Data? = nil, inputFile: String? = nil, mergeErrors: Bool = false,
                           timeout: Double = 600) throws -> Result {
        try ChildProcess(command, directory: directory, environment: environment, input: input, inputFile: inputFile,
                         mergeErrors: mergeErrors).wait(timeout: timeout)
    }

    /// Whether the child has not ended yet.
    public var isRunning: Bool { state() == nil }

    /// Sends `signal` to the child, if it has not ended (its pid is still ours until reaped).
    public func send(_ signal: Int32) {
        lock.lock()
        defer { lock.unlock() }
        if ended == nil { kill(pid, signal) }
    }

    /// Waits for the child's end, at most `timeout` seconds, and returns what it did.
    /// - Throws: ``Failure`` when the child outlived `timeout`; it is killed first.
    public func wait(timeout: Double = 600) throws -> Result {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        var pause: useconds_t = 1000
        while state() == nil {
            if ContinuousClock.now > deadline {
                send(SIGKILL)
                while state() == nil { usleep(1000) }
                throw Failure(description: "\(command.joined(separator: " ")) did not finish within \(Int(timeout)) s and was killed\n\(result())")
            }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
        return result()
    }

    /// What the child did so far: its end (if it has ended) and everything it wrote.
    private func result() -> Result {
        let end = state() ?? (-1, nil)
        let read = { (name: String) in (try? Data(contentsOf: self.folder.appendingPathComponent(name))) ?? Data() }
        return Result(command: command, status: end.status, signal: end.signal, stdout: read("stdout"),
                      stderr: mergeErrors ? Data() : read("stderr"))
    }

    /// The child's end once it has ended (reaped here, by its own pid), else `nil`.
    private func state() -> (status: Int32, signal: Int32?)? {
        lock.lock()
        defer { lock.unlock() }
        if let ended { return ended }
        var status: Int32 = 0
        let rc = waitpid(pid, &status, WNOHANG)
        if rc == pid {
            // WIFEXITED / WEXITSTATUS / WTERMSIG by hand (macros Swift does not import).
            let signal = status & 0x7F
            ended = signal == 0 ? ((status >> 8) & 0xFF, nil) : (128 + signal, signal)
        } else if rc == -1 && errno == ECHILD {
            ended = (-1, nil)   // reaped by someone else: ended, its status unknown
        }
        return ended
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` and `…_addchdir_np` (2.34 and 2.29),
    /// which its headers declare only under `_GNU_SOURCE`, where Swift does not see them.
    private static let closeFrom: CloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")
    private static let changeDirectory: ChangeDirectory? = symbol("posix_spawn_file_actions_addchdir_np")
    private static func symbol<T>(_ name: String) -> T? {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: T.self) }
    }
}
