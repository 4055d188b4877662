/// `${VAR}` and `${VAR:-default}` in the string values of a rules file (paths, connection
/// strings), taken from the environment as a shell would: `:-` uses the default when the
/// variable is unset or empty. `$${` writes a literal `${`. Mapping keys are never substituted.
extension ConfigNode {
    /// The node with every `${…}` in its scalar values replaced.
    /// - Parameters:
    ///   - environment: The variables (the process's environment, for a rules file).
    ///   - diagnostics: A variable that is unset and has no default, or a `${` that does not
    ///     read `${NAME}` or `${NAME:-default}`, is appended here, located at the `${`.
    /// - Returns: The substituted node; a value with a mistake is left as written.
    public func substitutingEnvironment(_ environment: [String: String], into diagnostics: inout [Diagnostic]) -> ConfigNode {
        var node = self
        switch kind {
        case .scalar(let text, let quoted):
            guard text.contains("$") else { return self }
            let before = diagnostics.count
            let replaced = Self.substitute(text, environment) { offset, message in
                diagnostics.append(Diagnostic(mark: ConfigMark(file: mark.file, line: mark.line, column: column(ofOffset: offset)),
                                              message: message))
            }
            if diagnostics.count == before { node.kind = .scalar(replaced, quoted: quoted) }
        case .sequence(let items):
            node.kind = .sequence(items.map { $0.substitutingEnvironment(environment, into: &diagnostics) })
        case .mapping(let pairs):
            node.kind = .mapping(pairs.map { (key: $0.key, value: $0.value.substitutingEnvironment(environment, into: &diagnostics)) })
        }
        return node
    }

    /// `text` with its references replaced; `problem(offset, message)` for each mistake, with
    /// the offset (in characters) of its `${`.
    static func substitute(_ text: String, _ environment: [String: String],
                           problem: (Int, String) -> Void) -> String {
        let chars = Array(text)
        var out = ""
        var i = 0
        while i < chars.count {
            if chars[i] == "$", i + 2 < chars.count, chars[i + 1] == "$", chars[i + 2] == "{" {
                out += "${"                                   // $${ is a literal ${
                i += 3
                continue
            }
            guard chars[i] == "$", i + 1 < chars.count, chars[i + 1] == "{" else {
                out.append(chars[i])
                i += 1
                continue
            }
            let start = i
            guard let close = chars[(i + 2)...].firstIndex(of: "}") else {
                problem(start, "'${' opens a variable that is never closed; write ${NAME} or ${NAME:-default}, or $${ for a literal '${'")
                return text
            }
            let body = String(chars[(i + 2) ..< close])
            let name: Substring
            let fallback: String?
            if let r = body.range(of: ":-") {
                name = body[..<r.lowerBound]
                fallback = String(body[r.upperBound...])
            } else {
                name = Substring(body)
                fallback = nil
            }
            guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic),
                  name.unicodeScalars.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0" ... "9").contains($0))) })
            else {
                problem(start, "'${\(body)}' is not a variable reference; write ${NAME} or ${NAME:-default} (letters, digits and _), or $${ for a literal '${'")
                return text
            }
            if let value = environment[String(name)], !(fallback != nil && value.isEmpty) {
                out += value
            } else if let fallback {
                out += fallback
            } else {
                problem(start, "the environment variable \(name) is not set; set it, or give a default: ${\(name):-value}")
            }
            i = close + 1
        }
        return out
    }
}
