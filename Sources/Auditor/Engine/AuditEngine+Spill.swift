import Foundation

/// Key sets beyond the memory limit (`--memory-limit`, issue 20).
///
/// Unique keys: an entity's pass holds its unique rules' keys in memory (``UniqueKeys``) until
/// they outgrow the limit. It then stops, the unique keys are read into hash partitions on
/// disk and resolved one partition at a time (``UniqueKeySpill``), and the pass runs again
/// with each rule's duplicates read from disk in input order.
///
/// Referenced keys: a parent's key sets that other entities reference (``KeyTable``) go to
/// hash partitions on disk once they outgrow the limit, and the parent's pass goes on
/// (``SpilledKeySet``). Before a child's pass, its keys of those references are read into the
/// same partitions and looked up one partition at a time (``ReferenceSpill``); the pass then
/// reads its dangling records from disk in input order.
///
/// Either way the report is the one the in-memory pass would have given. Only inputs that can
/// be read again the same way spill: files. Standard input and database queries keep their
/// key sets in memory, as before, and so does a key set that such an input references, or
/// that relationship counts or delete rules need by index.
extension AuditEngine {
    /// The bytes an entity's unique key sets may hold, and its referenced ones: `--memory-limit`,
    /// else half the RAM.
    var keySetBudget: Int {
        options.memoryLimit ?? Int(clamping: ProcessInfo.processInfo.physicalMemory / 2)
    }

    /// Audits an entity (see ``auditOnce(_:_:context:prebuilt:lifecycle:path:spilled:sentToSink:dangling:)``),
    /// spilling its unique key sets to disk and reading it again when they outgrow the limit.
    func audit(_ plan: AuditPlan, _ ei: Int, context: PassContext, prebuilt: [KeyTable]?,
               lifecycle mode: LifecycleContext.Mode? = nil, path: String? = nil) throws -> EntityPass {
        do {
            return try auditOnce(plan, ei, context: context, prebuilt: prebuilt, lifecycle: mode, path: path,
                                 dangling: try danglingReferences(plan, ei, context: context, path: path))
        } catch let over as KeySetsOverBudget {
            let spilled = try spillUniqueKeys(plan, ei, path: path)
            var pass = try auditOnce(plan, ei, context: context, prebuilt: prebuilt, lifecycle: mode, path: path,
                                     spilled: spilled, sentToSink: over.sentToSink,
                                     dangling: try danglingReferences(plan, ei, context: context, path: path))
            pass.summary.keysSpilled = over.bytes
            return pass
        }
    }

    /// The provided keys of entity `ei` that may spill (``SpilledKeySet``): those whose every
    /// referencing entity can be read again (another file, not the entity itself), and that
    /// neither relationship counts nor delete rules need by index.
    func spillableProvidedKeys(_ plan: AuditPlan, _ ei: Int) -> Set<Int> {
        let parent = plan.entities[ei]
        var result = Set<Int>()
        for pk in parent.providedKeys.indices where !parent.cardinality.contains(where: { $0.providedKey == pk }) {
            var referenced = false
            var spillable = true
            for (ci, child) in plan.entities.enumerated() {
                for (kr, rule) in child.keyRules.enumerated() {
                    guard case .reference(let target, let p, _) = rule.kind, target == ei, p == pk else { continue }
                    referenced = true
                    if ci == ei || child.childDeleteChecks[kr] != nil || !canReadAgain(plan, ci) { spillable = false }
                }
            }
            if referenced && spillable { result.insert(pk) }
        }
        return result
    }

    /// Whether an entity's input, unopened, is files that a second pass reads the same way.
    private func canReadAgain(_ plan: AuditPlan, _ ei: Int) -> Bool {
        guard let source = plan.source(named: plan.entities[ei].source) else { return false }
        let given = entries(source)
        guard !given.contains(where: { $0 == Self.standardInput || SourceURL.isURL($0) }) else { return false }
        guard let paths = try? InputSet.expand(given, extensions: extensions(source)), !paths.isEmpty else { return false }
        return paths.allSatisfy(InputSet.isRegular)
    }

    /// Reads the entity's keys of references to spilled key sets into hash partitions on disk
    /// and looks them up there: per such reference rule, its dangling records.
    private func danglingReferences(_ plan: AuditPlan, _ ei: Int, context: PassContext,
                                    path: String?) throws -> [Int: DuplicateCursor] {
        var parents = [Int: SpilledKeySet]()
        for (k, rule) in plan.entities[ei].keyRules.enumerated() {
            if case .reference(let target, let pk, _) = rule.kind, let set = context.tables[target]?[pk].spilled { parents[k] = set }
        }
        guard !parents.isEmpty, path == nil else { return [:] }
        let opened: OpenedInput
        let bound: BoundEntity
        do {
            opened = try open(plan, ei)
            bound = try keysBinding(plan, ei, opened)
        } catch {
            return [:]      // the pass itself opens the input again and reports why it cannot
        }
        let spill = try ReferenceSpill(parents: parents)
        var spillError: (any Error)?
        // A reader's error ends this pass where it will end the audit's own.
        _ = keysPass(opened.reader, bound, uniqueKeysToo: false, tables: context.tables) { ev in
            do { try spill.add(ev) } catch {
                spillError = error
                throw error
            }
        }
        if let spillError { throw spillError }
        return try spill.resolve()
    }

    /// Whether the pass may stop and read its input again: one or more regular files.
    static func canReadTwice(_ opened: OpenedInput) -> Bool {
        if let files = opened.files { return files.paths.allSatisfy(InputSet.isRegular) }
        return opened.path != standardInput && InputSet.isRegular(opened.path)
    }

    /// Reads the entity's unique keys into hash partitions on disk and resolves them.
    private func spillUniqueKeys(_ plan: AuditPlan, _ ei: Int, path: String?) throws -> [Int: DuplicateCursor] {
        let entity = plan.entities[ei]
        let opened = try open(plan, ei, path: path)
        let bound = try keysBinding(plan, ei, opened)
        let spill = try UniqueKeySpill(keyRules: entity.keyRules.indices.filter { k in
            if case .unique = entity.keyRules[k].kind { return true }
            return false
        })
        var spillError: (any Error)?
        // A reader's error ends this pass where it will end the audit's own: the keys before it
        // are the ones that pass sees.
        _ = keysPass(opened.reader, bound, uniqueKeysToo: true) { ev in
            do { try spill.add(ev) } catch {
                spillError = error
                throw error
            }
        }
        if let spillError { throw spillError }
        return try spill.resolve()
    }
}
