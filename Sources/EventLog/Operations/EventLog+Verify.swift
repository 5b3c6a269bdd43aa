import Foundation

extension EventLog {
    /// Checks the whole store in one read snapshot, while appends go on: every event's checksum and
    /// decoding, contiguous positions and stream versions, the stream and event-id indexes, the commit
    /// chain recomputed from the events (see `CommitChain`), every
    /// projection against a fresh rebuild into a scratch environment, and every blob chunk.
    ///
    /// - Parameter progress: called from the verify's own thread as phases advance.
    /// - Returns: the report; problems are reported, not thrown. Throws only when the check itself
    ///   cannot run (the store cannot be read, the scratch directory cannot be made).
    public func verify(progress: @escaping @Sendable (OperationProgress) -> Void = { _ in }) async throws
        -> VerifyReport
    {
        let core = self.core
        return try await BlockingWork.run("verify") {
            try core.environment.read { txn in
                var report = VerifyReport()
                try LogIntegrityCheck(tables: core.tables, txn: txn, progress: progress).run(&report)
                let chain = try ChainIntegrityCheck(tables: core.tables, txn: txn, progress: progress).run()
                let remedy: StoreError.Remedy =
                    chain.chainMissing ? .migrate : .restoreBackup(directory: core.environment.directory.path)
                for problem in chain.problems { report.add("chain", problem, remedy: remedy) }
                report.chainLinks = chain.links
                report.headHash = chain.head?.hashHex
                try ProjectionRebuildCheck(core: core, txn: txn, progress: progress).run(&report)
                try BlobIntegrityCheck(txn: txn, meta: Meta(table: core.tables.meta), progress: progress).run(&report)
                return report
            }
        }
    }
}
