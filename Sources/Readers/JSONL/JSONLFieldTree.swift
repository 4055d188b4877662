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
                    keyLengths.append(bytes.count)
                    keyWords.append(bytes.withUnsafeBytes { $0.baseAddress.map { Self.word($0, bytes.count) } ?? 0 })
                    nodes[at].children.append(nodes.count - 1)
                    at = nodes.count - 1
                }
            }
            // Two fields with the same path: the first one's column (the schema has distinct names,
            // so a second field on one path only happens with explicit mappings; it reads the same value).
            if nodes[at].column < 0 { nodes[at].column = column } else { aliases.append((column, nodes[at].column)) }
        }
        nextSibling = Array(repeating: -1, count: nodes.count)
        for node in nodes {
            for (k, c) in node.children.enumerated() { nextSibling[c] = node.children[(k + 1) % node.children.count] }
        }
    }

    /// Columns that read the same path as an earlier column: (column, the earlier column).
    private(set) var aliases: [(Int, Int)] = []

    /// Per node: its key's length and first eight bytes (``word(_:_:)``), checked before the
    /// bytes are compared.
    private(set) var keyLengths: [Int] = [0]
    private(set) var keyWords: [UInt64] = [0]

    /// The first `min(count, 8)` bytes at `base` as one little-endian word, zero-padded.
    @inline(__always)
    static func word(_ base: UnsafeRawPointer, _ count: Int) -> UInt64 {
        if count >= 8 { return UInt64(littleEndian: base.loadUnaligned(as: UInt64.self)) }
        var w: UInt64 = 0
        for k in 0 ..< count { w |= UInt64(base.load(fromByteOffset: k, as: UInt8.self)) << (8 * UInt64(k)) }
        return w
    }

    /// Per node: the next child of its parent, in path order, or the first child (a cycle).
    private(set) var nextSibling: [Int] = [-1]

    /// The child tried after `child` of `node` (``nextSibling``).
    @inline(__always)
    func following(_ child: Int, of node: Int) -> Int {
        nextSibling[child]
    }

    /// Whether node `c` (a child of `node`) has the key `key`.
    @inline(__always)
    func isChild(_ c: Int, of node: Int, named key: UnsafeRawBufferPointer) -> Bool {
        let n = key.count
        guard n > 0, let base = key.baseAddress, keyLengths[c] == n, keyWords[c] == Self.word(base, n) else { return false }
        return n <= 8 || nodes[c].key.withUnsafeBytes({ memcmp($0.baseAddress.unsafelyUnwrapped, base, n) }) == 0
    }

    /// The child of `node` whose key is `key`, or -1.
    /// - Complexity: O(children); a byte comparison only for a candidate of the same length
    ///   and first eight bytes.
    @inline(__always)
    func child(of node: Int, key: UnsafeRawBufferPointer) -> Int {
        let n = key.count
        guard n > 0, let base = key.baseAddress else { return -1 }  // no path has an empty key
        let w = Self.word(base, n)
        for c in nodes[node].children where keyLengths[c] == n && keyWords[c] == w {
            if n <= 8 { return c }
            if nodes[c].key.withUnsafeBytes({ memcmp($0.baseAddress.unsafelyUnwrapped, base, n) }) == 0 { return c }
        }
        return -1
    }
}
