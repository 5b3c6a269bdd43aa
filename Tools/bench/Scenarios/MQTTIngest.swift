import EventLog
import EventLogTesting
import Foundation
import Logging
import MQTT
import MQTTBridge
import MQTTTesting
import Muster
import Synchronization

/// `mqtt-ingest`: 1,000 MQTT devices publishing the MQTT Connect app's sensor values (seed 001) with QoS 1 through
/// a local mosquitto into the MQTT bridge as `muster serve --mqtt` runs it, timed from the first publish until the
/// last `DeviceDataReported` is committed; against a raw libmosquitto subscriber (`MQTTClient`, a handler that only
/// counts) taking the same number of messages from the same publishers through the same broker, in the same run.
/// Target: ≥ 20,000 messages/s durable, ≥ ×0.5 of the raw subscriber.
///
/// The two sides run one after the other, the raw subscriber first, each alone with the broker and both cores:
/// run at once, the raw subscriber and the broker's second copy of every message would take CPU from Muster's
/// writer, and a raw subscriber that finishes early would leave Muster alone for the rest — the ratio would
/// compare different loads. Both subscribers connect alike (MQTT 5, a persistent session, the client's default
/// receive maximum, acknowledging each batch after their handler returned).
struct MQTTIngest: Scenario {
    let name = "mqtt-ingest"
    static let devices = 1_000
    /// libmosquitto connections that publish on the devices' topics: 1,000 connections, each with its own network
    /// thread, would starve 2 cores; each publisher takes every `publishers`-th device.
    static let publishers = 4
    /// QoS 1 publishes each publisher keeps awaiting their PUBACK.
    static let inFlight = 200
    static let targetRate = 20_000.0
    static let targetRatio = 0.5

    func run(_ settings: Settings, into report: inout ScenarioReport) async throws {
        let messages = settings.mqttMessages
        let directory = try TemporaryDirectory("bench-mqtt")
        defer { settings.discard(directory) }
        let commits = CommitTally()
        var configuration = EventLog.Configuration()
        configuration.projections += MusterDomain.projections
        configuration.commitObserver = { commits.observe($0) }
        let log = try EventLog(directory: directory.url, configuration: configuration)
        defer { log.close() }

        let setUp = ContinuousClock.now
        try await SendToAll.createUsers(Self.devices, in: log)
        try await Self.registerDevices(in: log)
        let bridgePassword = UUID().uuidString
        let devicePassword = UUID().uuidString
        let broker = try await MQTTBroker(
            users: [
                .everything(name: "muster", password: bridgePassword),
                MQTTBrokerUser(name: "devices", password: devicePassword, write: ["bench/dev/+/out"]),
            ],
            // No queue limit (the default 1,000 would drop QoS 1 messages while Muster is behind), no in-flight
            // limit (the subscribers' receive maximum governs), no log line per message.
            settings: [
                "max_queued_messages 0", "max_inflight_messages 0", "log_type none", "log_type error",
                "log_type warning",
            ])
        report.context.append(
            Figure(label: "set-up, not timed (users, devices, broker)", value: seconds(since: setUp), unit: "s"))
        do {
            try await measure(messages, settings: settings, broker: broker, log: log, commits: commits, into: &report)
        } catch {
            await broker.stop()
            throw error
        }
        await broker.stop()
    }

    private func measure(
        _ messages: Int, settings: Settings, broker: MQTTBroker, log: EventLog, commits: CommitTally,
        into report: inout ScenarioReport
    ) async throws {
        let publishers = try await Publishers.connect(broker)
        do {
            let raw = try await Self.rawSubscriber(
                messages, broker: broker, receiveMaximum: settings.mqttReceiveMaximum, publishers: publishers)
            let muster = try await Self.bridge(
                messages, broker: broker, receiveMaximum: settings.mqttReceiveMaximum, log: log, commits: commits,
                publishers: publishers)
            await publishers.close()
            let receiveMaximum =
                settings.mqttReceiveMaximum ?? MQTTConfiguration(host: "127.0.0.1", clientID: "default").receiveMaximum
            Self.add(raw: raw, muster: muster, messages: messages, receiveMaximum: receiveMaximum, into: &report)
        } catch {
            await publishers.close()
            throw error
        }
    }

