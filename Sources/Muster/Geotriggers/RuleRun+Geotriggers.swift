import EventLog
import Forms
import Foundation
import Geo
import MusterWire

extension RuleRun {
    /// Runs every geotrigger of the namespace on a fix: its fences entered or exited, and for those
    /// its rule matches and its monitor runs, the message expression's notification delivered to the
    /// user's inbox. A stopped monitor's crossings are recorded too (reason "the monitor is stopped"), so
    /// the fences a device is in stay true and `muster audit` says why nothing came.
    func runGeotriggers(deviceId: String, user: String, fix: Fix, previous: Coordinate?, at: Int64) throws {
        guard !areas.geotriggers.isEmpty else { return }
        let state = try scope.geotriggers
        for compiled in areas.geotriggers {
            let geotrigger = compiled.geotrigger
            let running = try state.isRunning(geotrigger.id, namespace: namespace)
            let inside = try state.fencesInside(
                user: user, deviceId: deviceId, geotrigger: geotrigger.id, namespace: namespace)
            let polygonIds = Set(compiled.polygons.map(\.id))
            var crossings = compiled.detector.crossings(
                inside: inside.subtracting(polygonIds), previous: previous, fix: fix)
            crossings += Self.polygonCrossings(compiled, inside: inside, previous: previous, fix: fix)
            for crossing in crossings {
                let type: FenceNotificationType = crossing.trigger == .entry ? .entered : .exited
                var event = GeotriggerNotified(
                    user: user, deviceId: deviceId, geotrigger: geotrigger.id, fence: crossing.id,
                    notificationType: type.rawValue, at: at, latitude: fix.coordinate.latitude,
                    longitude: fix.coordinate.longitude, fired: false, reason: "")
                if !running {
                    event.reason = Self.monitorStopped
                } else if !geotrigger.rule.fires(on: type) {
                    event.reason = "the rule is \(geotrigger.rule.rawValue)"
                } else if let expression = compiled.expression {
                    try notify(&event, compiled, expression: expression, fix: fix, type: type)
                } else {
                    event.reason = "the message expression does not parse"
                }
                try scope.append(
                    AppendRequest(
                        namespace: namespace, stream: Streams.device(deviceId), events: [event.newEvent(actor: "rules")]
                    ))
                evaluation.geotriggers.append(
                    LocationAnswer.GeotriggerOutcome(
                        geotrigger: geotrigger.id, fence: crossing.id, notificationType: type.rawValue,
                        fired: event.fired, reason: event.reason, message: event.fired ? event.message : nil,
                        actions: event.fired ? event.actions : nil, messageId: event.messageId?.uuidString.lowercased())
                )
            }
        }
    }

    /// The reason a crossing of a geotrigger whose monitor is stopped notified no one.
    static let monitorStopped = "the monitor is stopped"

    /// The polygon fences' crossings, by the detector's rules: in when within the buffer distance,
    /// out beyond it plus the margin, a path through (≤ 2 km) is an entry and an exit.
    static func polygonCrossings(
        _ compiled: AreaCache.CompiledGeotrigger, inside: Set<String>, previous: Coordinate?, fix: Fix
    ) -> [FenceCrossing<String>] {
        let buffer = compiled.geotrigger.bufferDistance
        let margin = max(compiled.detector.exitMargin, fix.accuracy ?? 0)
        var result: [FenceCrossing<String>] = []
        for (id, polygon) in compiled.polygons {
            let distance = polygon.distance(to: fix.coordinate)
            if inside.contains(id) {
                if distance > buffer + margin { result.append(FenceCrossing(id: id, trigger: .exit)) }
            } else if distance <= buffer {
                result.append(FenceCrossing(id: id, trigger: .entry))
            } else if let previous, previous.distance(to: fix.coordinate) <= compiled.detector.maximumJump,
                polygon.isCrossed(from: previous, to: fix.coordinate)
            {
                result.append(FenceCrossing(id: id, trigger: .entry))
                result.append(FenceCrossing(id: id, trigger: .exit))
            }
        }
        return result
    }

    private func notify(
        _ event: inout GeotriggerNotified, _ compiled: AreaCache.CompiledGeotrigger, expression: MessageExpression,
        fix: Fix, type: FenceNotificationType
    ) throws {
        let geotrigger = compiled.geotrigger
        var feed: [(String, ArcadeValue)] = [
            ("deviceId", .text(event.deviceId)), ("user", .text(event.user)),
            ("latitude", .number(fix.coordinate.latitude)), ("longitude", .number(fix.coordinate.longitude)),
        ]
        if let accuracy = fix.accuracy { feed.append(("accuracy", .number(accuracy))) }
        let fenceFeature = compiled.attributes[event.fence] ?? ArcadeDictionary()
        let context = GeotriggerContext(
            notificationType: type, fenceFeature: fenceFeature, feedFeature: ArcadeDictionary(feed),
            now: Date(timeIntervalSince1970: Double(event.at) / 1_000_000))
        let message: GeotriggerMessage
        do {
            message = try expression.message(for: context)
        } catch {
            event.reason = "the message expression failed: \(error)"
            return
        }
        let properties = JSONValue.object(message.properties.mapValues(ArcadeJSON.json))
        event.message = message.message
        event.actions = message.actions
        event.properties = String(decoding: properties.jsonData(), as: UTF8.self)
        let info: JSONValue = .object([
            "geotrigger": .string(geotrigger.id), "name": .string(geotrigger.name),
            "fenceNotificationType": .string(type.rawValue), "message": .string(message.message),
            "actions": .array(message.actions.map(JSONValue.string)), "messageProperties": properties,
            "requestedActions": .array(geotrigger.requestedActions.map(JSONValue.string)),
            "fenceFeature": ArcadeJSON.json(.dictionary(fenceFeature)),
            "feedFeature": ArcadeJSON.json(.dictionary(context.feedFeature)),
        ])
        var topic = "/geotriggers/\(geotrigger.id)"
        if !ResponseTopic.isValid(topic) { topic = "/geotriggers" }
        let payload: JSONValue = .object([
            "responseTopic": .string(topic), "fields": .array([]), "geotriggerNotification": info,
        ])
        let messageId = EventID.make()
        let sent = PayloadSent(
            sender: "geotriggers", title: geotrigger.name.isEmpty ? geotrigger.id : geotrigger.name,
            body: message.message, source: "geotriggers", payload: Array(payload.jsonData()), responseTopic: topic,
            recipients: [PayloadSent.Recipient(user: event.user, messageId: messageId)])
        try scope.append(
            AppendRequest(
                namespace: namespace, stream: Streams.send(messageId), expectedVersion: .noStream,
                events: [sent.newEvent(actor: "geotriggers")]))
        event.fired = true
        event.messageId = messageId
        event.reason = "notified \(event.user): \(String(reflecting: message.message))"
    }
}
