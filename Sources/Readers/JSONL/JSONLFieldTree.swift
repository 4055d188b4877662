#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The key paths of the fields a reader extracts, as a tree walked while a line is parsed:
/// a key that no node names is skipped (checked, never stored).
struct JSONLFieldTree: Sendable {
    struct Node: Sendable {
        /// The key's UTF-8 bytes.
        var key: [UInt8]
        /// The column this node's value goes to, or -1 when only its children are read.
        var column: Int
        /// Child node indexes (keys of the object this node's value must be).
        var children: [Int]
    }

    /// Index 0 is the root (the record object).
    private(set) var nodes: [Node] = [Node(key: [], column: -1, children: [])]

    /// - Parameter paths: Per column, its key path (at least one key each).
    init(paths: [[String]]) {
        for (column, path) in paths.enumerated() {
            var at = 0
            for key in path {
                let bytes = Array(key.utf8)
                if let next = nodes[at].children.first(where: { nodes[$0].key == bytes }) {
                    at = next
                } else {
                    nodes.append(Node(key: bytes, column: -1, children: []))
                    nodes[at].children.append(nodes.count - 1)
                    at = nodes.count - 1
                }
            }
            // Two fields with the same path: the first one's column (the schema has distinct names,
            // so a second field on one path only happens with explicit mappings; it reads the same value).
            if nodes[at].column < 0 { nodes[at].column = column } else { aliases.append((column, nodes[at].column)) }
        }
    }

    /// Columns that read the same path as an earlier column: (column, the earlier column).
    private(set) var aliases: [(Int, Int)] = []

    /// The child of `node` whose key is `key`, or -1.
    @inline(__always)
    func child(of node: Int, key: UnsafeRawBufferPointer) -> Int {
        for c in nodes[node].children {
            let k = nodes[c].key
            guard k.count == key.count else { continue }
            // Both non-empty here (an empty key matches no node: paths have no empty key).
            guard let b = key.baseAddress, !k.isEmpty else { continue }
            if k.withUnsafeBytes({ memcmp($0.baseAddress.unsafelyUnwrapped, b, key.count) }) == 0 { return c }
        }
        return -1
    }
}
