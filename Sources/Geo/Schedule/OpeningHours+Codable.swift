import Foundation

extension OpeningHours: Codable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes the seed's structure, tolerating what its examples contain: `null` or missing
    /// parts, times as numbers or numeric strings, `""`/`null` times as 0, the misspelt weekday
    /// `"thi"` as Thursday, times outside 0...90000 clamped — each change reported in `warnings`.
    /// Text that is not a number, or a part that is not an object, is a decoding error.
    public init(from decoder: any Decoder) throws {
        var warnings: [ScheduleWarning] = []
        let root = try decoder.container(keyedBy: Key.self)
        let week = try Self.decodeWeekdays(root, "week", &warnings)
        let breaks = try Self.decodeWeekdays(root, "breaks", &warnings) ?? [:]
        var specificDays: [LocalDate: DailyHours] = [:]
        if root.contains(Key("specific_days")), try !root.decodeNil(forKey: Key("specific_days")) {
            let days = try root.nestedContainer(keyedBy: Key.self, forKey: Key("specific_days"))
            for key in days.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                let path = "specific_days.\(key.stringValue)"
                guard let date = LocalDate(key.stringValue) else {
                    warnings.append(.init(path: path, message: "not a YYYY-MM-DD date; ignored"))
                    continue
                }
                if let hours = try Self.decodeHours(days, key, path, &warnings) { specificDays[date] = hours }
            }
        }
        for key in root.allKeys where !["week", "breaks", "specific_days"].contains(key.stringValue) {
            warnings.append(.init(path: key.stringValue, message: "unknown schedule part; ignored"))
        }
        self.init(week: week, breaks: breaks, specificDays: specificDays, warnings: warnings)
    }

    /// Encodes the canonical form: weekday keys `mon` … `sun`, dates `YYYY-MM-DD`, integers.
    public func encode(to encoder: any Encoder) throws {
        var root = encoder.container(keyedBy: Key.self)
        if let week {
            var days = root.nestedContainer(keyedBy: Key.self, forKey: Key("week"))
            for (day, hours) in week.sorted(by: { $0.key < $1.key }) {
                try days.encode(hours, forKey: Key(day.rawValue))
            }
        }
        if !breaks.isEmpty {
            var days = root.nestedContainer(keyedBy: Key.self, forKey: Key("breaks"))
            for (day, hours) in breaks.sorted(by: { $0.key < $1.key }) {
                try days.encode(hours, forKey: Key(day.rawValue))
            }
        }
        if !specificDays.isEmpty {
            var days = root.nestedContainer(keyedBy: Key.self, forKey: Key("specific_days"))
            for (date, hours) in specificDays.sorted(by: { $0.key < $1.key }) {
                try days.encode(hours, forKey: Key(date.description))
            }
        }
    }

    private static func decodeWeekdays(
        _ root: KeyedDecodingContainer<Key>, _ part: String, _ warnings: inout [ScheduleWarning]
    ) throws -> [Weekday: DailyHours]? {
        guard root.contains(Key(part)), try !root.decodeNil(forKey: Key(part)) else { return nil }
        let days = try root.nestedContainer(keyedBy: Key.self, forKey: Key(part))
        var result: [Weekday: DailyHours] = [:]
        let keys = days.allKeys.sorted { $0.stringValue < $1.stringValue }
        for key in keys {
            let path = "\(part).\(key.stringValue)"
            let day: Weekday
            if let exact = Weekday(rawValue: key.stringValue) {
                day = exact
            } else if key.stringValue == "thi" {
                if keys.contains(where: { $0.stringValue == "thu" }) {
                    warnings.append(
                        .init(path: path, message: "\"thi\" next to \"thu\"; \"thu\" kept, \"thi\" ignored"))
                    continue
                }
                warnings.append(.init(path: path, message: "\"thi\" read as Thursday (\"thu\")"))
                day = .thu
            } else {
                warnings.append(.init(path: path, message: "not a weekday (mon … sun); ignored"))
                continue
            }
            if let hours = try decodeHours(days, key, path, &warnings) { result[day] = hours }
        }
        return result
    }

    /// One `{"open", "close"}`; nil (no entry) when the value is `null`.
    private static func decodeHours(
        _ container: KeyedDecodingContainer<Key>, _ key: Key, _ path: String, _ warnings: inout [ScheduleWarning]
    ) throws -> DailyHours? {
        if try container.decodeNil(forKey: key) { return nil }
        let fields = try container.nestedContainer(keyedBy: Key.self, forKey: key)
        let open = try seconds(fields, "open", "\(path).open", &warnings)
        let close = try seconds(fields, "close", "\(path).close", &warnings)
        if open > close {
            warnings.append(.init(path: path, message: "open \(open) is after close \(close); no open time"))
        }
        return DailyHours(open: open, close: close)
    }

    private static func seconds(
        _ fields: KeyedDecodingContainer<Key>, _ name: String, _ path: String, _ warnings: inout [ScheduleWarning]
    ) throws -> Int {
        let key = Key(name)
        guard fields.contains(key), try !fields.decodeNil(forKey: key) else { return 0 }
        var value: Double
        if let number = try? fields.decode(Double.self, forKey: key) {
            value = number
        } else {
            let text = try fields.decode(String.self, forKey: key).trimmingCharacters(in: .whitespaces)
            if text.isEmpty { return 0 }
            guard let number = Double(text), number.isFinite else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: fields, debugDescription: "\(path): \"\(text)\" is not a number of seconds")
            }
            value = number
        }
        guard value.isFinite, value == value.rounded() else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: fields, debugDescription: "\(path): \(value) is not a whole number of seconds")
        }
        if value < 0 || value > Double(DailyHours.maximumSeconds) {
            let clamped = min(max(value, 0), Double(DailyHours.maximumSeconds))
            // Not Int(value): a value beyond Int's range (found by fuzzing, 8.9e89) trapped there.
            let given = Int(exactly: value).map(String.init) ?? "\(value)"
            warnings.append(.init(path: path, message: "\(given) is outside 0...90000; read as \(Int(clamped))"))
            value = clamped
        }
        return Int(value)
    }
}
