import EventLog
import EventLogTesting
import Foundation

/// Blob ingest at zstd level 3 in 1 MiB chunks, on a compressible (JSON-like) and an incompressible
/// (random) file, against the `zstd -3` CLI on the same file and libzstd called in process.
struct BlobIngest: Scenario {
    let name = "blob-ingest"

    /// Muster's blob ingest: streams `file` into the blob store of a log opened on `dataDirectory`.
    static let musterIngest: (@Sendable (_ dataDirectory: URL, _ file: URL) async throws -> Void)? = {
        dataDirectory, file in
        let log = try EventLog(directory: dataDirectory)
        defer { log.close() }
        _ = try await log.blobs.put(contentsOf: file)
    }

    func run(_ settings: Settings, into report: inout ScenarioReport) async throws {
        let directory = try TemporaryDirectory("bench-blob")
        defer { settings.discard(directory) }
        let size = settings.blobMegabytes << 20
        let zstd = ExternalCommand.find("zstd")
        if zstd == nil { report.notes.append("skipped: zstd CLI not installed (apt-get install zstd)") }
        for (kind, data) in [("compressible", SampleData.jsonLines(size)), ("incompressible", SampleData.random(size))]
        {
            let file = directory.url.appendingPathComponent("\(kind).bin")
            try Data(data).write(to: file)
            var baseline: Figure?
            if let zstd {
                let output = directory.url.appendingPathComponent("\(kind).zst")
                let seconds = try await onThread("zstd") {
                    try ExternalCommand(zstd, ["-3", "-q", "-f", "-o", output.path, file.path]).run().seconds
                }
                baseline = Figure(label: "zstd -3 CLI", value: Double(size) / 1e6 / seconds, unit: "MB/s")
                try? FileManager.default.removeItem(at: output)
            }
            let library = try await onThread("libzstd") { try ZstdLibrary.compress(data) }
            report.context.append(
                Figure(label: "\(kind): libzstd level 3, 1 MiB chunks", value: library.megabytesPerSecond, unit: "MB/s")
            )
            report.context.append(
                Figure(
                    label: "\(kind): compression ratio", value: Double(size) / Double(max(1, library.compressed)),
                    unit: "×"))
            if kind == "compressible" {
                let decompress = try await onThread("libzstd") { try ZstdLibrary.decompress(data) }
                report.context.append(Figure(label: "\(kind): libzstd decompress", value: decompress, unit: "MB/s"))
            }
            try await compare(kind, file: file, size: size, baseline: baseline, into: &report)
            try? FileManager.default.removeItem(at: file)
        }
        report.notes.append("\(settings.blobMegabytes) MiB per file; zstd \(ZstdLibrary.version)")
    }

    private func compare(_ kind: String, file: URL, size: Int, baseline: Figure?, into report: inout ScenarioReport)
        async throws
    {
        let name = "blob \(kind) / zstd -3"
        guard let musterIngest = Self.musterIngest else {
            report.comparisons.append(
                Comparison(
                    name, figure: nil, baseline: baseline, status: "pending: muster blob store not on this branch"))
            return
        }
        let store = try TemporaryDirectory("bench-blob-store")
        defer { store.remove() }
        let start = ContinuousClock.now
        try await musterIngest(store.url, file)
        let figure = Figure(label: "muster ingest", value: Double(size) / 1e6 / seconds(since: start), unit: "MB/s")
        report.comparisons.append(Comparison(name, figure: figure, baseline: baseline))
    }
}
