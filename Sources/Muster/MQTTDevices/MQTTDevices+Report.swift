import EventLog
import Foundation
import MusterWire

extension MQTTDevices {
    /// A message a device published, to record.
    public struct Report: Sendable, Hashable {
        public var namespace: String
        public var user: String
        public var deviceId: String
        /// The topic it came on.
        public var topic: String
        /// Its JSON text, as received.
        public var body: [UInt8]
        /// The document a picture in it was stored as, when one was.
        public var document: String?
        /// The hash of the message as it arrived, when `body` is not that (a picture taken out and stored as
        /// `document`); nil: the hash of `topic` and `body`.
        public var contentHash: String?

        public init(
            user: String, deviceId: String, topic: String, body: [UInt8], document: String? = nil,
            contentHash: String? = nil, namespace: String = Names.defaultNamespace
        ) {
            self.contentHash = contentHash
            self.namespace = namespace
            self.user = user
            self.deviceId = deviceId
            self.topic = topic
            self.body = body
            self.document = document
        }
    }

    /// What became of a report.
    public enum Outcome: Sendable, Hashable {
        /// Recorded as the `DeviceDataReported` at this position.
        case recorded(position: UInt64)
        /// The same message from the same device on the same topic was recorded within the window, at this
        /// position: a redelivery, not recorded again.
        case duplicate(of: UInt64)
        /// Not recorded: the message or its device breaks a rule (the error names the argument).
        case refused(MusterError)
    }

    /// Records a message a device published, unless it is a redelivery (`.duplicate`). Throws the refusal when
    /// the device is not a registered `mqtt` device of the user, the topic is not an exact MQTT topic, the body is
    /// not JSON or the document does not exist.
    @discardableResult
    public func report(_ report: Report, actor: String = "mqtt") async throws -> Outcome {
        let outcome = try await self.report([report], actor: actor)[0]
        if case .refused(let error) = outcome { throw error }
        return outcome
    }

    /// Records a batch of messages in one write: each that is not a redelivery of one recorded within the window
    /// (or of an earlier one of the batch) and breaks no rule. One outcome per report, in order.
    public func report(_ reports: [Report], actor: String = "mqtt") async throws -> [Outcome] {
        try await submit(reports, actor: actor).value
    }

    /// `report`, handed to the writer before this returns: batches submitted one after the other are recorded in
    /// that order (and each sees the ones before it as remembered) while the caller reads the next.
    public func submit(_ reports: [Report], actor: String = "mqtt") -> PendingWrite<[Outcome]> {
        // Checks that need no stored state, and the hashes, here rather than on the writer thread.
        let prepared = reports.map { report in
            Result { () throws(MusterError) -> DeviceDataReported in try Self.event(for: report) }
        }
        let window = MQTTDevicesProjection.microseconds(duplicateWindow)
        return log.submit { [recent] scope in
            let devices = try scope.mqttDevices
            return try recent.following(devices.state) { index in
                try Self.record(
                    reports, prepared, actor: actor, devices: devices, remembered: &index, since: scope.now - window,
                    scope)
            }
        }
    }