    /// The baseline: a client that only counts, subscribed to every device's topic with one wildcard filter.
    private static func rawSubscriber(
        _ messages: Int, broker: MQTTBroker, receiveMaximum: Int?, publishers: Publishers
    ) async throws -> Phase {
        let counter = ArrivalCounter(target: messages)
        var connection = try bridgeConnection(broker, clientID: "bench-raw-subscriber", receiveMaximum: receiveMaximum)
        // The session ends with the connection, so nothing is queued for it while Muster is measured.
        connection.session = .persistent(expiry: .zero)
        let subscriber = try MQTTClient(connection, logger: quietLogger) { batch in counter.add(batch.count) }
        do {
            try await subscriber.connect()
            try await subscriber.subscribe(["bench/dev/+/out"])
            let payloads = sensorValues(messages, from: 0)
            let start = ContinuousClock.now
            let published = try await publishers.publish(payloads)
            let done = try await counter.wait(deadline: start + timeout(messages))
            let counters = subscriber.counters
            await subscriber.shutdown()
            return Phase(
                seconds: seconds(from: start, to: done), publishedSeconds: seconds(from: start, to: published),
                batches: counters.batchesHandled, messages: counters.messagesReceived)
        } catch {
            await subscriber.shutdown()
            throw error
        }
    }

    /// Muster: the bridge as `muster serve --mqtt` runs it, until the writer committed every message's event.
    private static func bridge(
        _ messages: Int, broker: MQTTBroker, receiveMaximum: Int?, log: EventLog, commits: CommitTally,
        publishers: Publishers
    ) async throws -> Phase {
        let connection = try bridgeConnection(broker, clientID: "muster", receiveMaximum: receiveMaximum)
        let bridge = MQTTBridge(
            log: log, options: MQTTBridgeOptions(connection: connection),
            rules: RuleEngine(log: log), logger: quietLogger)
        let running = Task { try await bridge.run() }
        do {
            try await waitUntil("the bridge subscribed to all \(devices) device topics", seconds: 30) {
                bridge.status.subscriptions.count == devices
            }
            let payloads = sensorValues(messages, from: messages)
            let head = try log.read { $0.head }
            commits.arm(target: messages)
            let start = ContinuousClock.now
            let published = try await publishers.publish(payloads)
            let done = try await commits.wait(deadline: start + timeout(messages))
            let tally = commits.disarm()
            // The bridge counts a batch once its write returned, just after the commit.
            try await waitUntil("the bridge to count \(messages) messages recorded", seconds: 10) {
                bridge.status.counts.recorded >= messages
            }
            let counts = bridge.status.counts
            running.cancel()
            try await running.value
            let recorded = try log.read { $0.head } - head
            guard counts.recorded == messages, counts.duplicates == 0, counts.refused == 0, recorded == messages
            else {
                throw BenchError.command(
                    "the bridge recorded \(counts.recorded) (log: \(recorded) events), \(counts.duplicates) "
                        + "duplicates, \(counts.refused) refused of \(messages) messages")
            }
            return Phase(
                seconds: seconds(from: start, to: done), publishedSeconds: seconds(from: start, to: published),
                batches: tally.jobs, messages: Int(tally.events), commits: tally.commits,
                commitSeconds: tally.commitTime)
        } catch {
            running.cancel()
            _ = try? await running.value
            throw error
        }
    }

    private static func add(
        raw: Phase, muster: Phase, messages: Int, receiveMaximum: Int, into report: inout ScenarioReport
    ) {
        let rate = Double(messages) / muster.seconds
        let rawRate = Double(messages) / raw.seconds
        report.comparisons.append(
            Comparison(
                "MQTT ingest, \(Figure.grouped(Double(devices))) devices, QoS 1, \(Figure.grouped(Double(messages))) msgs",
                figure: Figure(label: "muster, until the last DeviceDataReported", value: rate, unit: "msgs/s"),
                baseline: Figure(label: "raw libmosquitto subscriber, counting", value: rawRate, unit: "msgs/s")))
        report.context.append(
            Figure(
                label: "publishers done (muster run)", value: Double(messages) / muster.publishedSeconds, unit: "msgs/s"
            ))
        report.context.append(
            Figure(label: "publishers done (raw run)", value: Double(messages) / raw.publishedSeconds, unit: "msgs/s"))
        report.context.append(
            Figure(label: "muster, mean batch per handler call", value: muster.meanBatch, unit: "msgs"))
        report.context.append(
            Figure(label: "raw subscriber, mean batch per handler call", value: raw.meanBatch, unit: "msgs"))
        report.context.append(
            Figure(label: "writer commits", value: Double(muster.commits), unit: "commits"))
        report.context.append(
            Figure(label: "writer, mean commit time", value: muster.meanCommitMilliseconds, unit: "ms"))
        report.context.append(
            Figure(
                label: "writer busy (sum of commit times / wall time)",
                value: 100 * muster.commitSeconds / muster.seconds, unit: "%"))
        let ratio = rate / rawRate
        let met = rate >= targetRate && ratio >= targetRatio
        report.notes.append(
            String(
                format: "%.2f s until the last event was committed (publishers done after %.2f s); raw subscriber "
                    + "%.2f s; ×%.2f; ", muster.seconds, muster.publishedSeconds, raw.seconds, ratio)
                + "target ≥ 20,000 msgs/s durable and ≥ ×0.5: \(met ? "met" : "not met")")
        report.notes.append(
            String(
                format: "the handler saw %.1f messages per batch (raw subscriber %.1f; at most %d, half the receive "
                    + "maximum); one write per batch, %.2f ms per commit on average",
                muster.meanBatch, raw.meanBatch, max(1, receiveMaximum / 2), muster.meanCommitMilliseconds))
        report.notes.append(
            "\(publishers) publisher connections publish on the \(devices) devices' topics in turn "
                + "(\(inFlight) QoS 1 publishes in flight each): \(devices) libmosquitto connections, a thread each, "
                + "would starve 2 cores; raw subscriber first, then Muster, each alone with the broker")
        report.notes.append(
            "sensor values without GPS or Beacons (those would also go to the rule engine, one write each)")
    }

