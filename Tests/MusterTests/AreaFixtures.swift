import EventLog
import EventLogTesting
import Foundation
import Muster
import MusterWire

/// Seed 004's `u_geofences.json` example (its line breaks inside strings joined), as served.
let seedGeofences = #"""
    {"u_geofences":[{"id":52,"lat":48.86821546,"lng":2.3231598,"address":"14 rue royale paris",
    "name":"DEMO PRESENTATION 2","radius":0.1,"start":"2013-07-30T00:00:00Z","end":"2013-08-30T00:00:00Z",
    "updated_at":"2013-11-22T07:11:28Z",
    "rules_actions":[{"id":61,"rule":{"trigger":"on_exit","min_events":"-1"},
    "action":{"open_pbk":"","open_url":"","notify_user":"À bientôt ! Revenez vite, profiter de nos prochaines promotions !","notify_server":""}},
    {"id":60,"rule":{"trigger":"on_entry","min_events":"-1"},
    "action":{"open_pbk":"","open_url":"http://mobile.ubudu.com/webcoupon/117-demo-73987512-html?1374077612&p_offer_id=227&stc_id=1373970685",
    "notify_user":"Offres exclusives en magasin, à moins de 100 m, ne les ratez pas !","notify_server":""}}],
    "timezone":{"zone":"Europe/Paris","title":"Europe/Paris","offset":3600,"utc_offset":1,"dst":"false"},
    "schedule":{"week":{"sun":{"close":0,"open":0},"mon":{"close":68400,"open":32400},"tue":{"close":68400,"open":32400},
    "wed":{"close":68400,"open":32400},"thu":{"close":68400,"open":32400},"fri":{"close":68400,"open":32400},
    "sat":{"close":68400,"open":32400}},"specific_days":{},"breaks":{}}},
    {"id":35,"lat":48.87621805,"lng":2.32686415,"address":"10 rue d'amsterdam; 75009 Paris; France",
    "name":"demo-shop-2--10--rue-d-amsterdam","radius":0.02,"start":"2013-07-10T00:00:00Z","end":"2014-08-09T00:00:00Z",
    "updated_at":"2013-11-22T07:11:26Z",
    "rules_actions":[{"id":33,"rule":{"trigger":"on_exit","min_events":"1"},
    "action":{"open_pbk":"","open_url":"","notify_user":"Reposez vous bien!","notify_server":""}},
    {"id":32,"rule":{"trigger":"on_entry","min_events":"1"},
    "action":{"open_pbk":"","open_url":"http://mobile.ubudu.com/webcoupon/117-demo-73987512-html?1373990153&p_offer_id=227&stc_id=1373970685",
    "notify_user":"Venez découvrir nos offres !","notify_server":""}}],
    "timezone":{"zone":"Europe/Paris","title":"Europe/Paris","offset":3600,"utc_offset":1,"dst":"false"},
    "schedule":{"week":{"sun":{"close":0,"open":0},"mon":{"close":68400,"open":32400},"tue":{"close":68400,"open":32400},
    "wed":{"close":68400,"open":32400},"thu":{"close":68400,"open":32400},"fri":{"close":68400,"open":32400},
    "sat":{"close":68400,"open":32400}},"specific_days":{},"breaks":{}}}],
    "valid_until":"2013-11-25T13:27:04+01:00",
    "query_params":{"api_version":"2","namespace":"fd5293be82bc91ba4bedfae15b3a97253f1de5c4","lat":"52.2319565",
    "lgn":"21.0208855","radius":"10.0","format":"json"}}
    """#

/// Seed 004's `u_beacons.json` example (its `"thi"` and `"minor":""` kept), as served.
let seedBeacons = #"""
    {"u_beacons":[{"id":"1","group_id":"1000","name":"Full Beacon Example",
    "address":"76 78 rue Saint Lazarre; 75009 Paris; France","start":"2013-10-29T16:43:17+01:00",
    "end":"2013-11-29T16:43:17+01:00",
    "timezone":{"zone":"Europe\/Paris","title":"Paris, France","offset":3600,"utc_offset":1,"dst":null},
    "schedule":{"week":{"sun":{"open":0,"close":0},"mon":{"open":32400,"close":68400},"tue":{"open":32400,"close":68400},
    "wed":{"open":32400,"close":68400},"thi":{"open":32400,"close":68400},"fri":{"open":32400,"close":57600},
    "sat":{"open":0,"close":0}},
    "breaks":{"sun":{"open":0,"close":0},"mon":{"open":46800,"close":54000},"tue":{"open":46800,"close":54000},
    "wed":{"open":46800,"close":54000},"thi":{"open":46800,"close":54000},"fri":{"open":0,"close":0},
    "sat":{"open":0,"close":0}},"specific_days":null},
    "updated_at":"2013-10-29T16:43:17+01:00",
    "rules_actions":[{"id":"11","rule":{"trigger":"on_entry","min_events":2,"max_events":4,"min_group_events":0,
    "max_group_events":4,"latch_time":2,"maximum_proximity":null},
    "action":{"notify_user":"Come buy at example fence",
    "notify_server":"http:\/\/campain.ubudu.com\/enter\/namespace\/{namespace}\/id\/{id}\/udid\/{udid}\/lat\/{lat}\/lng\/{lng}",
    "open_url":"http:\/\/campain.ubudu.com\/notify\/namespace\/{namespace}\/id\/{id}\/udid\/{udid}\/lat\/{lat}\/lng\/{lng}",
    "open_pbk":null}}],
    "proximity_uid":"566C5595-6EC7-4F08-909F-C954BDCA6CD3","major":42,"minor":""}],
    "valid_until":"2013-11-25T13:27:04+01:00"}
    """#

/// A log with the domain's projections and one user, ada (Europe/Paris), for rules tests.
struct RulesWorld {
    let t: TestLog
    var log: EventLog
    var engine: RuleEngine

    init(timeZone: String = "Europe/Paris", hook: ServerHook = ServerHook(timeout: 2, attempts: 1)) async throws {
        t = try TestLog("rules")
        log = try t.open { $0.projections += MusterDomain.projections }
        engine = RuleEngine(log: log, hook: hook)
        _ = try await Directory(log: log).addUser("ada", password: nil, timeZone: timeZone)
    }

    /// Closes and reopens the log (a restart), with a new engine.
    mutating func restart() throws {
        log.close()
        log = try t.open { $0.projections += MusterDomain.projections }
        engine = RuleEngine(log: log, hook: engine.hook)
    }

    func remove() { t.directory.remove() }

    /// A time in Paris, e.g. `paris("2013-11-25T10:00:00")` (a Monday).
    static func paris(_ local: String) -> Date { UbuduFormat.parseDate(local + "+01:00")! }

    /// One geofence around (lat, lng) with the given rules.
    static func shop(
        _ id: String = "shop", latitude: Double = 48.8700, longitude: Double = 2.3300, radius: Double = 50,
        group: String? = nil, rules: [AreaRule]
    ) -> Area {
        Area(
            id: id, region: .geofence(latitude: latitude, longitude: longitude, radius: radius), name: "Shop \(id)",
            groupId: group, timeZone: "Europe/Paris", rules: rules)
    }

    func enter(_ area: Area, at date: Date, device: String = "phone") async throws -> LocationAnswer {
        guard case .geofence(let latitude, let longitude, _) = area.region else { fatalError("not a geofence") }
        return try await engine.report(
            RuleEngine.LocationReport(user: "ada", deviceId: device, latitude: latitude, longitude: longitude, at: date)
        )
    }

    /// A fix 1 km north of the area: outside it.
    func leave(_ area: Area, at date: Date, device: String = "phone") async throws -> LocationAnswer {
        guard case .geofence(let latitude, let longitude, _) = area.region else { fatalError("not a geofence") }
        return try await engine.report(
            RuleEngine.LocationReport(
                user: "ada", deviceId: device, latitude: latitude + 0.009, longitude: longitude, at: date))
    }

    func inbox() throws -> [PayloadMessage] { try Notifications(log: log).inbox(user: "ada") }
}
