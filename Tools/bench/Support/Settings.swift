import EventLogTesting
import Foundation

/// Sizes and durations every scenario reads; `--smoke` shrinks them all.
struct Settings: Sendable {
    /// How long each timed loop runs.
    var seconds: Double
    /// Events in the rebuild scenario's log.
    var events: Int
    /// Size the backup scenario fills its data directory to.
    var backupMegabytes: Int
    /// Size of each file the blob scenario compresses.
    var blobMegabytes: Int
    /// Concurrent appenders in the durable-append scenario.
    var appenders: Int
    /// Bytes of each event body.
    var bodySize: Int
    var smoke: Bool
    /// Keep the temporary data directories for inspection (`mdb_stat -ae DIR`) instead of removing them.
    var keepData = false
    /// Users in the push-fanout scenario, one Web Push target each.
    var users = 100_000
    /// HTTP/1 connections to the endpoint in push-fanout, the same on both sides; nil: the provider's default.
    var connections: Int?
    /// Messages the devices publish in mqtt-ingest, for each of its two sides.
    var mqttMessages = 100_000
    /// The MQTT 5 receive maximum of both subscribers in mqtt-ingest (the largest batch a handler gets); nil: the
    /// client's default, as `muster serve --mqtt` connects.
    var mqttReceiveMaximum: Int?
    /// Length of the soak in minutes, its warm-up included.
    var minutes = 10.0

    /// Removes a scenario's temporary directory, or names it when `keepData` is set.
    func discard(_ directory: TemporaryDirectory) {
        if keepData {
            FileHandle.standardError.write(Data("bench: kept \(directory.url.path)\n".utf8))
        } else {
            directory.remove()
        }
    }
}
