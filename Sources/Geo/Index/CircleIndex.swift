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
///
/// Internally every circle has a slot: the grid and the hot loops of `PresenceDetector` work on
/// slot numbers and plain numbers, never on the generic `ID`, which only the edges map.
public struct CircleIndex<ID: Hashable & Sendable>: Sendable {
    /// The cell edge in degrees.
    public let cellSize: Double
    /// Circles spanning more cells than this are not gridded but always checked.
    public let maximumCellsPerCircle: Int

    let grid: Grid
    private(set) var fences: [FenceSlot] = []
    private(set) var ids: [ID?] = []
    private var free: [Int32] = []
    private var slotOf: [ID: Int32] = [:]
    private var cells = CellTable()
    private var large: [Int32] = []

    /// Creates an empty index with square cells of `cellSize` degrees (0.002° ≈ 220 m north–south).
    public init(cellSize: Double = 0.002, maximumCellsPerCircle: Int = 4096) {
        precondition(cellSize > 0 && cellSize <= 90, "cell size \(cellSize)° is not within (0, 90]")
        self.cellSize = cellSize
        self.maximumCellsPerCircle = maximumCellsPerCircle
        grid = Grid(cellSize: cellSize)
    }

    /// How many circles the index holds.
    public var count: Int { slotOf.count }

    /// The circle stored under `id`.
    public func circle(for id: ID) -> Circle? { slotOf[id].map { fences[Int($0)].circle } }

    /// The slot of `id`, if stored.
    func slot(of id: ID) -> Int32? { slotOf[id] }

    /// Adds `circle` under `id`, replacing any circle already stored under it.
    public mutating func insert(_ circle: Circle, id: ID) {
        remove(id)
        let slot: Int32
        if let reused = free.popLast() {
            slot = reused
            fences[Int(slot)] = FenceSlot(circle)
            ids[Int(slot)] = id
        } else {
            slot = Int32(fences.count)
            fences.append(FenceSlot(circle))
            ids.append(id)
        }
        slotOf[id] = slot
        let box = grid.box(around: circle.center, radius: circle.radius)
        if box.cellCount > maximumCellsPerCircle {
            large.append(slot)
            return
        }
        let entry = CellEntry(slot: slot, fence: fences[Int(slot)], box: box, columns: grid.columns)
        box.forEachCell(columns: grid.columns) { cells.append(entry, to: $0) }
    }

    /// Removes the circle stored under `id` and returns it.
    @discardableResult
    public mutating func remove(_ id: ID) -> Circle? {
        guard let slot = slotOf.removeValue(forKey: id) else { return nil }
        let circle = fences[Int(slot)].circle
        ids[Int(slot)] = nil
        free.append(slot)
        if let index = large.firstIndex(of: slot) {
            large.remove(at: index)
            return circle
        }
        let box = grid.box(around: circle.center, radius: circle.radius)
        box.forEachCell(columns: grid.columns) { cells.remove(slot: slot, from: $0) }
        return circle
    }

    /// Every circle that might come within `metres` of `point` — a superset of those that do,
    /// each once, in no particular order. With `metres` 0, the circles that might contain it.
    @_specialize(exported:true,where ID == String)
    @_specialize(exported:true,where ID == Int)
    public func candidates(near point: Coordinate, within metres: Double = 0) -> [ID] {
        var result: [ID] = []
        visitCandidates(near: point, within: metres) { result.append(ids[Int($0.slot)]!) }
        return result
    }

    /// The circles that contain `point`, exactly (the candidates, filtered by distance).
    @_specialize(exported:true,where ID == String)
    @_specialize(exported:true,where ID == Int)
    public func containing(_ point: Coordinate) -> [ID] {
        let here = PointTrig(point)
        var result: [ID] = []
        visitCandidates(near: point, within: 0) { entry in
            if isWithin(entry, entry.radius, of: here) { result.append(ids[Int(entry.slot)]!) }
        }
        return result
    }

