import EventLog
import Muster
import MusterWire

/// The log's events on a data directory: of every namespace unless the query names one.
extension LocalBackend {
    func events(_ query: EventQuery, _ each: (EventLine) throws -> Bool) async throws {
        _ = try log.read { reader in
            try reader.events(query) { try each(EventJSON.eventLine($0)) }
        }
    }

    func followEvents(_ query: EventQuery) async throws -> any AsyncSequence<EventLine, any Error> & Sendable {
        log.follow(query).map { EventJSON.eventLine($0) }
    }
}
