import Auditor
import Foundation

/// Values the shell completion scripts ask the binary for (`auditor ---completion …`), for
/// options whose values depend on the disk: `--report FORMAT:PATH` and `--locale`.
package enum Completions {
    /// `--report`: the formats followed by `:` until a `:` is typed, then `FORMAT:` followed by
    /// the files and folders (with a trailing `/`) that start with what follows the colon.
    ///
    /// - Parameter prefix: The word being completed, as typed so far.
    /// - Returns: The candidates; the shell filters them by `prefix`.
    public static func reportRequests(_ prefix: String) -> [String] {
        guard let colon = prefix.firstIndex(of: ":") else {
            return StandardReporters.formats.map { $0 + ":" }
        }
        let format = String(prefix[...colon])
        return paths(startingWith: String(prefix[prefix.index(after: colon)...])).map { format + $0 }
    }

    /// Files and folders (folders with a trailing `/`) whose path starts with `typed`; hidden
    /// ones only when `typed`'s last component starts with a dot.
    public static func paths(startingWith typed: String) -> [String] {
        let slash = typed.lastIndex(of: "/")
        let folder = slash.map { String(typed[...$0]) } ?? ""
        let stem = slash.map { String(typed[typed.index(after: $0)...]) } ?? typed
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        return names.filter { $0.hasPrefix(stem) && (stem.hasPrefix(".") || !$0.hasPrefix(".")) }.sorted().map { name in
            var isDirectory: ObjCBool = false
            let path = folder + name
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            return exists && isDirectory.boolValue ? path + "/" : path
        }
    }

    /// `--locale`: `en` and every catalog `--locale` would find for the rules file on the
    /// command line (its `messages/` folder, then `$AUDITOR_MESSAGES_PATH`).
    ///
    /// - Parameter words: The command line typed so far; the first existing `.yml`/`.yaml`
    ///   file in it is taken as the rules file.
    public static func locales(words: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        let rules = words.first { w in
            (w.hasSuffix(".yml") || w.hasSuffix(".yaml")) && FileManager.default.fileExists(atPath: w)
        } ?? "rules.yml"
        var tags: Set<String> = ["en"]
        for folder in MessageLocale.searchFolders(rulesPath: rules, environment: environment) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasSuffix(".yml") {
                tags.insert(String(name.dropLast(4)))
            }
        }
        return tags.sorted()
    }
}
