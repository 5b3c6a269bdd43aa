import Foundation

/// What `EventLog.check(_:)` found for one checkpoint. Valid when `problems` is empty.
public struct CheckpointCheck: Codable, Sendable, Hashable {
    /// The checkpoint's position.
    public var position: UInt64
    /// The checkpoint's hash.
    public var hash: String
    /// Links recomputed from the events, from the first up to the checkpoint's.
    public var linksChecked: UInt64
    /// True when the checkpoint carries a signature and it is valid; false when it carries one that is not;
    /// nil when unsigned.
    public var signatureValid: Bool?
    /// What is wrong, each naming positions; empty when the log still passes through the checkpoint.
    public var problems: [String]

    /// True when the chain passes through the checkpoint and its signature (if any) is valid.
    public var isValid: Bool { problems.isEmpty }
}

extension EventLog {
    /// The head of the commit chain now, as a checkpoint to keep elsewhere (unsigned; see `Checkpoint.signed`).
    ///
    /// Throws `.notFound` when the log has no events yet and `.olderFormat` when it has no chain (migrate).
    public func checkpoint() throws -> Checkpoint {
        let tables = core.tables
        let head = try core.environment.read { txn -> CommitChain.Link? in
            guard let commits = try tables.commits(in: txn) else {
                guard try LogReading(tables: tables, txn: txn).head() == 0 else {
                    throw StoreError(
                        .olderFormat, "the log has no commit chain: it was written before format 2", remedy: .migrate)
                }
                return nil
            }
            return try CommitChain.head(commits, in: txn)
        }
        guard let head else {
            throw StoreError(.notFound, "the log has no events yet; a checkpoint records the head of at least one")
        }
        return Checkpoint(position: head.last, hash: head.hashHex, createdAt: Date())
    }

    /// Checks that the log still passes through `checkpoint`: every link from the first up to the one ending
    /// at its position recomputes from the stored events, that link's hash is the checkpoint's, and its
    /// signature (when signed) is valid — and, given `trustedKey` (a PEM public key), made with that key.
    public func check(_ checkpoint: Checkpoint, trustedKey: String? = nil) async throws -> CheckpointCheck {
        let core = self.core
        return try await BlockingWork.run("checkpoint check") {
            var result = CheckpointCheck(
                position: checkpoint.position, hash: checkpoint.hash, linksChecked: 0, signatureValid: nil,
                problems: [])
            if checkpoint.signedBytes == nil {
                result.problems.append("the checkpoint's hash is not 64 hex digits")
            }
            let walk = try core.environment.read { txn in
                try ChainIntegrityCheck(tables: core.tables, txn: txn).run(through: checkpoint.position)
            }
            result.linksChecked = walk.links
            result.problems += walk.problems
            if let link = walk.head, link.last == checkpoint.position, link.hashHex != checkpoint.hash.lowercased() {
                result.problems.append(
                    "the chain passes position \(checkpoint.position) with hash \(link.hashHex), not the checkpoint's \(checkpoint.hash): the log was rewritten up to there"
                )
            }
            result.signatureValid = try checkpoint.signatureIsValid()
            if result.signatureValid == false {
                result.problems.append("the checkpoint's signature does not match its position and hash")
            }
            if let trustedKey {
                try checkSigner(of: checkpoint, against: trustedKey, &result)
            }
            return result
        }
    }
}

/// Notes a problem when `checkpoint` is unsigned or signed by another key than `trustedKey`.
private func checkSigner(of checkpoint: Checkpoint, against trustedKey: String, _ result: inout CheckpointCheck) throws
{
    guard let signature = checkpoint.signature else {
        result.problems.append("the checkpoint is not signed, but a trusted key was given")
        return
    }
    func body(_ pem: String) -> String {
        pem.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("-----") }.joined()
    }
    if body(signature.publicKey) != body(trustedKey) {
        result.problems.append("the checkpoint is signed by another key than the trusted one")
    }
}