    /// Registers one `mqtt` device for each user `user0`…, publishing on `bench/dev/N/out`, through the domain.
    static func registerDevices(in log: EventLog) async throws {
        let directory = Directory(log: log)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<devices {
                if n >= 64 { try await group.next() }
                group.addTask {
                    try await directory.register(
                        PushTargetRegistered(
                            user: "user\(n)", deviceId: "bench-device-\(n)", deviceName: "Bench \(n)",
                            platform: .mqtt, token: "bench/dev/\(n)/in", publishTopic: "bench/dev/\(n)/out"),
                        actor: "bench")
                }
            }
            try await group.waitForAll()
        }
    }

    /// `count` sensor value messages (seed 001's shape), the n-th for device `n % devices`, each with its own
    /// `Timestamp` from `first` on, so none is a redelivery of another.
    static func sensorValues(_ count: Int, from first: Int) -> [(topic: String, payload: [UInt8])] {
        (0..<count).map { n in
            let tilt = Double(n % 90) / 100
            let json = """
                {"Timestamp":\(first + n),"Proximity":false,"Battery":\(n % 100),\
                "Acceleration":{"LinearX":\(tilt),"LinearY":0.0,"LinearZ":-1.0},\
                "Altitude":{"Pressure":96.5,"Relative":0.0},\
                "Gravity":{"GravityX":0.0,"GravityY":\(-tilt),"GravityZ":-0.99},\
                "Magneticfield":{"AxisX":12.5,"AxisY":-3.25,"AxisZ":40.0},\
                "Orientation":{"Roll":\(tilt),"Yaw":1.5,"Pitch":0.25},\
                "Rotation":{"RotationRoll":3,"RotationYaw":2,"RotationPitch":-2}}
                """
            return ("bench/dev/\(n % devices)/out", Array(json.utf8))
        }
    }

    /// How `muster serve --mqtt URL --mqtt-user muster` connects, with the broker's password for `muster`; the
    /// receive maximum when one is given.
    static func bridgeConnection(_ broker: MQTTBroker, clientID: String, receiveMaximum: Int?) throws
        -> MQTTConfiguration
    {
        var connection = try MQTTConfiguration(
            url: broker.url, clientID: clientID, userName: "muster",
            password: broker.users.first { $0.name == "muster" }?.password)
        if let receiveMaximum {
            connection.receiveMaximum = receiveMaximum
            connection.batchLimit = max(1, receiveMaximum / 2)
        }
        return connection
    }

    /// At least a minute, or 1 ms per message.
    static func timeout(_ messages: Int) -> Duration { .seconds(max(60, messages / 1000)) }

    static var quietLogger: Logger {
        var logger = Logger(label: "bench.mqtt")
        logger.logLevel = .error
        return logger
    }
}

/// What one side measured.
private struct Phase {
    /// From the first publish until the last message was counted (raw) or committed (Muster).
    var seconds: Double
    /// From the first publish until the last PUBACK reached the publishers.
    var publishedSeconds: Double
    /// Handler calls (raw) or write jobs (Muster: one per handler call).
    var batches: Int
    var messages: Int
    var commits = 0
    var commitSeconds = 0.0

