import Auditor
import Foundation
@testable import AuditorReports
import Testing

/// ``OutputFile``, ``OutputTarget`` and ``ProtectedFiles``: the one place that writes files.
@Suite("Safe output files")
struct SafeOutputTests {
    /// A fresh folder, removed by `remove()`.
    final class Folder {
        let path: String
        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-safe-\(UUID().uuidString.prefix(8))").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        func remove() { try? FileManager.default.removeItem(atPath: path) }
        func at(_ name: String) -> String { path + "/" + name }
        func write(_ name: String, _ text: String) { _ = FileManager.default.createFile(atPath: at(name), contents: Data(text.utf8)) }
        func read(_ name: String) -> String? { FileManager.default.contents(atPath: at(name)).map { String(decoding: $0, as: UTF8.self) } }
        func listing() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
        func kind(_ name: String) -> mode_t? {
            var info = stat()
            return lstat(at(name), &info) == 0 ? info.st_mode & S_IFMT : nil
        }
    }

    @Test("Descriptor names resolve to the descriptor, never to a file: -, /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N")
    func descriptors() throws {
        #expect(try OutputTarget.resolve("-", what: "x") == .descriptor(1))
        #expect(try OutputTarget.resolve("/dev/stdout", what: "x") == .descriptor(1))
        #expect(try OutputTarget.resolve("/dev/stderr", what: "x") == .descriptor(2))
        #expect(try OutputTarget.resolve("/dev/fd/2", what: "x") == .descriptor(2))
        #expect(try OutputTarget.resolve("/proc/self/fd/1", what: "x") == .descriptor(1))
        #expect(try OutputTarget.resolve("/dev/null", what: "x") == .direct(path: "/dev/null"))
    }

    @Test("Directories, missing folders, link loops and sockets are refused with 73; an empty path with 64")
    func refusals() throws {
        let f = try Folder()
        defer { f.remove() }
        for path in [f.path, f.path + "/", f.at("missing/out.json")] {
            let e = #expect(throws: AuditError.self) { try OutputTarget.resolve(path, what: "the report") }
            #expect(e?.code == .cannotCreateOutput, "\(path)")
        }
        try FileManager.default.createSymbolicLink(atPath: f.at("a"), withDestinationPath: "b")
        try FileManager.default.createSymbolicLink(atPath: f.at("b"), withDestinationPath: "a")
        let loop = #expect(throws: AuditError.self) { try OutputTarget.resolve(f.at("a"), what: "the report") }
        #expect(loop?.code == .cannotCreateOutput)
        let empty = #expect(throws: AuditError.self) { try OutputTarget.resolve("", what: "the report") }
        #expect(empty?.code == .usage)
    }

