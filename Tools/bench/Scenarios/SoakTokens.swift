import EventLog
import Foundation
import Muster

/// The sessions projection's token tables as a stopped server left them, against what its sweep should leave:
/// every pair whose refresh token outlives the last sessions event, and at most the few a single event sweeps of
/// those that expired by then.
struct SoakTokens {
    /// Token pairs issued over the whole run (logins and refreshes).
    var issued = 0
    /// Entries in `accessTokens`, `refreshTokens`, `expiries` and `sessions`.
    var accessTokens = 0
    var refreshTokens = 0
    var expiries = 0
    var sessions = 0
    /// Pairs whose refresh token was still valid at the last sessions event: what the tables should hold.
    var live = 0
    /// Pairs in the tables whose refresh token had expired by the last sessions event (not swept yet).
    var expiredLeft = 0

    /// Reads the data directory of a stopped server.
    static func read(_ directory: URL) throws -> SoakTokens {
        var configuration = EventLog.Configuration()
        configuration.projections += MusterDomain.projections
        let log = try EventLog(directory: directory, configuration: configuration)
        defer { log.close() }
        return try log.read { snapshot in
            var tokens = SoakTokens()
            var last: Int64 = 0
            var expiries: [Int64] = []
            for event in try snapshot.events(EventQuery(type: TokenIssued.type)) {
                guard let issued = try TokenIssued.decode(event) else { continue }
                tokens.issued += 1
                last = max(last, event.recordedAt)
                expiries.append(issued.refreshExpiresAt)
            }
            for event in try snapshot.events(EventQuery(type: TokenRevoked.type)) {
                last = max(last, event.recordedAt)
            }
            tokens.live = expiries.filter { $0 > last }.count
            let state = try snapshot.view(SessionsProjection()).state
            tokens.accessTokens = try state.count("accessTokens")
            tokens.refreshTokens = try state.count("refreshTokens")
            tokens.expiries = try state.count("expiries")
            tokens.sessions = try state.count("sessions")
            try state.scan("expiries") { key, _ in
                // The key starts with the refresh token's expiry, 8 bytes big-endian.
                guard key.count > 8 else { return true }
                let expiry = key.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                guard expiry <= UInt64(max(0, last)) else { return false }
                tokens.expiredLeft += 1
                return true
            }
            return tokens
        }
    }

    /// What is wrong with the tables, if anything.
    var problems: [String] {
        var problems: [String] = []
        if accessTokens != expiries || refreshTokens != expiries {
            problems.append(
                "token tables disagree: \(accessTokens) access, \(refreshTokens) refresh, \(expiries) expiries")
        }
        if expiredLeft > SessionsProjection.sweptPerEvent {
            problems.append(
                "\(expiredLeft) expired token pairs were not swept (one event sweeps up to "
                    + "\(SessionsProjection.sweptPerEvent))")
        }
        if expiries != live + expiredLeft {
            problems.append(
                "\(expiries) token pairs kept, but \(live) were live and \(expiredLeft) expired: "
                    + "\(expiries - live - expiredLeft) unaccounted for")
        }
        return problems
    }
}
