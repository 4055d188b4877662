/// A source path that is a connection URL (`postgresql://user@host:5432/db`) rather than a
/// file: it is not resolved against the rules file's folder, not checked as a regular file,
/// not hashed for `--history`, and never shown with a password.
package enum SourceURL {
    /// The URL's scheme in lower case (`postgresql`), or nil when `path` is not a URL.
    ///
    /// A URL is `letter (letter | digit | + | - | .)* "://"`; a single-letter scheme is a
    /// Windows drive (`C://`), never a URL.
    package static func scheme(of path: String) -> String? {
        guard let end = path.firstRange(of: "://")?.lowerBound else { return nil }
        let scheme = path[..<end]
        guard scheme.count > 1, let first = scheme.unicodeScalars.first, first.isASCIILetter,
              scheme.unicodeScalars.allSatisfy({ $0.isASCIILetter || ("0" ... "9").contains($0) || "+-.".unicodeScalars.contains($0) })
        else { return nil }
        return scheme.lowercased()
    }

    /// True when `path` is a URL (see ``scheme(of:)``).
    package static func isURL(_ path: String) -> Bool { scheme(of: path) != nil }

    /// True when the URL carries a password: `scheme://user:secret@host` or a `password=`
    /// query parameter.
    package static func hasPassword(_ url: String) -> Bool {
        guard let schemeEnd = url.firstRange(of: "://") else { return false }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@"), authority[..<at].contains(":") { return true }
        if let question = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: question)...].split(separator: "&") {
                if pair.lowercased().hasPrefix("password=") { return true }
            }
        }
        return false
    }

    /// The URL as reports, logs and errors show it: a password in the user information
    /// becomes `***`, and so does the value of a `password=` parameter and of a Spark Connect
    /// `;token=` parameter. Other paths are
    /// returned unchanged.
    package static func redacted(_ path: String) -> String {
        guard isURL(path), let schemeEnd = path.firstRange(of: "://") else { return path }
        var result = String(path[..<schemeEnd.upperBound])
        let rest = path[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            result += authority[..<colon] + ":***" + authority[at...]
        } else {
            result += authority
        }
        var tail = rest[authorityEnd...]
        // Spark Connect's `sc://host:port/;token=…;user_id=…` parameters: the token is a secret.
        if tail.contains(";") {
            tail = Substring(tail.split(separator: ";", omittingEmptySubsequences: false).map { part -> String in
                part.lowercased().hasPrefix("token=") ? "token=***" : String(part)
            }.joined(separator: ";"))
        }
        guard let question = tail.firstIndex(of: "?") else { return result + tail }
        result += tail[...question]
        let pairs = tail[tail.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false)
        result += pairs.map { pair -> String in
            pair.lowercased().hasPrefix("password=") ? "password=***" : String(pair)
        }.joined(separator: "&")
        return result
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a" ... "z").contains(self) || ("A" ... "Z").contains(self) }
}
