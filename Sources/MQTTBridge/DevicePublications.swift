import EventLog
import Forms
import Foundation
import Geo
import Logging
import MQTT
import MQTTConnect
import Muster
import MusterWire

/// What devices publish, made into events: each message recorded once as `DeviceDataReported` (a picture stored
/// as a document first), then what it holds acted on — a reply answers its message, `GPS` is a location report,
/// `Beacons` are sightings, a settings receipt answers `muster mqtt settings`. Odd input never stops the bridge:
/// it is counted as refused, with the reason logged.
struct DevicePublications: Sendable {
    let devices: MQTTDevices
    let notifications: Notifications
    let documents: Documents
    let directory: Directory
    let rules: RuleEngine
    let sizeLimit: Int
    let counters: BridgeCounters
    let receipts: Receipts
    let logger: Logger

    /// How many messages are handed to the writer at a time: the next ones are read while these are written.
    static let chunkSize = 128

    /// Messages read and handed to the writer together, with what was read of each.
    private struct Chunk {
        var reports: [MQTTDevices.Report] = []
        var read: [(publication: DevicePublication, device: MQTTDevice)] = []
    }

    /// Records a batch and acts on it; returns once every event is committed (the bridge then acknowledges it).
    /// The batch is written in chunks, in order: each is handed to the writer as soon as it is read, so reading
    /// the rest overlaps writing it.
    /// `subscribed`: the topics this server subscribed to; a message on another one came through a subscription
    /// the broker's session holds for the client id, which the refusal says.
    func handle(_ messages: [MQTTMessage], routes: [String: MQTTDevice], subscribed: Set<String>) async throws {
        var written: [(Chunk, PendingWrite<[MQTTDevices.Outcome]>)] = []
        var chunk = Chunk()
        for message in messages {
            guard let device = routes[message.topic] else {
                let foreign =
                    subscribed.contains(message.topic)
                    ? ""
                    : "; this server did not subscribe to it: the broker's session for its client id holds the "
                        + "subscription, from an earlier run or from another server connecting with the same "
                        + "--mqtt-client-id"
                refuse(
                    message.topic,
                    "no MQTT device publishes on this topic (muster devices register --publish-topic)" + foreign)
                continue
            }
            let publication: DevicePublication
            switch DevicePublication.read(message.payload, sizeLimit: sizeLimit) {
            case .failure(let refusal):
                refuse(message.topic, "\(refusal)")
                continue
            case .success(let value): publication = value
            }
            guard let report = try await report(message, publication, device) else { continue }
            chunk.reports.append(report)
            chunk.read.append((publication, device))
            if chunk.reports.count == Self.chunkSize {
                written.append((chunk, devices.submit(chunk.reports)))
                chunk = Chunk()
            }
        }
        if !chunk.reports.isEmpty { written.append((chunk, devices.submit(chunk.reports))) }
        var phones = RegisteredPhones(routes: routes)
        for (chunk, outcomes) in written { await settle(chunk, try await outcomes.value, phones: &phones) }
    }

    /// Counts the outcomes of a chunk's reports and acts on what the recorded messages hold, in order.
    private func settle(_ chunk: Chunk, _ outcomes: [MQTTDevices.Outcome], phones: inout RegisteredPhones) async {
        for (index, outcome) in outcomes.enumerated() {
            let (publication, device) = chunk.read[index]
            switch outcome {
            case .recorded(let position):
                counters.add(\.recorded)
                if let other = phones.other(named: publication.iPhoneID, than: device) {
                    await refuseAll(publication, from: device, sentBy: other, recordedAt: position)
                } else {
                    await act(on: publication, from: device, recordedAt: position)
                }
            case .duplicate:
                counters.add(\.duplicates)
                // The same settings sent again bring a receipt identical to the last one: it still answers the
                // command waiting now (a redelivered receipt holds the device's settings just the same).
                if let settings = receipt(publication, from: device) { receipts.received(settings, from: device) }
            case .refused(let error): refuse(chunk.reports[index].topic, error.message)
            }
        }
    }

