@testable import Auditor
import Foundation
import TestSupport
import Testing

/// The history's input hashes (InputHashing): the background thread, the takeover by
/// `wait()` at any point, and files that cannot be hashed, against coreutils' `sha256sum`.
@Suite struct InputHashingTests {
    static func sha256sum(_ path: String) throws -> String {
        try ChildProcess.run(["/usr/bin/sha256sum", path]).stdoutText.split(separator: " ").first.map(String.init) ?? ""
    }

    /// An empty file, files around the 1 MiB step and the 32 KiB read, a missing path, a
    /// directory and a FIFO (never opened for reading: no hash, no hang).
    static func files() throws -> (hashable: [String], other: [String]) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hashing-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        var hashable = [String]()
        for (i, size) in [0, 1, 32_767, 1 << 20, (1 << 20) + 1, 5 * (1 << 20) + 12_345].enumerated() {
            let path = "\(dir)/f\(i).bin"
            let bytes = (0 ..< size).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            hashable.append(path)
        }
        let fifo = "\(dir)/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        return (hashable, ["\(dir)/missing.csv", dir, fifo])
    }

    @Test(arguments: [0, 1, 5, 40])
    func takeoverGivesTheSameHashes(afterMilliseconds delay: Int) throws {
        let (hashable, other) = try Self.files()
        let expected = try Dictionary(uniqueKeysWithValues: hashable.map { ($0, try Self.sha256sum($0)) })
        let paths = [other[0]] + hashable.prefix(3) + [other[1], other[2]] + hashable.dropFirst(3)
        let hashing = InputHashing(paths: paths, background: delay > 0)
        if delay > 1 { Thread.sleep(forTimeInterval: Double(delay) / 1000) }
        let hashes = hashing.wait()
        #expect(hashes.byPath == expected)
        let sizes = try hashable.map { try FileManager.default.attributesOfItem(atPath: $0)[.size] as! Int }
        #expect(hashes.bytes == Int64(sizes.reduce(0, +)))
    }

    @Test func noPathsNoThread() {
        let hashes = InputHashing(paths: []).wait()
        #expect(hashes.byPath.isEmpty && hashes.bytes == 0)
    }
}