    /// `report` on the writer; `remembered`: the messages the projection remembers, as of `scope`.
    private static func record(
        _ reports: [Report], _ prepared: [Result<DeviceDataReported, MusterError>], actor: String,
        devices: ProjectionView<MQTTDevicesProjection>, remembered: inout RecentMessages.Index, since: Int64,
        _ scope: WriteScope
    ) throws -> [Outcome] {
        var outcomes: [Outcome?] = Array(repeating: nil, count: reports.count)
        // Where each new event goes: its stream's request, and its index there.
        var requests: [AppendRequest] = []
        var requestOfStream: [String: Int] = [:]
        var placed: [(request: Int, event: Int, message: RecentMessages.Message)?] = Array(
            repeating: nil, count: reports.count)
        var firstInBatch: [RecentMessages.Message: Int] = [:]
        var duplicateOf: [Int: Int] = [:]
        for (i, report) in reports.enumerated() {
            let event: DeviceDataReported
            switch prepared[i] {
            case .failure(let error):
                outcomes[i] = .refused(error)
                continue
            case .success(let prepared): event = prepared
            }
            do {
                try check(report, devices: devices, in: scope)
            } catch let error as MusterError {
                outcomes[i] = .refused(error)
                continue
            }
            let message = RecentMessages.Message(
                device: Key.joined(report.namespace, report.user, report.deviceId), contentHash: event.contentHash.utf8)
            if let first = firstInBatch[message] {
                duplicateOf[i] = first
                continue
            }
            if let earlier = remembered.find(message), earlier.recordedAt > since {
                outcomes[i] = .duplicate(of: earlier.position)
                continue
            }
            firstInBatch[message] = i
            let stream = Streams.device(report.deviceId)
            let request: Int
            if let known = requestOfStream["\(report.namespace)\u{0}\(stream)"] {
                request = known
            } else {
                request = requests.count
                requestOfStream["\(report.namespace)\u{0}\(stream)"] = request
                requests.append(AppendRequest(namespace: report.namespace, stream: stream, events: []))
            }
            placed[i] = (request, requests[request].events.count, message)
            requests[request].events.append(event.newEvent(actor: actor))
        }
        let positions = try requests.map { try scope.append($0).positions }
        var appended: [(position: UInt64, message: RecentMessages.Message)] = []
        for (i, place) in placed.enumerated() {
            guard let place else { continue }
            let position = positions[place.request][place.event]
            outcomes[i] = .recorded(position: position)
            appended.append((position, place.message))
        }
        for entry in appended.sorted(by: { $0.position < $1.position }) {
            remembered.add(entry.message, position: entry.position, recordedAt: scope.now)
        }
        try remembered.caughtUp(with: devices.state)
        for (i, first) in duplicateOf {
            guard case .recorded(let position) = outcomes[first] else { continue }
            outcomes[i] = .duplicate(of: position)
        }
        return outcomes.map { $0! }
    }

    /// The event a report records, once its topic and body pass the rules.
    static func event(for report: Report) throws(MusterError) -> DeviceDataReported {
        try MQTTTopic.validate(report.topic, as: "topic")
        do {
            _ = try JSONScanner.scan(report.body)
        } catch {
            throw MusterError(.invalidArgument, "body is not JSON: \(error)", field: "body")
        }
        if let document = report.document, document.isEmpty {
            throw MusterError(
                .invalidArgument, "document must not be empty: name the stored picture or give none",
                field: "document")
        }
        return DeviceDataReported(
            user: report.user, deviceId: report.deviceId, topic: report.topic, body: report.body,
            contentHash: report.contentHash ?? DeviceDataReported.contentHash(topic: report.topic, body: report.body),
            document: report.document)
    }

    /// Refuses (`MusterError`) a report from a device that is not a registered `mqtt` device of its user, or
    /// naming a document that does not exist.
    static func check(_ report: Report, devices: ProjectionView<MQTTDevicesProjection>, in scope: WriteScope) throws {
        guard try devices.hasDevice(user: report.user, deviceId: report.deviceId, namespace: report.namespace) else {
            throw MusterError(
                .notFound,
                "deviceId: user \(String(reflecting: report.user)) has no mqtt device "
                    + "\(String(reflecting: report.deviceId)) in namespace \(report.namespace); register it "
                    + "(muster devices register --platform mqtt --token SUBSCRIBE_TOPIC --publish-topic TOPIC)",
                field: "deviceId")
        }
        if let document = report.document, try scope.documents.document(document, namespace: report.namespace) == nil {
            throw MusterError(
                .notFound,
                "document \(String(reflecting: document)) does not exist in namespace \(report.namespace); "
                    + "store the picture first",
                field: "document")
        }
    }
}