    /// The report of one message: QR and NFC content that is JSON text kept as JSON; a picture stored as a
    /// document and its base64 left out of the body. The report carries the arriving message's hash (computed once
    /// here), so a redelivery is known even when the body was changed.
    private func report(_ message: MQTTMessage, _ publication: DevicePublication, _ device: MQTTDevice) async throws
        -> MQTTDevices.Report?
    {
        var report = MQTTDevices.Report(
            user: device.user, deviceId: device.deviceId, topic: message.topic, body: message.payload,
            namespace: device.namespace)
        let hash = DeviceDataReported.contentHash(topic: message.topic, body: message.payload)
        report.contentHash = hash
        var replaced: [String: JSONValue] = [:]
        for (member, content) in [("QRContent", publication.qrContent), ("NFCContent", publication.nfcContent)] {
            guard case .json(let value) = content, publication.value(member) != value else { continue }
            replaced[member] = value
        }
        guard let picture = publication.picture else {
            if !replaced.isEmpty { report.body = publication.body(replacing: replaced) }
            return report
        }
        if try devices.isRecorded(
            contentHash: hash, namespace: device.namespace, user: device.user, deviceId: device.deviceId)
        {
            counters.add(\.duplicates)
            return nil
        }
        let stored: DocumentUploaded
        do {
            stored = try await documents.put(
                OnePiece(bytes: Array(picture.data)), kind: .image, contentType: picture.mediaType, user: device.user,
                namespace: device.namespace)
        } catch let error as MusterError {
            refuse(message.topic, "the picture in \(picture.member) cannot be stored: \(error.message)")
            return nil
        }
        replaced[picture.member] = .object(["document": .string(stored.name)])
        report.body = publication.body(replacing: replaced)
        report.document = stored.name
        return report
    }

    /// What a recorded message holds, acted on; a part the domain refuses is counted, the rest still acted on.
    /// `recordedAt`: the position of the message's `DeviceDataReported`.
    private func act(on publication: DevicePublication, from device: MQTTDevice, recordedAt: UInt64) async {
        if let reply = publication.reply {
            await answer(reply, from: device, recordedAt: recordedAt)
        } else if !publication.otherMembers.isEmpty {
            await answerInstantly(publication, from: device, recordedAt: recordedAt)
        }
        if let location = publication.location {
            await attempt("GPS", device) {
                _ = try await rules.report(
                    RuleEngine.LocationReport(
                        user: device.user, deviceId: device.deviceId, latitude: location.latitude,
                        longitude: location.longitude, namespace: device.namespace))
            }
        }
        for beacon in publication.beacons ?? [] {
            await attempt("Beacons", device) {
                _ = try await rules.report(
                    RuleEngine.BeaconReport(
                        user: device.user, deviceId: device.deviceId, proximityUUID: beacon.uuid.uuidString,
                        major: beacon.major, minor: beacon.minor, rssi: beacon.signalStrength,
                        proximity: beacon.proximity.flatMap { BeaconProximity(rawValue: $0.rawValue) },
                        namespace: device.namespace))
            }
        }
        if let settings = receipt(publication, from: device) {
            await learnTopics(from: settings, of: device)
            receipts.received(settings, from: device)
        }
    }

    /// A publication of another registered phone on this device's topic: recorded (it is already), counted as a
    /// refused part and logged, and acted on not at all — its reply is no answer of this person's (`ReplyRefused`
    /// says why), its location and sightings are not where this person is, its receipt moves nothing.
    private func refuseAll(
        _ publication: DevicePublication, from device: MQTTDevice, sentBy other: MQTTDevice, recordedAt: UInt64
    ) async {
        counters.add(\.refusedParts)
        let reason =
            "a message on the publish topic \(device.publishTopic) of device \(device.deviceId) names iPhoneID "
            + "\(publication.iPhoneID ?? ""), \(other.described(toNamespace: device.namespace)): recorded but not "
            + "acted on (no answer, location, sighting or receipt taken from it); that phone publishes on this "
            + "device's topic: give it a topic of its own"
        logger.warning("MQTT device \(device.deviceId) of \(device.user): \(reason)")
        if let reply = publication.reply {
            await recordRefusedReply(reply.messageID(orLastSent: nil), reason, from: device, recordedAt: recordedAt)
        }
    }

