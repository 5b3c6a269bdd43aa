import ArgumentParser
import EventLog
import Foundation
import MusterWire

/// `muster checkpoint`: the head of the commit chain, optionally signed; with `--check`, a saved one checked.
struct CheckpointCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkpoint",
        abstract: "Print the head of the commit hash chain (optionally signed), or check a saved checkpoint.",
        discussion: """
            Every commit's hash chains to the one before. Keep the output of `muster checkpoint --json` apart \
            from the data directory; `muster checkpoint --check FILE` later recomputes the chain from the events \
            and proves the log was not rewritten up to that position. --sign-key FILE signs position and hash with \
            an Ed25519 or P-256 private key in PEM (the file must be readable by its owner only); the output holds \
            the signature and the public key, never the private key. Exit status 1 when a check fails.
            """)

    @OptionGroup var data: DataOptions
    @Option(name: .customLong("sign-key"), help: "PEM private key (Ed25519 or P-256, mode 0600) to sign with.")
    var signKey: String?
    @Option(help: "A checkpoint saved from `muster checkpoint --json`, to check against the log.")
    var check: String?
    @Option(name: .customLong("trusted-key"), help: "With --check: PEM public key the checkpoint must be signed by.")
    var trustedKey: String?
    @Flag(help: "Print the checkpoint (or the check) as JSON.") var json = false

    /// In `run`, not `validate`: the parser would print a failure thrown from `validate` as a debug dump, exit 1.
    private func checkOptions() throws {
        if check != nil, signKey != nil {
            throw CommandFailure.invalid("--sign-key signs a new checkpoint; it cannot be used with --check")
        }
        if check == nil, trustedKey != nil {
            throw CommandFailure.invalid("--trusted-key needs --check FILE: it names who must have signed it")
        }
    }

    func run() async throws {
        try checkOptions()
        let log = try data.open()
        defer { log.close() }
        if let check {
            try await checkSaved(URL(fileURLWithPath: check), log)
            return
        }
        var checkpoint = try log.checkpoint()
        if let signKey {
            checkpoint = try checkpoint.signed(with: try CheckpointKey.load(from: URL(fileURLWithPath: signKey)))
        }
        if json { return try Output.json(checkpoint) }
        Output.table(
            ["position", "hash", "taken"],
            [["\(checkpoint.position)", checkpoint.hash, checkpoint.createdAt.formatted(.iso8601)]])
        if let signature = checkpoint.signature {
            Output.line("signature (\(signature.algorithm.rawValue)): \(signature.value)")
            Output.line(signature.publicKey.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    private func checkSaved(_ file: URL, _ log: EventLog) async throws {
        guard let saved = FileManager.default.contents(atPath: file.path) else {
            throw CommandFailure.invalid("cannot read checkpoint file \(file.path)")
        }
        let checkpoint: Checkpoint
        do {
            checkpoint = try MusterJSON.decoder().decode(Checkpoint.self, from: saved)
        } catch {
            throw CommandFailure.invalid(
                "\(file.path) is not a checkpoint written by `muster checkpoint --json` (\(error))")
        }
        let trusted = try trustedKey.map { path -> String in
            guard let pem = FileManager.default.contents(atPath: path) else {
                throw CommandFailure.invalid("cannot read trusted key file \(path)")
            }
            return String(decoding: pem, as: UTF8.self)
        }
        let result = try await log.check(checkpoint, trustedKey: trusted)
        if json {
            try Output.json(result)
        } else {
            for problem in result.problems { Output.line("problem: \(problem)") }
            if result.isValid {
                let signed = result.signatureValid == true ? "; signature valid" : "; not signed"
                Output.line(
                    "ok: the log passes through position \(result.position) with hash \(result.hash) (\(result.linksChecked) links recomputed\(signed))"
                )
            }
        }
        guard result.isValid else {
            let problems = result.problems.count == 1 ? "1 problem" : "\(result.problems.count) problems"
            throw CommandFailure.failed(
                "checkpoint \(file.path) does not hold for \(log.directory.path): \(problems); see the report above")
        }
    }
}
