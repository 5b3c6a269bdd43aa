import EventLog

extension Documents {
    /// The bytes an upload may still take (nil: no limit), checked before any of it is stored: throws
    /// `MusterError` when the user or the namespace is at its quota, or `size` (when known) would pass it.
    func quotaAllowance(adding size: UInt64?, user: String, namespace: String) throws -> Allowance {
        try log.read { reader in
            try Self.checkQuota(adding: size ?? 1, user: user, namespace: namespace, in: reader)
            return try Self.allowance(user: user, namespace: namespace, in: reader)
        }
    }

    /// What an upload may still take, and the refusal once it takes more.
    struct Allowance: Sendable {
        var bytes: UInt64?
        var refusal: MusterError?
    }

    /// Throws `MusterError` when storing `size` more bytes would pass the user's quota (`.userQuota`) or
    /// the namespace's (`.namespaceQuota`), as of `snapshot`.
    static func checkQuota(adding size: UInt64, user: String, namespace: String, in snapshot: some LogSnapshot) throws {
        let used = try snapshot.documents.usage(user: user, namespace: namespace)
        let quotas = try Self.quotas(namespace, snapshot.settings)
        if let quota = quotas.user, used.user > quota || size > quota - used.user {
            throw userRefusal(user, used: used.user, quota: quota, adding: size)
        }
        if let quota = quotas.namespace, used.namespace > quota || size > quota - used.namespace {
            throw namespaceRefusal(namespace, used: used.namespace, quota: quota, adding: size)
        }
    }

    private static func allowance(user: String, namespace: String, in snapshot: some LogSnapshot) throws -> Allowance {
        let used = try snapshot.documents.usage(user: user, namespace: namespace)
        let quotas = try Self.quotas(namespace, snapshot.settings)
        var allowance = Allowance()
        if let quota = quotas.user {
            allowance = Allowance(
                bytes: quota - min(quota, used.user), refusal: userRefusal(user, used: used.user, quota: quota))
        }
        if let quota = quotas.namespace, quota - min(quota, used.namespace) < allowance.bytes ?? .max {
            allowance = Allowance(
                bytes: quota - min(quota, used.namespace),
                refusal: namespaceRefusal(namespace, used: used.namespace, quota: quota))
        }
        return allowance
    }

    private static func quotas(_ namespace: String, _ settings: ProjectionView<SettingsProjection>) throws -> (
        user: UInt64?, namespace: UInt64?
    ) {
        (
            try settings.value(.documentQuotaPerUser, namespace: namespace).flatMap { UInt64($0) },
            try settings.value(.documentQuotaPerNamespace, namespace: namespace).flatMap { UInt64($0) }
        )
    }

    private static func userRefusal(_ user: String, used: UInt64, quota: UInt64, adding size: UInt64? = nil)
        -> MusterError
    {
        MusterError(
            .userQuota,
            "documents: user \(user) has \(MusterError.readable(used)) of \(MusterError.readable(quota)) "
                + "stored\(beyond(used, quota, size)); ask an administrator to raise documentQuotaPerUser")
    }

    private static func namespaceRefusal(
        _ namespace: String, used: UInt64, quota: UInt64, adding size: UInt64? = nil
    ) -> MusterError {
        MusterError(
            .namespaceQuota,
            "documents: namespace \(namespace) has \(MusterError.readable(used)) of "
                + "\(MusterError.readable(quota)) stored\(beyond(used, quota, size)); "
                + "an administrator can raise documentQuotaPerNamespace or free room")
    }

    /// `, and this upload (…) would pass it` where the upload is what does not fit.
    private static func beyond(_ used: UInt64, _ quota: UInt64, _ size: UInt64?) -> String {
        guard used < quota else { return "" }
        let left = MusterError.readable(quota - used)
        guard let size else { return ", and this upload is larger than the \(left) left" }
        return ", and this upload of \(MusterError.readable(size)) is larger than the \(left) left"
    }
}

/// The pieces of an upload: those read already to look at its first bytes, then the rest; stops with the
/// allowance's refusal once they pass its bytes, so nothing beyond a quota is stored.
struct QuotaLimitedPieces<Rest: AsyncIteratorProtocol>: AsyncSequence where Rest.Element == [UInt8] {
    typealias Element = [UInt8]
    let read: [[UInt8]]
    let rest: Rest
    let allowance: Documents.Allowance

    struct AsyncIterator: AsyncIteratorProtocol {
        var read: [[UInt8]]
        var rest: Rest
        let allowance: Documents.Allowance
        var total: UInt64 = 0

        mutating func next() async throws -> [UInt8]? {
            let piece: [UInt8]
            if !read.isEmpty {
                piece = read.removeFirst()
            } else if let next = try await rest.next() {
                piece = next
            } else {
                return nil
            }
            total += UInt64(piece.count)
            if let bytes = allowance.bytes, total > bytes, let refusal = allowance.refusal { throw refusal }
            return piece
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(read: read, rest: rest, allowance: allowance) }
}
