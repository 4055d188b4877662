import Foundation

/// Key sets beyond the memory limit (`--memory-limit`, issue 20): an entity's pass holds its
/// unique rules' keys in memory (``UniqueKeys``) until they outgrow the limit. It then stops,
/// the unique keys are read into hash partitions on disk and resolved one partition at a time
/// (``UniqueKeySpill``), and the pass runs again with each rule's duplicates read from disk in
/// input order. The report is the one the in-memory pass would have given.
///
/// Only inputs that can be read again the same way spill: files. Standard input and database
/// queries keep their key sets in memory, as before. Referenced key sets (``KeyTable``) are
/// not spilled.
extension AuditEngine {
    /// The bytes an entity's unique key sets may hold: `--memory-limit`, else half the RAM.
    var keySetBudget: Int {
        options.memoryLimit ?? Int(clamping: ProcessInfo.processInfo.physicalMemory / 2)
    }

    /// Audits an entity (see ``auditOnce(_:_:context:prebuilt:lifecycle:path:spilled:sentToSink:)``),
    /// spilling its unique key sets to disk and reading it again when they outgrow the limit.
    func audit(_ plan: AuditPlan, _ ei: Int, context: PassContext, prebuilt: [KeyTable]?,
               lifecycle mode: LifecycleContext.Mode? = nil, path: String? = nil) throws -> EntityPass {
        do {
            return try auditOnce(plan, ei, context: context, prebuilt: prebuilt, lifecycle: mode, path: path)
        } catch let over as KeySetsOverBudget {
            let spilled = try spillUniqueKeys(plan, ei, path: path)
            var pass = try auditOnce(plan, ei, context: context, prebuilt: prebuilt, lifecycle: mode, path: path,
                                     spilled: spilled, sentToSink: over.sentToSink)
            pass.summary.keysSpilled = over.bytes
            return pass
        }
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