    /// The settings of a receipt the device sent itself; nil (a refused part, logged) when its `iPhoneID` names
    /// another device than the one publishing on this topic: another phone set to this device's publish topic must
    /// neither move this device nor answer a command waiting on it.
    private func receipt(_ publication: DevicePublication, from device: MQTTDevice) -> DeviceSettings? {
        guard let settings = publication.settings else { return nil }
        if let sender = publication.iPhoneID, sender.caseInsensitiveCompare(device.deviceId) != .orderedSame {
            counters.add(\.refusedParts)
            let problem =
                "a settings receipt on its publish topic \(device.publishTopic) names iPhoneID \(sender), another "
                + "device; recorded but not applied (the device keeps its topics, no mqtt settings command is "
                + "answered): that phone publishes on this device's topic; give it a topic of its own"
            logger.warning("MQTT device \(device.deviceId) of \(device.user): \(problem)")
            return nil
        }
        return settings
    }

    /// A receipt names the device's topics now: its first `SubscribeTopic` (where Muster publishes to it) and its
    /// `PublishTopic` (where Muster listens); a change is registered, as `devices register` would.
    private func learnTopics(from settings: DeviceSettings, of device: MQTTDevice) async {
        let subscribe = settings.subscribeTopic?.first ?? device.subscribeTopic
        let publish = settings.publishTopic ?? device.publishTopic
        guard subscribe != device.subscribeTopic || publish != device.publishTopic else { return }
        await attempt("receipt's topics", device) {
            try await directory.register(
                PushTargetRegistered(
                    user: device.user, deviceId: device.deviceId, deviceName: device.deviceName, platform: .mqtt,
                    token: subscribe, publishTopic: publish),
                namespace: device.namespace, actor: "mqtt")
        }
    }

    /// A message with members no part of Muster reads: when one of them is an input field sent with `InstantSender`
    /// in the last DialogMessage the device was given, it is that field's value alone, answering that message.
    private func answerInstantly(_ publication: DevicePublication, from device: MQTTDevice, recordedAt: UInt64) async {
        let lastSent: UUID
        let keys: Set<String>
        do {
            guard
                let id = try devices.lastDialog(
                    namespace: device.namespace, user: device.user, deviceId: device.deviceId),
                let stored = try notifications.message(id: id, user: device.user, namespace: device.namespace)
            else { return }
            let settings = try notifications.dialogSettings(
                messageId: id, user: device.user, namespace: device.namespace)
            guard !settings.instantSender.isEmpty else { return }
            let mapping = DialogMapping(
                payload: Payload.parse(stored.payload), title: nil, body: nil, messageID: id, settings: settings)
            keys = mapping.instantKeys
            lastSent = id
        } catch {
            return logger.warning("MQTT device \(device.deviceId) of \(device.user): no last DialogMessage: \(error)")
        }
        guard publication.otherMembers.contains(where: keys.contains),
            case .success(let read) = DevicePublication.read(publication.body, sizeLimit: sizeLimit, inputKeys: keys),
            let reply = read.reply
        else { return }
        await answer(reply, from: device, recordedAt: recordedAt, lastSent: lastSent)
    }

