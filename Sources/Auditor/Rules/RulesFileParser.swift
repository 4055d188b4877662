import Foundation

/// Reads a rules file (YAML, version 1) into a ``RulesSpec``, collecting every structural
/// problem as a located ``Diagnostic`` (all at once, not stop-at-first).
public struct RulesFileParser {
    /// Format names whose option blocks a source may carry (`csv`, `xml`, `sqlite`).
    public var formats: [String]
    /// The language a `message:` map is read for (`--locale`; see `RulesFileParser+Messages.swift`).
    public var locale: String
    /// The variables that `${VAR}` and `${VAR:-default}` in string values read
    /// (``ConfigNode/substitutingEnvironment(_:into:)``): the process's, unless set.
    public var environment: [String: String]

    public init(formats: [String], locale: String = "en",
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.formats = formats
        self.locale = locale
        self.environment = environment
    }

    static let topKeys = ["version", "description", "sources", "entities", "history"]
    static let sourceKeys = ["path", "format", "description", "pushdown"]
    static let entityKeys = ["source", "key", "idPrefix", "severity", "description", "attributes", "unique",
                             "relationships", "rowCount", "columns", "freshness", "rules", "validators"] + thresholdKeys
    static let thresholdKeys = ["maxFailures", "maxFailureRate"]
    static let attributeKeys = ["type", "sensitive", "message", "severity", "description", "hint", "split", "keySeparator", "on"]
        + thresholdKeys
        + ConstraintKind.allCases.map(\.rawValue).filter { $0 != "type" }
    static let constraintOptionKeys = ["value", "id", "message", "severity", "code", "on", "description", "hint"] + thresholdKeys

