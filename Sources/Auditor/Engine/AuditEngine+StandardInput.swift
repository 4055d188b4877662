import Foundation

/// Standard input (`--source NAME=-`) can be read only once: the checks that keep an audit
/// from reading it twice (which would silently see an empty second input).
extension AuditEngine {
    /// The path that names standard input.
    package static let standardInput = "-"

    /// Refuses, before any data is read, a plan that would read standard input more than once:
    /// `-` for two sources (or a source and a `--previous` snapshot), two entities of the
    /// source read from `-`, a reference to it that needs its keys before its own pass (a
    /// reference to itself, or a cycle), or a previous snapshot from `-` read twice for rules
    /// on deleted records.
    /// - Throws: ``AuditError`` `.usage` (exit 64) saying why and what to do instead.
    func checkStandardInput(_ plan: AuditPlan) throws(AuditError) {
        let fix = "save the data to a file and give its path"
        var readers = [String]()
        for source in plan.sources where entries(source).contains(Self.standardInput) {
            readers.append("source '\(source.name)'")
        }
        for (name, path) in options.previousPaths.sorted(by: { $0.key < $1.key }) where path == Self.standardInput {
            readers.append("the previous snapshot of '\(name)'")
        }
        guard !readers.isEmpty else { return }
        if readers.count > 1 {
            throw AuditError(.usage, "standard input ('-') is given for \(readers.joined(separator: " and ")), but it can be "
                                 + "read only once; give '-' to one of them and \(fix) for the others")
        }
        let order = Self.auditOrder(plan)
        for (ei, entity) in plan.entities.enumerated() {
            let fromStdin = plan.source(named: entity.source).map { entries($0).contains(Self.standardInput) } ?? false
            if fromStdin, plan.entities.contains(where: { $0.name != entity.name && $0.source == entity.source }) {
                throw AuditError(.usage, "source '\(entity.source)' is read from standard input ('-'), which can be read only "
                                     + "once, but several entities read it; \(fix)")
            }
            let position = order.firstIndex(of: ei) ?? 0
            // A referencing entity audited before (or as) this one needs its keys in a pass of their own.
            let early = order[...position].contains { other in
                plan.entities[other].keyRules.contains { rule in
                    if case .reference(let target, _, _) = rule.kind { return target == ei }
                    return false
                }
            }
            if fromStdin, early {
                throw AuditError(.usage, "source '\(entity.source)' is read from standard input ('-'), which can be read only "
                                     + "once, but a reference to '\(entity.name)' (from itself or a cycle) needs its keys "
                                     + "before its records are checked, so it is read twice; \(fix)")
            }
            if options.previousPaths[entity.source] == Self.standardInput,
               entity.checks.contains(where: { $0.scope?.contains(.deleted) == true }) || entity.deleteRules.contains(where: { $0.rule == .deny }) {
                throw AuditError(.usage, "the previous snapshot of '\(entity.source)' is read from standard input ('-'), but "
                                     + "the rules on deleted records read it twice; \(fix)")
            }
        }
    }
}

/// Standard input claimed by the first reader that opens it: a second open is refused rather
/// than reading an exhausted stream as an empty input (a backstop for ``AuditEngine/checkStandardInput(_:)``).
final class StandardInputClaim: @unchecked Sendable {
    // @unchecked: `claimed` is read and written under `lock` only.
    private let lock = NSLock()
    private var claimed = false

    func reset() {
        lock.lock()
        claimed = false
        lock.unlock()
    }

    func claim(for source: String) throws(AuditError) {
        lock.lock()
        defer { lock.unlock() }
        if claimed {
            throw AuditError(.usage, "source '\(source)' would read standard input ('-') a second time, but it can be read "
                                 + "only once; save the data to a file and give its path")
        }
        claimed = true
    }
}