    /// A reply to a DialogMessage, answered as the person's response (validated like any other); an instant value
    /// answers `lastSent`, the last DialogMessage the device was given. A reply the domain refuses is recorded as
    /// `ReplyRefused`, with why.
    private func answer(_ reply: DialogReply, from device: MQTTDevice, recordedAt: UInt64, lastSent: UUID? = nil)
        async
    {
        let messageId = reply.messageID(orLastSent: lastSent)
        let refusal = await attempt("reply", device) {
            guard let id = messageId else {
                throw MusterError(.invalidArgument, "the reply names no message (musterMessageId)", field: "reply")
            }
            guard
                let stored = try notifications.message(id: id, user: device.user, namespace: device.namespace)
            else {
                throw MusterError(.notFound, "user \(device.user) has no message \(id)", field: "musterMessageId")
            }
            let responder = Responder(
                username: device.user, deviceId: device.deviceId, deviceName: device.deviceName)
            let built = reply.response(answering: Payload.parse(stored.payload), responder: responder)
            _ = try await notifications.respond(
                messageId: id, answers: built.response.values,
                as: Respondent(
                    user: device.user, deviceId: device.deviceId, deviceName: device.deviceName,
                    submitValue: built.response.submitValue, namespace: device.namespace, actor: "mqtt"))
            counters.add(\.responses)
        }
        // A failure of the store (a full disk) is no answer about the reply: only logged.
        guard let refusal, !(refusal is StoreError) else { return }
        let reason = (refusal as? MusterError)?.message ?? "\(refusal)"
        await recordRefusedReply(messageId, reason, from: device, recordedAt: recordedAt)
    }

    /// Records `ReplyRefused`: the reply in the `DeviceDataReported` at `recordedAt` answered nothing, and why.
    private func recordRefusedReply(_ messageId: UUID?, _ reason: String, from device: MQTTDevice, recordedAt: UInt64)
        async
    {
        do {
            try await devices.record(
                ReplyRefused(
                    user: device.user, deviceId: device.deviceId, messageId: messageId, reason: reason,
                    report: recordedAt),
                namespace: device.namespace)
        } catch {
            logger.error("MQTT device \(device.deviceId) of \(device.user): its refused reply not recorded: \(error)")
        }
    }

    /// Runs `body`; what it throws is counted as a refused part, logged and returned.
    @discardableResult
    private func attempt(_ part: String, _ device: MQTTDevice, _ body: () async throws -> Void) async -> (any Error)? {
        do {
            try await body()
            return nil
        } catch {
            counters.add(\.refusedParts)
            logger.warning(
                "MQTT device \(device.deviceId) of \(device.user): its \(part) was recorded but refused: \(error)")
            return error
        }
    }

    private func refuse(_ topic: String, _ reason: String) {
        counters.add(\.refused)
        logger.warning("MQTT message on \(topic) refused: \(reason)")
    }
}

/// The registered devices by id, made when first asked (most messages name their own device, and none is needed).
private struct RegisteredPhones {
    /// Every registered device, by publish topic.
    let routes: [String: MQTTDevice]
    private var byID: [String: [MQTTDevice]]? = nil

    init(routes: [String: MQTTDevice]) { self.routes = routes }

    /// The other registered device a publication's `iPhoneID` names, when that is not the device whose publish topic
    /// it came on: that phone is set to this device's topic, and what it sends is not this person's.
    mutating func other(named iPhoneID: String?, than device: MQTTDevice) -> MQTTDevice? {
        guard let iPhoneID, iPhoneID.caseInsensitiveCompare(device.deviceId) != .orderedSame else { return nil }
        if byID == nil { byID = Dictionary(grouping: routes.values) { $0.deviceId.lowercased() } }
        return byID?[iPhoneID.lowercased()]?.first { !$0.isSameDevice(as: device) }
    }
}

/// One piece of content, as `Documents.put` takes a stream of them.
struct OnePiece: AsyncSequence, Sendable {
    let bytes: [UInt8]

    func makeAsyncIterator() -> Iterator { Iterator(bytes: bytes) }

    struct Iterator: AsyncIteratorProtocol {
        var bytes: [UInt8]?
        mutating func next() async -> [UInt8]? {
            defer { bytes = nil }
            return bytes
        }
    }
}
