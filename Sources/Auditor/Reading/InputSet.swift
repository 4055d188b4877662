#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of one source: its `path:` entries (or `--source` values), each a file, a glob
/// pattern or a folder, expanded into the files the audit reads, in a deterministic order.
///
/// - A **file** is taken as it is, even when it does not exist (its reader then reports it: 66).
/// - A **glob** (an entry with `*`, `?` or `[`) is expanded by `glob(3)`: `*` and `?` never
///   match `/` nor a leading `.`, `[...]` is a bracket expression; wildcards may appear in
///   folder names too (`exports/2026-11-*/people-*.csv`). `**` is not recursive (it is `*`).
///   The matches are sorted by path (byte order); only regular files are kept.
/// - A **folder** (a path that is a directory) gives its regular files whose extension names
///   the source's format (or, without `format:`, any format a reader knows), sorted by name,
///   non-recursively; hidden files (a leading `.`) are skipped.
///
/// A glob or folder that gives no file is a missing input (66) naming the pattern. The entries
/// keep their given order; a file given twice (by two entries) is read once, where it first appears.
package enum InputSet {
    /// True when the entry is a glob pattern rather than a path.
    /// A URL (`postgresql://...?host=...#table`) is never a pattern nor a folder.
    public static func isPattern(_ entry: String) -> Bool {
        !isURL(entry) && (entry.contains("*") || entry.contains("?") || entry.contains("["))
    }

    /// True for a database URL (`scheme://...`), which is taken as it is.
    public static func isURL(_ entry: String) -> Bool {
        entry.contains("://")
    }

    /// Expands entries into files.
    /// - Parameters:
    ///   - entries: Paths, globs and folders, in the order given.
    ///   - extensions: The extensions (lowercase, without the dot) a folder's files must have.
    /// - Returns: The files, in order, without repeats.
    /// - Throws: ``AuditError`` `.missingInput` (66) for a glob or folder that gives no file,
    ///   `.io` for a folder that cannot be listed.
    public static func expand(_ entries: [String], extensions: [String]) throws(AuditError) -> [String] {
        var files = [String]()
        var seen = Set<String>()
        for entry in entries {
            let found: [String]
            if isPattern(entry) {
                found = try glob(entry)
                if found.isEmpty {
                    throw AuditError(.missingInput, "the pattern '\(entry)' matches no file; check the pattern "
                                         + "(quote it in the shell so that auditor expands it) and the folder", location: entry)
                }
            } else if !isURL(entry), isDirectory(entry) {
                found = try folder(entry, extensions: extensions)
                if found.isEmpty {
                    let kinds = extensions.map { "." + $0 }.joined(separator: ", ")
                    throw AuditError(.missingInput, "the folder (directory) '\(entry)' has no file ending in \(kinds) "
                                         + "(hidden files and subfolders are not read)", location: entry)
                }
            } else {
                found = [entry]
            }
            for f in found where seen.insert(f).inserted { files.append(f) }
        }
        return files
    }

    /// The regular files a glob pattern matches, sorted by path.
    static func glob(_ pattern: String) throws(AuditError) -> [String] {
        var g = glob_t()
        defer { globfree(&g) }
        let status = Glibc.glob(pattern, 0, nil, &g)
        if status == GLOB_NOMATCH { return [] }
        guard status == 0 else {
            throw AuditError(.io, "cannot expand the pattern '\(pattern)' (glob error \(status))", location: pattern)
        }
        var matches = [String]()
        for i in 0 ..< Int(g.gl_pathc) {
            guard let p = g.gl_pathv[i] else { continue }
            let path = String(cString: p)
            if isRegular(path) { matches.append(path) }
        }
        // glob(3) sorts by the locale's collation; byte order is the same on every machine.
        return matches.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// A folder's regular, non-hidden files with one of the extensions, sorted by name.
    static func folder(_ path: String, extensions: [String]) throws(AuditError) -> [String] {
        guard let dir = opendir(path) else {
            throw AuditError(.io, "cannot list the folder", location: path, cause: String(cString: strerror(errno)))
        }
        defer { closedir(dir) }
        var names = [String]()
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix("."), let dot = name.lastIndex(of: ".") else { continue }
            guard extensions.contains(name[name.index(after: dot)...].lowercased()) else { continue }
            let full = path.hasSuffix("/") ? path + name : path + "/" + name
            if isRegular(full) { names.append(full) }
        }
        return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    static func isRegular(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
