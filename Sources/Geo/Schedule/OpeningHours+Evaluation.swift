import Foundation

extension OpeningHours {
    /// Whether the area is open at `instant`, its schedule read in `zone`.
    public func isOpen(at instant: Date, in zone: TimeZone) -> Bool {
        decision(at: instant, in: zone).isOpen
    }

    /// Whether the area is open at `instant` and why, its schedule read in `zone`.
    ///
    /// Today's hours are checked, then yesterday's (hours may close up to 90000 s after
    /// yesterday's midnight). Each day's elapsed time is the real time since that day's local
    /// midnight, so DST days are 23 or 25 hours long as the seed says.
    public func decision(at instant: Date, in zone: TimeZone) -> OpeningDecision {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let todayStart = calendar.startOfDay(for: instant)
        let today = Self.localDate(of: todayStart, in: calendar)
        let todayWeekday = Weekday(calendarWeekday: calendar.component(.weekday, from: todayStart))
        if isAlwaysOpen {
            return OpeningDecision(isOpen: true, reason: .alwaysOpen, day: today, weekday: todayWeekday, hours: nil)
        }
        let todayDecision = decide(
            elapsed: instant.timeIntervalSince(todayStart), day: today, weekday: todayWeekday, calendar: calendar,
            start: todayStart)
        if todayDecision.isOpen { return todayDecision }
        // Yesterday's hours reach into today only when they close after yesterday's length.
        if let yesterdayStart = calendar.date(byAdding: .day, value: -1, to: todayStart).map(calendar.startOfDay) {
            let yesterday = Self.localDate(of: yesterdayStart, in: calendar)
            let weekday = Weekday(calendarWeekday: calendar.component(.weekday, from: yesterdayStart))
            let spill = decide(
                elapsed: instant.timeIntervalSince(yesterdayStart), day: yesterday, weekday: weekday,
                calendar: calendar, start: yesterdayStart)
            if spill.isOpen || spill.reason == .onBreak { return spill }
        }
        return todayDecision
    }

    private func decide(
        elapsed: TimeInterval, day: LocalDate, weekday: Weekday, calendar: Calendar, start: Date
    ) -> OpeningDecision {
        func result(_ open: Bool, _ reason: OpeningDecision.Reason, _ hours: DailyHours?) -> OpeningDecision {
            var decision = OpeningDecision(isOpen: open, reason: reason, day: day, weekday: weekday, hours: hours)
            // The whole day of an area without a week is no hours of the schedule's: nothing to put on a clock.
            if let hours, week != nil || specificDays[day] != nil {
                let clock =
                    "\(Self.clock(start, plus: hours.open, calendar))–\(Self.clock(start, plus: hours.close, calendar))"
                // Hours past midnight (close 90000) read 01:00:00 on any day's clock: only a shift is worth saying.
                let unshifted = "\(DailyHours.clock(hours.open % 86_400))–\(DailyHours.clock(hours.close % 86_400))"
                if clock != unshifted { decision.clock = clock }
            }
            return decision
        }
        let hours: DailyHours
        let openReason: OpeningDecision.Reason
        if let specific = specificDays[day] {
            if specific.isEmpty { return result(false, .specificDayClosed, specific) }
            hours = specific
            openReason = .specificDayHours
        } else if let week {
            guard let regular = week[weekday], !regular.isEmpty else {
                return result(false, .weekdayClosed, week[weekday])
            }
            hours = regular
            openReason = .regularHours
        } else {
            // No week: the whole day (its real length, 23 to 25 hours) is open.
            let end = calendar.date(byAdding: .day, value: 1, to: start).map(calendar.startOfDay)
            hours = DailyHours(open: 0, close: Int((end ?? start.addingTimeInterval(86_400)).timeIntervalSince(start)))
            openReason = .regularHours
        }
        guard hours.contains(elapsed) else { return result(false, .outsideHours, hours) }
        if let pause = breaks[weekday], pause.contains(elapsed) { return result(false, .onBreak, pause) }
        return result(true, openReason, hours)
    }

    /// The wall-clock time `seconds` after the local midnight `start`, `HH:MM:SS`.
    private static func clock(_ start: Date, plus seconds: Int, _ calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.hour, .minute, .second], from: start.addingTimeInterval(Double(seconds)))
        return DailyHours.clock((parts.hour ?? 0) * 3600 + (parts.minute ?? 0) * 60 + (parts.second ?? 0))
    }

    private static func localDate(of start: Date, in calendar: Calendar) -> LocalDate {
        let parts = calendar.dateComponents([.year, .month, .day], from: start)
        return LocalDate(year: parts.year!, month: parts.month!, day: parts.day!)!
    }
}