    /// Whether `point` is within `limit` metres of the entry's centre: the flat-Earth estimate
    /// decides unless it is within its error of the limit, then the haversine distance does.
    @inline(__always)
    func isWithin(_ entry: CellEntry, _ limit: Double, of point: PointTrig) -> Bool {
        var dLongitude = point.longitude - entry.longitude
        if dLongitude > 180 { dLongitude -= 360 } else if dLongitude < -180 { dLongitude += 360 }
        let x = dLongitude * Double(entry.cosPhi)
        let y = point.latitude - entry.latitude
        let metres = (x * x + y * y).squareRoot() * FenceSlot.metresPerDegree
        if metres < 20_000, abs(entry.latitude) < 70, abs(point.latitude) < 70 {
            if metres > limit * 1.02 + 1 { return false }
            if metres < limit * 0.98 - 1 { return true }
        }
        return fences[Int(entry.slot)].distance(to: point) <= limit
    }

    /// Calls `body` once for every circle that might come within `metres` of `point`.
    ///
    /// A circle registered in several cells of the query is reported from one of them only: the
    /// first cell (row-major) of the overlap of its box and the query's, so no set is needed
    /// unless a box wraps round the antimeridian.
    @inline(__always)
    func visitCandidates(near point: Coordinate, within metres: Double, _ body: (CellEntry) -> Void) {
        var none: Void = ()
        visitCandidates(near: point, within: metres, into: &none) { _, entry in body(entry) }
    }

    /// `visitCandidates(near:within:_:)` with the caller's state passed in and out rather than captured: a
    /// closure that captures a variable it changes makes that variable a heap box checked on every access.
    @inline(__always)
    func visitCandidates<State>(
        near point: Coordinate, within metres: Double, into state: inout State,
        _ visit: (inout State, CellEntry) -> Void
    ) {
        func body(_ entry: CellEntry) { visit(&state, entry) }
        let box = grid.box(around: point, radius: max(metres, 0))
        let columns = grid.columns
        if box.cellCount == 1 {
            if let cell = cells.entries(box.rowStart * columns + box.columnStart) {
                for entry in cell { body(entry) }
            }
        } else if box.cellCount > cells.count || box.columnStart + box.columnCount > columns {
            // A box with more cells than the grid holds, or wrapping: visit with a set of seen slots.
            var seen = Set<Int32>()
            if box.cellCount > cells.count {
                cells.forEach { key, cell in
                    guard box.contains(key, columns: columns) else { return }
                    for entry in cell where seen.insert(entry.slot).inserted { body(entry) }
                }
            } else {
                box.forEachCell(columns: columns) { key in
                    for entry in cells.entries(key) ?? [] where seen.insert(entry.slot).inserted { body(entry) }
                }
            }
        } else {
            var seen: Set<Int32>?
            for row in box.rowStart...box.rowEnd {
                for column in box.columnStart..<(box.columnStart + box.columnCount) {
                    guard let cell = cells.entries(row * columns + column) else { continue }
                    for entry in cell {
                        if entry.columnStart < 0 {
                            // The circle's own box wraps: fall back to a set for it.
                            if seen == nil { seen = [] }
                            if seen!.insert(entry.slot).inserted { body(entry) }
                        } else if row == max(box.rowStart, Int(entry.rowStart)),
                            column == max(box.columnStart, Int(entry.columnStart))
                        {
                            body(entry)
                        }
                    }
                }
            }
        }
        for slot in large { body(CellEntry(slot: slot, fence: fences[Int(slot)], box: nil, columns: columns)) }
    }
}

/// A circle as a grid cell holds it: what the distance estimate needs, inline (so a query reads
/// one array per cell, not one fence per candidate), and where its own box starts (to report a
/// circle once per query).
struct CellEntry: Sendable {
    let slot: Int32
    let rowStart: Int32
    /// -1 when the circle's box wraps round the antimeridian.
    let columnStart: Int32
    let cosPhi: Float
    let latitude: Double
    let longitude: Double
    let radius: Double

    init(slot: Int32, fence: FenceSlot, box: Grid.Box?, columns: Int) {
        self.slot = slot
        rowStart = Int32(box?.rowStart ?? 0)
        if let box, box.columnStart + box.columnCount <= columns {
            columnStart = Int32(box.columnStart)
        } else {
            columnStart = -1
        }
        cosPhi = Float(fence.cosPhi)
        latitude = fence.latitude
        longitude = fence.longitude
        radius = fence.radius
    }
}