    /// Loads and parses a rules file from disk.
    /// - Throws: ``AuditError`` `.missingInput` when unreadable, `.invalidRules` with diagnostics.
    public func load(path: String) throws -> RulesSpec {
        let data: Data
        try InputFile.requireRegular(path, what: "the rules file")
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let why = !exists ? "no such file" : isDirectory.boolValue ? "it is a directory" : "permission denied or unreadable"
            throw AuditError(.missingInput, "cannot read the rules file: \(why)", location: path)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw AuditError(.invalidRules, "the rules file is not valid UTF-8", location: path)
        }
        return try parse(text, path: path)
    }

    /// Parses rules-file text.
    /// - Parameters:
    ///   - text: The YAML.
    ///   - path: The file's path: shown in diagnostics, and relative source paths resolve
    ///     against its folder.
    /// - Throws: ``AuditError`` `.invalidRules` with every diagnostic found.
    public func parse(_ text: String, path: String) throws -> RulesSpec {
        var d = [Diagnostic]()
        var root: ConfigNode
        do {
            root = try YAMLLoader.load(text, file: path)
        } catch {
            throw AuditError.invalidRules([error])
        }
        root = root.substitutingEnvironment(environment, into: &d)
        guard case .mapping = root.kind, let top = try? root.mapping("the rules file") else {
            throw AuditError.invalidRules([root.error("the rules file must be a mapping with 'version', 'sources' and 'entities'")])
        }
        d += top.unknownKeys(allowed: Self.topKeys, context: "the rules file")
        var version = 1
        if let v = top["version"] {
            do {
                version = try v.int("version")
                if version != 1 { d.append(v.error("unsupported rules file version \(version); this auditor reads version 1")) }
            } catch { d.append(error) }
        } else {
            d.append(root.error("missing 'version: 1' at the top of the rules file"))
        }
        let base = (path as NSString).deletingLastPathComponent
        var sources = [SourceSpec]()
        if let node = top["sources"] {
            do {
                for (k, v) in try node.mapping("sources").pairs {
                    if let s = parseSource(key: k, node: v, base: base, into: &d) { sources.append(s) }
                }
            } catch { d.append(error) }
        } else {
            d.append(root.error("missing 'sources': name at least one input file"))
        }
        var entities = [EntitySpec]()
        if let node = top["entities"] {
            do {
                for (k, v) in try node.mapping("entities").pairs {
                    if let e = parseEntity(key: k, node: v, sources: sources, into: &d) { entities.append(e) }
                }
            } catch { d.append(error) }
        } else {
            d.append(root.error("missing 'entities': declare at least one entity with its attributes"))
        }
        let history = parseHistory(top["history"], base: base, into: &d)
        if !d.isEmpty { throw AuditError.invalidRules(d) }
        var spec = RulesSpec(path: path, version: version, sources: sources, entities: entities)
        spec.history = history
        spec.historyMark = top["history"]?.mark
        return spec
    }

    private func parseSource(key: ConfigNode, node: ConfigNode, base: String, into d: inout [Diagnostic]) -> SourceSpec? {
        guard let name = key.scalar, !name.isEmpty else {
            d.append(key.error("a source name must be a non-empty string"))
            return nil
        }
        let map: ConfigMapping
        do { map = try node.mapping("source '\(name)'") } catch { d.append(error); return nil }
        d += map.unknownKeys(allowed: Self.sourceKeys + formats, context: "source '\(name)'")
        guard let pathNode = map["path"] else {
            d.append(key.error("source '\(name)' has no 'path'"))
            return nil
        }
        // A file, a glob or a folder, or a list of them (``InputSet``).
        var paths = [String]()
        for node in pathNode.sequenceOrSingle() {
            do { paths.append(try node.string("path")) } catch { d.append(error) }
        }
        guard let path = paths.first else {
            if case .sequence = pathNode.kind { d.append(pathNode.error("source '\(name)' has an empty 'path' list; give at least one file, glob or folder")) }
            return nil
        }
        var format: String?
        if let f = map["format"] {
            do {
                let v = try f.string("format")
                if formats.contains(v) {
                    format = v
                } else {
                    var m = "unknown format '\(v)'"
                    if let s = Suggest.closest(to: v, in: formats) { m += "; did you mean '\(s)'?" } else { m += " (known: \(formats.joined(separator: ", ")))" }
                    d.append(f.error(m))
                }
            } catch { d.append(error) }
        }
        var options = [String: ConfigNode]()
        for f in formats { if let o = map[f] { options[f] = o } }
        // A connection URL (postgresql://…) is not a file: no folder to resolve against, and
        // never a password in the rules file (PGPASSWORD, ~/.pgpass or PGSERVICE instead).
        for p in paths where SourceURL.isURL(p) && SourceURL.hasPassword(p) {
            d.append(pathNode.error("the connection URL of source '\(name)' holds a password; a rules file never does: "
                                        + "set PGPASSWORD, use ~/.pgpass or a service in ~/.pg_service.conf (PGSERVICE)"))
        }
        let resolved = paths.map {
            $0.hasPrefix("/") || base.isEmpty || SourceURL.isURL($0) ? $0 : Self.normalize((base as NSString).appendingPathComponent($0))
        }
        var spec = SourceSpec(name: name, mark: key.mark, path: path, resolvedPath: resolved[0], pathMark: pathNode.mark,
                              format: format, formatMark: map["format"]?.mark, options: options)
        spec.resolvedPaths = resolved
        if let p = map["pushdown"] {
            do { spec.pushdown = try p.bool("pushdown") } catch { d.append(error) }
        }
        return spec
    }

    /// `history: audits.sqlite`: the history database, relative to the rules file's folder.
    private func parseHistory(_ node: ConfigNode?, base: String, into d: inout [Diagnostic]) -> String? {
        guard let node else { return nil }
        let example = "for example history: audits.sqlite (relative to the rules file)"
        guard case .scalar(let path, let quoted) = node.kind else {
            d.append(node.error("history must be the path of the history database, not \(node.kindName); \(example)"))
            return nil
        }
        if node.isNull {
            d.append(node.error("history needs a file name; \(example)"))
            return nil
        }
        if !quoted, (try? node.bool("history")) != nil {
            d.append(node.error("history must be the path of the history database, not '\(path)'; \(example)"))
            return nil
        }
        return path.hasPrefix("/") || base.isEmpty ? path : Self.normalize((base as NSString).appendingPathComponent(path))
    }

    /// Collapses `.` and `dir/..` components: `rules/../data/x.csv` → `data/x.csv`.
    static func normalize(_ path: String) -> String {
        var parts = [Substring]()
        for c in path.split(separator: "/", omittingEmptySubsequences: false) {
            if c == "." { continue }
            if c == "..", let last = parts.last, last != "..", !last.isEmpty {
                parts.removeLast()
                continue
            }
            parts.append(c)
        }
        let joined = parts.joined(separator: "/")
        return joined.isEmpty ? "." : joined
    }

    private func parseEntity(key: ConfigNode, node: ConfigNode, sources: [SourceSpec],
                             into d: inout [Diagnostic]) -> EntitySpec? {
        guard let name = key.scalar, !name.isEmpty else {
            d.append(key.error("an entity name must be a non-empty string"))
            return nil
        }
        let map: ConfigMapping
        do { map = try node.mapping("entity '\(name)'") } catch { d.append(error); return nil }
        d += map.unknownKeys(allowed: Self.entityKeys, context: "entity '\(name)'")
        var source = ""
        var sourceMark = key.mark
        if let s = map["source"] {
            sourceMark = s.mark
            do {
                source = try s.string("source")
                if !sources.contains(where: { $0.name == source }) {
                    var m = "entity '\(name)' names an unknown source '\(source)'"
                    if let c = Suggest.closest(to: source, in: sources.map(\.name)) { m += "; did you mean '\(c)'?" }
                    d.append(s.error(m))
                }
            } catch { d.append(error) }
        } else if sources.count == 1 {
            source = sources[0].name
        } else {
            d.append(key.error("entity '\(name)' has no 'source' (there are \(sources.count) sources)"))
        }
        var keyAttributes = [String]()
        if let k = map["key"] {
            for item in k.sequenceOrSingle() {
                do { keyAttributes.append(try item.string("key")) } catch { d.append(error) }
            }
        }
        var idPrefix = name
        if let p = map["idPrefix"] {
            do { idPrefix = try p.string("idPrefix") } catch { d.append(error) }
        }
        let severity = parseSeverity(map["severity"], into: &d) ?? .error
        let threshold = parseThreshold(map, into: &d)
        var attributes = [AttributeSpec]()
        if let a = map["attributes"] {
            do {
                for (k, v) in try a.mapping("attributes").pairs {
                    if let attr = parseAttribute(key: k, node: v, into: &d) { attributes.append(attr) }
                }
            } catch { d.append(error) }
        } else {
            d.append(key.error("entity '\(name)' has no 'attributes'"))
        }
        for k in keyAttributes where !attributes.contains(where: { $0.name == k }) {
            var m = "key attribute '\(k)' is not an attribute of '\(name)'"
            if let c = Suggest.closest(to: k, in: attributes.map(\.name)) { m += "; did you mean '\(c)'?" }
            d.append((map["key"] ?? key).error(m))
        }
        var entity = EntitySpec(name: name, mark: key.mark, source: source, sourceMark: sourceMark, key: keyAttributes,
                                keyMark: map["key"]?.mark, idPrefix: idPrefix, severity: severity, threshold: threshold,
                                attributes: attributes)
        parseRelations(map, into: &entity, diagnostics: &d)
        if let v = map["validators"] { entity.validators = parseValidators(v, entity: name, into: &d) }
        return entity
    }

    /// `validators: [id, ...]`: the Swift validators the entity needs, by id.
    private func parseValidators(_ node: ConfigNode, entity: String, into d: inout [Diagnostic]) -> [DeclaredValidator] {
        var out = [DeclaredValidator]()
        for item in node.sequenceOrSingle() {
            guard let id = item.scalar, case .scalar = item.kind, !id.isEmpty else {
                d.append(item.error("'validators' of entity '\(entity)' lists validator ids (strings), e.g. validators: [person.licence_age]"))
                continue
            }
            if id.contains("/") {
                d.append(item.error("'validators' names the ids of Swift validators built into the auditor that runs the file "
                                    + "(e.g. validators: [person.licence_age]), not a package to load: '\(id)' looks like a path. "
                                    + "Build an auditor that carries the package's validators, as docs/validators.md shows "
                                    + "(A team's auditor), and name their ids here"))
            } else if out.contains(where: { $0.id == id }) {
                d.append(item.error("validator '\(id)' is listed twice in 'validators' of entity '\(entity)'"))
            } else {
                out.append(DeclaredValidator(id: id, mark: item.mark))
            }
        }
        return out
    }

    private func parseAttribute(key: ConfigNode, node: ConfigNode, into d: inout [Diagnostic]) -> AttributeSpec? {
        guard let name = key.scalar, !name.isEmpty else {
            d.append(key.error("an attribute name must be a non-empty string"))
            return nil
        }
        // `email: string` is shorthand for `email: { type: string }`.
        if case .scalar = node.kind {
            guard let t = ValueType(rawValue: node.scalar ?? "") else {
                d.append(node.error(typeMessage(node.scalar ?? "")))
                return nil
            }
            // Exactly like the long form: a non-string type is a `type` check, located at the type name.
            let typeCheck = t == .string ? [] : [ConstraintSpec(kind: .type, mark: node.mark, value: node)]
            return AttributeSpec(name: name, mark: key.mark, type: t, sensitive: false, split: nil, message: nil,
                                 severity: nil, threshold: Threshold(), constraints: typeCheck, on: nil)
        }
        let map: ConfigMapping
        do { map = try node.mapping("attribute '\(name)'") } catch { d.append(error); return nil }
        d += map.unknownKeys(allowed: Self.attributeKeys, context: "attribute '\(name)'")
        var type = ValueType.string
        var constraints = [ConstraintSpec]()
        if let t = map["type"], let c = parseConstraint(.type, key: map.keyNode("type") ?? t, node: t, into: &d) {
            if let s = c.value.scalar, let vt = ValueType(rawValue: s) {
                type = vt
                if vt != .string || c.id != nil { constraints.append(c) }
            } else {
                d.append(c.value.error(typeMessage(c.value.scalar ?? c.value.kindName)))
            }
        }
        var sensitive = false
        if let s = map["sensitive"] {
            do { sensitive = try s.bool("sensitive") } catch { d.append(error) }
        }
        var split: String?
        if let s = map["split"] {
            do {
                split = try s.string("split")
                if split?.isEmpty == true { d.append(s.error("split needs a separator, for example split: \";\"")) }
            } catch { d.append(error) }
        }
        var keySeparator: String?
        if let s = map["keySeparator"] {
            do {
                keySeparator = try s.string("keySeparator")
                if keySeparator?.isEmpty == true {
                    d.append(s.error("keySeparator needs a separator, for example keySeparator: \"=\""))
                } else if split == nil {
                    d.append(s.error("keySeparator splits the items of split: into keys and values; add split: \";\" (the separator of the entries)"))
                } else if keySeparator == split {
                    d.append(s.error("keySeparator and split must differ; both are '\(split ?? "")'"))
                }
            } catch { d.append(error) }
        }
        var message: String?
        if let m = map["message"] {
            do { message = try localized(m, "message")?.text } catch { d.append(error) }
        }
        let severity = parseSeverity(map["severity"], into: &d)
        for (k, v) in map.pairs {
            guard let kname = k.scalar, kname != "type", let kind = ConstraintKind(rawValue: kname) else { continue }
            guard let c = parseConstraint(kind, key: k, node: v, into: &d) else { continue }
            // `required: false`, `unique: false`, `integral: false`, `immutable: false` declare no rule.
            if kind == .required || kind == .unique || kind == .integral || kind == .immutable {
                do { if try !c.value.bool(kname) { continue } } catch { d.append(error); continue }
            }
            // `allowsNull: true`, `allowsMissing: true` (the defaults) declare no rule either.
            if kind == .allowsNull || kind == .allowsMissing {
                do { if try c.value.bool(kname) { continue } } catch { d.append(error); continue }
            }
            constraints.append(c)
        }
        // `required` (and `allowsNull`, `allowsMissing`) first, then `type`, then the rest in file order.
        constraints.sort { rank($0.kind) < rank($1.kind) }
        var spec = AttributeSpec(name: name, mark: key.mark, type: type, sensitive: sensitive, split: split, message: message,
                                 severity: severity, threshold: parseThreshold(map, into: &d), constraints: constraints,
                                 on: map["on"].flatMap { parseScope($0, into: &d) })
        spec.keySeparator = keySeparator
        for (k, path) in [("description", \AttributeSpec.description), ("hint", \AttributeSpec.hint)] {
            guard let n = map[k] else { continue }
            do { spec[keyPath: path] = try localized(n, k)?.text } catch { d.append(error) }
        }
        return spec
    }

    private func rank(_ k: ConstraintKind) -> Int {
        k.isPresenceKind ? 0 : k == .type ? 1 : 2
    }

    private func typeMessage(_ got: String) -> String {
        let names = ValueType.allCases.map(\.rawValue)
        var m = "unknown type '\(got)'"
        if let s = Suggest.closest(to: got, in: names) { m += "; did you mean '\(s)'?" } else { m += " (expected one of: \(names.joined(separator: ", ")))" }
        return m
    }

    private func parseConstraint(_ kind: ConstraintKind, key: ConfigNode, node: ConfigNode,
                                 into d: inout [Diagnostic]) -> ConstraintSpec? {
        guard case .mapping = node.kind, let map = try? node.mapping(kind.rawValue), map["value"] != nil else {
            return ConstraintSpec(kind: kind, mark: key.mark, value: node)
        }
        d += map.unknownKeys(allowed: Self.constraintOptionKeys, context: "'\(kind.rawValue)'")
        var c = ConstraintSpec(kind: kind, mark: key.mark, value: map["value"] ?? node)
        let o = parseRuleOptions(map, into: &d)
        c.id = o.id
        c.message = o.message
        c.messageMark = o.messageMark
        c.severity = o.severity
        c.code = o.code
        c.threshold = o.threshold
        c.on = o.on
        c.description = o.description
        c.hint = o.hint
        return c
    }

    /// `on: insert` or `on: [insert, update]`.
    func parseScope(_ node: ConfigNode, into d: inout [Diagnostic]) -> LifecycleScope? {
        var scope = LifecycleScope()
        let words = LifecycleScope.words.map(\.0)
        for item in node.sequenceOrSingle() {
            guard let w = item.scalar, let s = LifecycleScope.words.first(where: { $0.0 == w })?.1 else {
                var m = "on: takes insert, update or delete; got \(item.describe)"
                if let w = item.scalar, let c = Suggest.closest(to: w, in: words) { m += "; did you mean '\(c)'?" }
                d.append(item.error(m))
                return nil
            }
            scope.insert(s)
        }
        if scope.isEmpty { d.append(node.error("on: needs at least one of insert, update, delete")) }
        return scope.isEmpty ? nil : scope
    }

    /// `maxFailures: 10`, `maxFailureRate: 0.01` (the `mostly` of other tools).
    func parseThreshold(_ map: ConfigMapping, into d: inout [Diagnostic]) -> Threshold {
        var t = Threshold()
        if let n = map["maxFailures"] {
            do {
                let v = try n.int("maxFailures")
                if v < 0 { d.append(n.error("maxFailures must not be negative; got \(v)")) } else { t.maxFailures = v }
            } catch { d.append(error) }
        }
        if let n = map["maxFailureRate"] {
            do {
                let v = try n.double("maxFailureRate")
                if v < 0 || v > 1 {
                    d.append(n.error("maxFailureRate is a fraction between 0 and 1 (0.01 = 1%); got \(n.describe)"))
                } else {
                    t.maxFailureRate = v
                }
            } catch { d.append(error) }
        }
        return t
    }

    func parseSeverity(_ node: ConfigNode?, into d: inout [Diagnostic]) -> Severity? {
        guard let node else { return nil }
        if let s = node.scalar, let v = Severity(rawValue: s) { return v }
        d.append(node.error("severity must be error, warning or info; got \(node.describe)"))
        return nil
    }
}
