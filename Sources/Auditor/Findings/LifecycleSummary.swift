/// How an entity's records changed since its previous snapshot (`--previous`).
public struct LifecycleSummary: Sendable, Equatable {
    /// The previous snapshot's path, nil when there was none (every record counts as inserted).
    public var previousPath: String?
    /// Records read from the previous snapshot.
    public var previousRecords: Int
    /// False when the previous snapshot could not be read to its end: records are then
    /// unclassified and no lifecycle rule was evaluated.
    public var complete: Bool
    public var inserted: Int
    public var updated: Int
    public var deleted: Int
    public var unchanged: Int
    /// Records that could not be classified (an incomplete previous snapshot).
    public var unclassified: Int
    /// For updated records: how many changed each attribute, in declaration order.
    public var changedAttributes: [AttributeChanges]
    /// The first inserted, updated and deleted records (at most the report's `maxSamples` each).
    public var samples: [RecordChange]

    public init(previousPath: String?, previousRecords: Int = 0, complete: Bool = true, inserted: Int = 0,
                updated: Int = 0, deleted: Int = 0, unchanged: Int = 0, unclassified: Int = 0,
                changedAttributes: [AttributeChanges] = [], samples: [RecordChange] = []) {
        self.previousPath = previousPath
        self.previousRecords = previousRecords
        self.complete = complete
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.unchanged = unchanged
        self.unclassified = unclassified
        self.changedAttributes = changedAttributes
        self.samples = samples
    }
}

public struct AttributeChanges: Sendable, Equatable {
    public var attribute: String
    public var records: Int

    public init(attribute: String, records: Int) {
        self.attribute = attribute
        self.records = records
    }
}

/// One record's change between two snapshots.
public struct RecordChange: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case inserted, updated, deleted
    }

    public var kind: Kind
    /// `id=7` (masked when a key attribute is sensitive).
    public var key: String?
    /// In the current snapshot; in the previous one for a deleted record.
    public var location: RecordLocation
    /// The attributes that changed (updated records).
    public var attributes: [String]

    public init(kind: Kind, key: String?, location: RecordLocation, attributes: [String] = []) {
        self.kind = kind
        self.key = key
        self.location = location
        self.attributes = attributes
    }
}
