import EventLog
import Foundation
import Muster

/// Decoding stored domain event bodies, as every replay and projection rebuild does: Muster's
/// binary codec (`BinaryCoding`, through `Codable`) against reading the same bytes by hand with
/// `ByteReader` into a struct of the same fields, the way each event type read itself before the
/// codec. One thread, no LMDB: the codec's own cost. The rebuild target (≥ 1M events/s) leaves
/// about 1 µs an event for everything.
struct EventDecode: Scenario {
    let name = "event-decode"

    func run(_ settings: Settings, into report: inout ScenarioReport) async throws {
        let budget = settings.seconds
        let location = Self.locationBytes()
        let sent = Self.payloadSentBytes()
        let rates = try await onThread("event-decode") {
            (
                locationCodec: try Self.rate(budget) { try Self.decode(LocationReported.self, location).at },
                locationByHand: try Self.rate(budget) { try Self.locationByHand(location) },
                sentCodec: try Self.rate(budget) {
                    Int64(try Self.decode(PayloadSent.self, sent).recipients.count)
                },
                sentByHand: try Self.rate(budget) { try Self.payloadSentByHand(sent) }
            )
        }
        report.comparisons.append(
            Comparison(
                "LocationReported / by hand",
                figure: Figure(label: "codec", value: rates.locationCodec, unit: "events/s"),
                baseline: Figure(label: "ByteReader by hand", value: rates.locationByHand, unit: "events/s")))
        report.comparisons.append(
            Comparison(
                "PayloadSent / by hand", figure: Figure(label: "codec", value: rates.sentCodec, unit: "events/s"),
                baseline: Figure(label: "ByteReader by hand", value: rates.sentByHand, unit: "events/s")))
        report.notes.append(
            "LocationReported \(location.count) B; PayloadSent \(sent.count) B (400 B payload, 3 recipients)")
    }

    /// Decodes one body after another for `budget` seconds; decodes per second.
    static func rate(_ budget: Double, _ decodeOne: () throws -> Int64) throws -> Double {
        let start = ContinuousClock.now
        var count = 0
        var sink: Int64 = 0
        repeat {
            for _ in 0..<10_000 { sink &+= try decodeOne() }
            count += 10_000
        } while seconds(since: start) < budget
        if sink == .min { print("") }  // keeps the results alive
        return Double(count) / seconds(since: start)
    }

    static func decode<E: DomainEvent>(_ type: E.Type, _ bytes: [UInt8]) throws -> E {
        try bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer)
            return try E(from: &reader)
        }
    }

    static func locationBytes() -> [UInt8] {
        var w = ByteWriter()
        w.write("ada.lovelace")
        w.write("7F3C9A1E-phone")
        w.write(fixed: (48.8566).bitPattern)
        w.write(fixed: (2.3522).bitPattern)
        w.write(true)
        w.write(fixed: (12.5).bitPattern)
        w.write(signed: 1_795_000_000_000_000)
        return w.bytes
    }

    static func payloadSentBytes() -> [UInt8] {
        var w = ByteWriter()
        w.write("operator")
        w.write("Shift check")
        w.write("Are you on site?")
        w.write("")
        w.write(bytes: Array(SampleBody.text(1, size: 400).utf8))
        w.write("/shift/answers")
        w.write(varint: 3)
        for user in ["ada", "bob", "eve"] {
            w.write(user)
            w.write(UUID())
        }
        w.write(false)  // schema 2: no MQTT DialogMessage settings
        return w.bytes
    }

    struct Location {
        var user: String
        var deviceId: String
        var latitude: Double
        var longitude: Double
        var accuracy: Double?
        var at: Int64
    }

    static func locationByHand(_ bytes: [UInt8]) throws -> Int64 {
        try bytes.withUnsafeBytes { buffer in
            var r = ByteReader(buffer)
            let location = Location(
                user: try r.readString("user"), deviceId: try r.readString("device id"),
                latitude: Double(bitPattern: try r.read(fixed: UInt64.self, "latitude")),
                longitude: Double(bitPattern: try r.read(fixed: UInt64.self, "longitude")),
                accuracy: try r.readBool("accuracy flag")
                    ? Double(bitPattern: try r.read(fixed: UInt64.self, "accuracy")) : nil,
                at: try r.readSigned("at"))
            return location.at
        }
    }

    struct Sent {
        var sender: String
        var title: String
        var body: String
        var source: String?
        var payload: [UInt8]
        var responseTopic: String
        var recipients: [(user: String, messageId: UUID)]
    }

    static func payloadSentByHand(_ bytes: [UInt8]) throws -> Int64 {
        try bytes.withUnsafeBytes { buffer in
            var r = ByteReader(buffer)
            var sent = Sent(
                sender: try r.readString("sender"), title: try r.readString("title"), body: try r.readString("body"),
                source: try r.readString("source"), payload: try r.readBytes("payload"),
                responseTopic: try r.readString("response topic"), recipients: [])
            if sent.source?.isEmpty == true { sent.source = nil }
            let count = try r.readVarint("recipient count")
            for _ in 0..<count { sent.recipients.append((try r.readString("user"), try r.readUUID("message id"))) }
            return Int64(sent.recipients.count)
        }
    }
}