    var meanBatch: Double { batches == 0 ? 0 : Double(messages) / Double(batches) }
    var meanCommitMilliseconds: Double { commits == 0 ? 0 : 1000 * commitSeconds / Double(commits) }
}

/// The devices' side: a few connections that publish every device's messages with QoS 1.
private struct Publishers {
    let clients: [MQTTClient]

    static func connect(_ broker: MQTTBroker) async throws -> Publishers {
        var clients: [MQTTClient] = []
        do {
            for p in 0..<MQTTIngest.publishers {
                let client = try MQTTClient(
                    broker.configuration(user: "devices", clientID: "bench-devices-\(p)", session: .clean),
                    logger: MQTTIngest.quietLogger
                ) { _ in }
                clients.append(client)
                try await client.connect()
            }
        } catch {
            for client in clients { await client.shutdown() }
            throw error
        }
        return Publishers(clients: clients)
    }

    /// Publishes every message (publisher `p` takes messages `p`, `p + publishers`, …, so each device's messages
    /// come from one connection, in order) and returns when the broker acknowledged the last.
    func publish(_ messages: [(topic: String, payload: [UInt8])]) async throws -> ContinuousClock.Instant {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (p, client) in clients.enumerated() {
                group.addTask {
                    try await withThrowingTaskGroup(of: Void.self) { inFlight in
                        var started = 0
                        for n in stride(from: p, to: messages.count, by: clients.count) {
                            if started >= MQTTIngest.inFlight { try await inFlight.next() }
                            started += 1
                            let message = messages[n]
                            inFlight.addTask {
                                try await client.publish(
                                    topic: message.topic, payload: message.payload, qos: .atLeastOnce,
                                    timeout: .seconds(60))
                            }
                        }
                        try await inFlight.waitForAll()
                    }
                }
            }
            try await group.waitForAll()
        }
        return ContinuousClock.now
    }

    func close() async {
        for client in clients { await client.shutdown() }
    }
}

/// Counts what the raw subscriber's handler got; notes when the target was reached.
private final class ArrivalCounter: Sendable {
    private let state = Mutex<(count: Int, reached: ContinuousClock.Instant?)>((0, nil))
    let target: Int

    init(target: Int) { self.target = target }

    func add(_ count: Int) {
        state.withLock { state in
            state.count += count
            if state.reached == nil, state.count >= target { state.reached = .now }
        }
    }

    func wait(deadline: ContinuousClock.Instant) async throws -> ContinuousClock.Instant {
        try await waitFor(deadline: deadline, "the raw subscriber to receive \(target) messages") {
            state.withLock { $0.reached }
        }
    }
}

/// Sums the writer's commits while armed, and notes when their events reached the target.
final class CommitTally: Sendable {
    struct Tally {
        var armed = false
        var target = 0
        var events: UInt64 = 0
        var jobs = 0
        var commits = 0
        var commitTime = 0.0
        var reached: ContinuousClock.Instant?
    }
    private let state = Mutex(Tally())

    func observe(_ commit: EventLog.Commit) {
        state.withLock { tally in
            guard tally.armed else { return }
            tally.events += commit.events
            tally.jobs += commit.jobs
            tally.commits += 1
            tally.commitTime +=
                Double(commit.duration.components.attoseconds) / 1e18
                + Double(commit.duration.components.seconds)
            if tally.reached == nil, tally.events >= UInt64(tally.target) { tally.reached = .now }
        }
    }

    func arm(target: Int) { state.withLock { $0 = Tally(armed: true, target: target) } }

    func disarm() -> Tally {
        state.withLock { tally in
            tally.armed = false
            return tally
        }
    }

    func wait(deadline: ContinuousClock.Instant) async throws -> ContinuousClock.Instant {
        try await waitFor(deadline: deadline, "the writer to commit the messages' events") {
            state.withLock { $0.reached }
        }
    }
}

/// Polls `condition` every millisecond until it gives a value, or throws when `deadline` passed.
private func waitFor<T>(
    deadline: ContinuousClock.Instant, _ what: String, _ condition: () -> T?
) async throws -> T {
    while ContinuousClock.now < deadline {
        if let value = condition() { return value }
        try await Task.sleep(for: .milliseconds(1))
    }
    throw BenchError.command("timed out waiting for \(what)")
}

private func waitUntil(_ what: String, seconds: Int, _ condition: () -> Bool) async throws {
    _ = try await waitFor(deadline: .now + .seconds(seconds), what) { condition() ? true : nil }
}

private func seconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Double {
    let elapsed = start.duration(to: end)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}
