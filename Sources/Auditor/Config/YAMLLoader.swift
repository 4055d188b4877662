import Yams

/// Loads YAML text into ``ConfigNode`` trees that remember file:line:column.
public enum YAMLLoader {
    /// Parses one YAML document.
    /// - Parameters:
    ///   - text: The YAML source.
    ///   - file: The path shown in diagnostics.
    /// - Throws: ``Diagnostic`` for syntax errors, aliases and non-string keys.
    public static func load(_ text: String, file: String) throws(Diagnostic) -> ConfigNode {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw diagnostic(error, file: file)
        } catch {
            throw Diagnostic(mark: ConfigMark(file: file, line: 1, column: 1), message: "cannot parse YAML: \(error)")
        }
        guard let node else {
            throw Diagnostic(mark: ConfigMark(file: file, line: 1, column: 1), message: "the rules file is empty")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return try convert(node, file: file, lines: lines)
    }

    private static func convert(_ node: Node, file: String, lines: [String]) throws(Diagnostic) -> ConfigNode {
        var mark = ConfigMark(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
        switch node {
        case .scalar(let scalar):
            let style: ConfigNode.ScalarStyle
            switch scalar.style {
            case .singleQuoted: style = .singleQuoted
            case .doubleQuoted: style = .doubleQuoted
            case .literal: style = .literal
            case .folded: style = .folded
            default: style = .plain
            }
            if style == .literal || style == .folded {
                // The mark is the indicator; the text starts on the next non-blank line.
                var l = mark.line
                while l < lines.count, lines[l].allSatisfy({ $0 == " " || $0 == "\r" }) { l += 1 }
                if l < lines.count {
                    mark = ConfigMark(file: file, line: l + 1, column: lines[l].prefix { $0 == " " }.count + 1)
                }
            }
            var n = ConfigNode(.scalar(scalar.string, quoted: scalar.style != .plain), mark: mark)
            n.style = style
            n.sourceLine = mark.line - 1 < lines.count ? lines[mark.line - 1] : nil
            return n
        case .sequence(let sequence):
            var items = [ConfigNode]()
            for item in sequence { items.append(try convert(item, file: file, lines: lines)) }
            return ConfigNode(.sequence(items), mark: mark)
        case .mapping(let mapping):
            var pairs = [(key: ConfigNode, value: ConfigNode)]()
            for (k, v) in mapping {
                pairs.append((try convert(k, file: file, lines: lines), try convert(v, file: file, lines: lines)))
            }
            return ConfigNode(.mapping(pairs), mark: mark)
        case .alias:
            throw Diagnostic(mark: mark, message: "YAML aliases are not supported in rules files; repeat the value instead")
        }
    }

    private static func diagnostic(_ error: YamlError, file: String) -> Diagnostic {
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _):
            let where_ = context.map { " \($0.text)" } ?? ""
            return Diagnostic(mark: ConfigMark(file: file, line: mark.line, column: mark.column),
                              message: "invalid YAML: \(problem)\(where_)")
        case .composer(let context, let problem, let mark, _):
            let where_ = context.map { " \($0.text)" } ?? ""
            return Diagnostic(mark: ConfigMark(file: file, line: mark.line, column: mark.column),
                              message: "invalid YAML: \(problem)\(where_)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return Diagnostic(mark: ConfigMark(file: file, line: context.mark.line, column: context.mark.column),
                              message: "duplicate key '\(duplicates.joined(separator: "', '"))' in a mapping")
        default:
            return Diagnostic(mark: ConfigMark(file: file, line: 1, column: 1), message: "invalid YAML: \(error)")
        }
    }
}