/// A circle with what the distance tests need precomputed.
struct FenceSlot: Sendable {
    static let metresPerDegree = Earth.meanRadius * .pi / 180

    let circle: Circle
    let latitude: Double
    let longitude: Double
    let radius: Double
    /// Latitude in radians and its cosine.
    let phi: Double
    let cosPhi: Double

    init(_ circle: Circle) {
        self.circle = circle
        latitude = circle.center.latitude
        longitude = circle.center.longitude
        radius = circle.radius
        phi = latitude * .pi / 180
        cosPhi = cos(phi)
    }

    /// Great-circle distance to a point in metres (haversine, as `Coordinate.distance`).
    func distance(to point: PointTrig) -> Double {
        let dPhi = point.phi - phi
        let dLambda = (point.longitude - longitude) * .pi / 180
        let sinPhi = sin(dPhi / 2)
        let sinLambda = sin(dLambda / 2)
        let a = min(max(sinPhi * sinPhi + cosPhi * point.cosPhi * sinLambda * sinLambda, 0), 1)
        return 2 * Earth.meanRadius * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    /// A fast estimate of the distance (equirectangular about the centre), and whether it is
    /// good to 2 % + 1 m: only for points within 20 km and below 70° of latitude.
    func roughDistance(to point: PointTrig) -> (metres: Double, isReliable: Bool) {
        var dLongitude = point.longitude - longitude
        if dLongitude > 180 { dLongitude -= 360 } else if dLongitude < -180 { dLongitude += 360 }
        let x = dLongitude * cosPhi
        let y = point.latitude - latitude
        let metres = (x * x + y * y).squareRoot() * (Earth.meanRadius * .pi / 180)
        return (metres, metres < 20_000 && abs(latitude) < 70 && abs(point.latitude) < 70)
    }

    /// Whether the point is within `limit` metres of the centre, using the estimate when it decides.
    func isWithin(_ limit: Double, of point: PointTrig) -> Bool {
        let rough = roughDistance(to: point)
        if rough.isReliable {
            if rough.metres > limit * 1.02 + 1 { return false }
            if rough.metres < limit * 0.98 - 1 { return true }
        }
        return distance(to: point) <= limit
    }

    func contains(_ point: PointTrig) -> Bool { isWithin(radius, of: point) }
}

/// A point with its latitude in radians and the cosine precomputed.
struct PointTrig {
    let latitude: Double
    let longitude: Double
    let phi: Double
    let cosPhi: Double

    init(_ point: Coordinate) {
        latitude = point.latitude
        longitude = point.longitude
        phi = latitude * .pi / 180
        cosPhi = cos(phi)
    }
}

/// The grid's rows and columns, and the cells a circle's bounding box covers.
struct Grid: Sendable {
    let cellSize: Double
    let rows: Int
    let columns: Int

    init(cellSize: Double) {
        self.cellSize = cellSize
        rows = Int((180 / cellSize).rounded(.up))
        columns = Int((360 / cellSize).rounded(.up))
    }

    struct Box {
        var rowStart: Int
        var rowEnd: Int
        var columnStart: Int
        /// Number of columns, ≥ 1, possibly wrapping past the antimeridian.
        var columnCount: Int

        var cellCount: Int { (rowEnd - rowStart + 1) * columnCount }

        /// Whether the cell `key` lies in the box.
        func contains(_ key: Int, columns: Int) -> Bool {
            let (row, column) = key.quotientAndRemainder(dividingBy: columns)
            return row >= rowStart && row <= rowEnd && (column - columnStart + columns) % columns < columnCount
        }

        func forEachCell(columns: Int, _ body: (Int) -> Void) {
            for row in rowStart...rowEnd {
                for offset in 0..<columnCount {
                    body(row * columns + (columnStart + offset) % columns)
                }
            }
        }
    }

    func box(around center: Coordinate, radius: Double) -> Box {
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