    @Test("A chain of relative and absolute links resolves to the last target's real folder")
    func linkChain() throws {
        let f = try Folder()
        defer { f.remove() }
        try FileManager.default.createDirectory(atPath: f.at("d/e"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: f.at("one"), withDestinationPath: "d/two")
        try FileManager.default.createSymbolicLink(atPath: f.at("d/two"), withDestinationPath: f.at("d/e/three"))
        let real = try #require(OutputTarget.realPath(f.at("d/e")))
        #expect(try OutputTarget.resolve(f.at("one"), what: "x") == .file(folder: real, name: "three"))
        try OutputFile.write("hello\n", to: f.at("one"))
        #expect(f.read("d/e/three") == "hello\n")
        #expect(f.kind("one") == S_IFLNK)
        #expect(f.kind("d/two") == S_IFLNK)
    }

    @Test("Replacing a file is atomic, keeps its permissions and leaves no temporary file")
    func replaceKeepsMode() throws {
        let f = try Folder()
        defer { f.remove() }
        f.write("r.txt", "old")
        chmod(f.at("r.txt"), 0o640)
        try OutputFile.write("new", to: f.at("r.txt"))
        #expect(f.read("r.txt") == "new")
        var info = stat()
        stat(f.at("r.txt"), &info)
        #expect(info.st_mode & 0o777 == 0o640)
        #expect(f.listing() == ["r.txt"])
    }

    @Test("Protected files are refused however reached: same path, symlink, hard link, '..', a sidecar not yet created")
    func protectedFiles() throws {
        let f = try Folder()
        defer { f.remove() }
        f.write("in.sqlite", "data")
        try FileManager.default.createDirectory(atPath: f.at("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: f.at("soft"), withDestinationPath: "in.sqlite")
        try FileManager.default.linkItem(atPath: f.at("in.sqlite"), toPath: f.at("hard"))
        var protected = ProtectedFiles()
        protected.add(f.at("in.sqlite"), role: "the input of source 'people'")
        for path in ["in.sqlite", "soft", "hard", "sub/../in.sqlite", "in.sqlite-wal", "in.sqlite-shm", "in.sqlite-journal"] {
            let e = #expect(throws: AuditError.self, "\(path)") {
                try OutputFile.write("x", to: f.at(path), protecting: protected)
            }
            #expect(e?.code == .usage, "\(path)")
            #expect(e?.message.contains("the input of source 'people'") == true, "\(e?.message ?? "")")
            let check = #expect(throws: AuditError.self) { try OutputFile.check(f.at(path), protecting: protected) }
            #expect(check?.code == .usage)
        }
        #expect(f.read("in.sqlite") == "data")
        #expect(f.listing() == ["hard", "in.sqlite", "soft", "sub"])
        try OutputFile.write("ok", to: f.at("report.json"), protecting: protected)
        #expect(f.read("report.json") == "ok")
    }

    @Test("A symlink planted at the temporary name is never followed: the next name is taken, the victim is untouched")
    func plantedSymlink() throws {
        let f = try Folder()
        defer { f.remove() }
        f.write("victim", "precious")
        let planted = ".out.json.auditor-aaaaaaaaaaaaaaaa.tmp"
        try FileManager.default.createSymbolicLink(atPath: f.at(planted), withDestinationPath: f.at("victim"))
        f.write(".out.json.auditor-bbbbbbbbbbbbbbbb.tmp.keep", "")      // not our pattern: left alone
        var names = ["aaaaaaaaaaaaaaaa", "cccccccccccccccc"].makeIterator()
        let out = try OutputFile(path: f.at("out.json"), what: "the report", option: "--output",
                                 protecting: ProtectedFiles(), names: { names.next() ?? "dddddddddddddddd" })
        #expect(out.temporaryPath?.hasSuffix(".out.json.auditor-cccccccccccccccc.tmp") == true)
        try out.write("report")
        try out.commit()
        #expect(f.read("victim") == "precious")
        #expect(f.kind(planted) == S_IFLNK)
        #expect(f.read("out.json") == "report")
    }

    @Test("Leftovers: a stale temporary file is removed; one locked by a live writer, another name's, or a symlink is kept")
    func leftovers() throws {
        let f = try Folder()
        defer { f.remove() }
        let stale = ".r.json.auditor-0123456789abcdef.tmp"
        let live = ".r.json.auditor-fedcba9876543210.tmp"
        let other = ".q.json.auditor-0123456789abcdef.tmp"
        let link = ".r.json.auditor-1111111111111111.tmp"
        for name in [stale, live, other] { f.write(name, "partial") }
        try FileManager.default.createSymbolicLink(atPath: f.at(link), withDestinationPath: "/nonexistent")
        let holder = open(f.at(live), O_RDONLY)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX) == 0)
        #expect(OutputFile.Leftovers.matches(stale, name: "r.json"))
        #expect(!OutputFile.Leftovers.matches(".r.json.auditor-xyz.tmp", name: "r.json"))
        try OutputFile.write("{}", to: f.at("r.json"))
        #expect(f.listing() == [link, other, live, "r.json"].sorted())
    }

    @Test("A write that fails discards the temporary file and leaves the old target")
    func discardOnFailure() throws {
        let f = try Folder()
        defer { f.remove() }
        f.write("r.txt", "old")
        let out = try OutputFile(path: f.at("r.txt"))
        let temporary = try #require(out.temporaryPath)
        #expect(FileManager.default.fileExists(atPath: temporary))
        try out.write("half")
        out.discard()
        #expect(!FileManager.default.fileExists(atPath: temporary))
        #expect(f.read("r.txt") == "old")
        #expect(f.listing() == ["r.txt"])
    }

    @Test("A FIFO with no reader is refused at once (73), never waited for")
    func fifoWithoutReader() throws {
        let f = try Folder()
        defer { f.remove() }
        #expect(mkfifo(f.at("p"), 0o600) == 0)
        let e = #expect(throws: AuditError.self) { try OutputFile(path: f.at("p")) }
        #expect(e?.code == .cannotCreateOutput)
        #expect(f.kind("p") == S_IFIFO)
    }

    @Test("A full character device (root only, made in a temporary folder): 74, the device stays")
    func fullDevice() throws {
        guard getuid() == 0 else { return }
        let f = try Folder()
        defer { f.remove() }
        #expect(mknod(f.at("full"), S_IFCHR | 0o666, dev_t((1 << 8) | 7)) == 0)
        let e = #expect(throws: AuditError.self) { try OutputFile.write("report", to: f.at("full")) }
        #expect(e?.code == .io)
        #expect(f.kind("full") == S_IFCHR)
        #expect(f.listing() == ["full"])
    }
}
