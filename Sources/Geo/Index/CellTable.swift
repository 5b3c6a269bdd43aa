/// The grid's cells: cell number → the circles registered there, in an open-addressing hash
/// table with a multiplicative hash — a lookup per query is the index's hottest operation, and
/// the standard `Dictionary`'s seeded SipHash costs more than the rest of a small query.
///
/// Cells are never removed, only emptied (a grid's set of used cells changes little).
struct CellTable: Sendable {
    private var keys: [Int]
    private var values: [[CellEntry]]
    private var shift: Int
    /// Cells with a key (empty or not).
    private(set) var count = 0

    private static let empty = -1

    init() {
        keys = Array(repeating: Self.empty, count: 16)
        values = Array(repeating: [], count: 16)
        shift = 64 - 4
    }

    @inline(__always)
    private func home(_ key: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(key)) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    /// The slot of `key`, or where it would go.
    @inline(__always)
    private func find(_ key: Int) -> (index: Int, found: Bool) {
        let mask = keys.count - 1
        var index = home(key)
        while true {
            let stored = keys[index]
            if stored == key { return (index, true) }
            if stored == Self.empty { return (index, false) }
            index = (index + 1) & mask
        }
    }

    /// The circles of cell `key`; empty when none.
    @inline(__always)
    func entries(_ key: Int) -> [CellEntry]? {
        let (index, found) = find(key)
        return found ? values[index] : nil
    }

    /// Every non-empty cell.
    func forEach(_ body: (Int, [CellEntry]) -> Void) {
        for (index, key) in keys.enumerated() where key != Self.empty && !values[index].isEmpty {
            body(key, values[index])
        }
    }

    mutating func append(_ entry: CellEntry, to key: Int) {
        var (index, found) = find(key)
        if !found {
            if (count + 1) * 2 > keys.count {
                grow()
                index = find(key).index
            }
            keys[index] = key
            count += 1
        }
        values[index].append(entry)
    }

    /// Removes the circle in `slot` from cell `key`.
    mutating func remove(slot: Int32, from key: Int) {
        let (index, found) = find(key)
        guard found, let position = values[index].firstIndex(where: { $0.slot == slot }) else { return }
        values[index].swapAt(position, values[index].count - 1)
        values[index].removeLast()
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        keys = Array(repeating: Self.empty, count: oldKeys.count * 2)
        values = Array(repeating: [], count: oldKeys.count * 2)
        shift -= 1
        for (index, key) in oldKeys.enumerated() where key != Self.empty {
            let slot = find(key).index
            keys[slot] = key
            values[slot] = oldValues[index]
        }
    }
}
