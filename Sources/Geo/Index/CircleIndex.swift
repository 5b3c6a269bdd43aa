import Foundation

/// A uniform latitude/longitude grid over circular fences, so a location update looks only at
/// the fences registered in the cells around it instead of all of them.
///
/// Each circle is registered in every cell its bounding box touches. The box is exact for a
/// spherical cap: ±ρ in latitude and ±asin(sin ρ / cos φ) in longitude (ρ the angular radius),
/// the whole band of longitudes when the cap reaches a pole, and it wraps at the antimeridian;
/// so a circle that contains a point is always registered in that point's cell. Circles whose
/// box covers more than `maximumCellsPerCircle` cells are kept in a short list that every
/// query checks, so a country-sized fence costs one comparison rather than millions of cells.
public struct CircleIndex<ID: Hashable & Sendable>: Sendable {
    /// The cell edge in degrees.
    public let cellSize: Double
    /// Circles spanning more cells than this are not gridded but always checked.
    public let maximumCellsPerCircle: Int

    private let rows: Int
    private let columns: Int
    private var cells: [Int: [ID]] = [:]
    private var circles: [ID: Circle] = [:]
    private var large: Set<ID> = []

    /// Creates an empty index with square cells of `cellSize` degrees (0.01° ≈ 1.1 km north–south).
    public init(cellSize: Double = 0.01, maximumCellsPerCircle: Int = 4096) {
        precondition(cellSize > 0 && cellSize <= 90, "cell size \(cellSize)° is not within (0, 90]")
        self.cellSize = cellSize
        self.maximumCellsPerCircle = maximumCellsPerCircle
        rows = Int((180 / cellSize).rounded(.up))
        columns = Int((360 / cellSize).rounded(.up))
    }

    /// How many circles the index holds.
    public var count: Int { circles.count }

    /// The circle stored under `id`.
    public func circle(for id: ID) -> Circle? { circles[id] }

    /// Adds `circle` under `id`, replacing any circle already stored under it.
    public mutating func insert(_ circle: Circle, id: ID) {
        remove(id)
        circles[id] = circle
        let box = Self.box(
            around: circle.center, radius: circle.radius, cellSize: cellSize, columns: columns, rows: rows)
        if box.cellCount > maximumCellsPerCircle {
            large.insert(id)
            return
        }
        box.forEachCell(columns: columns) { cells[$0, default: []].append(id) }
    }

    /// Removes the circle stored under `id` and returns it.
    @discardableResult
    public mutating func remove(_ id: ID) -> Circle? {
        guard let circle = circles.removeValue(forKey: id) else { return nil }
        if large.remove(id) != nil { return circle }
        let box = Self.box(
            around: circle.center, radius: circle.radius, cellSize: cellSize, columns: columns, rows: rows)
        box.forEachCell(columns: columns) { key in
            guard var ids = cells[key], let index = ids.firstIndex(of: id) else { return }
            ids.swapAt(index, ids.count - 1)
            ids.removeLast()
            cells[key] = ids.isEmpty ? nil : ids
        }
        return circle
    }

    /// Every circle that might come within `metres` of `point` — a superset of those that do,
    /// each once, in no particular order. With `metres` 0, the circles that might contain it.
    public func candidates(near point: Coordinate, within metres: Double = 0) -> [ID] {
        let box = Self.box(around: point, radius: max(metres, 0), cellSize: cellSize, columns: columns, rows: rows)
        if box.cellCount == 1 {
            return (cells[box.rowStart * columns + box.columnStart] ?? []) + large
        }
        var seen = large
        box.forEachCell(columns: columns) { key in
            if let ids = cells[key] { seen.formUnion(ids) }
        }
        return Array(seen)
    }

    /// The circles that contain `point`, exactly (the candidates, filtered by distance).
    public func containing(_ point: Coordinate) -> [ID] {
        candidates(near: point).filter { circles[$0]!.contains(point) }
    }

    // MARK: Cells

    struct Box {
        var rowStart: Int
        var rowEnd: Int
        var columnStart: Int
        /// Number of columns, ≥ 1, possibly wrapping past the antimeridian.
        var columnCount: Int

        var cellCount: Int { (rowEnd - rowStart + 1) * columnCount }

        func forEachCell(columns: Int, _ body: (Int) -> Void) {
            for row in rowStart...rowEnd {
                for offset in 0..<columnCount {
                    body(row * columns + (columnStart + offset) % columns)
                }
            }
        }
    }

    static func box(around center: Coordinate, radius: Double, cellSize: Double, columns: Int, rows: Int) -> Box {
        let rho = radius / Earth.meanRadius
        let latitudeSpan = rho * 180 / .pi
        let south = max(center.latitude - latitudeSpan, -90)
        let north = min(center.latitude + latitudeSpan, 90)
        func row(_ latitude: Double) -> Int { min(max(Int(((latitude + 90) / cellSize).rounded(.down)), 0), rows - 1) }
        func column(_ longitude: Double) -> Int {
            var wrapped = (longitude + 180).truncatingRemainder(dividingBy: 360)
            if wrapped < 0 { wrapped += 360 }
            return min(Int((wrapped / cellSize).rounded(.down)), columns - 1)
        }
        let cosine = cos(center.latitude * .pi / 180)
        let reachesPole = abs(center.latitude) + latitudeSpan >= 90 || rho >= .pi / 2 || sin(rho) >= cosine
        if reachesPole {
            return Box(rowStart: row(south), rowEnd: row(north), columnStart: 0, columnCount: columns)
        }
        // A hair of margin so rounding never drops the cell a boundary point falls in.
        let longitudeSpan = asin(sin(rho) / cosine) * 180 / .pi * (1 + 1e-12) + 1e-12
        if longitudeSpan >= 180 {
            return Box(rowStart: row(south), rowEnd: row(north), columnStart: 0, columnCount: columns)
        }
        let first = column(center.longitude - longitudeSpan)
        let last = column(center.longitude + longitudeSpan)
        var count = last - first + 1
        if count <= 0 { count += columns }
        return Box(rowStart: row(south), rowEnd: row(north), columnStart: first, columnCount: min(count, columns))
    }
}
