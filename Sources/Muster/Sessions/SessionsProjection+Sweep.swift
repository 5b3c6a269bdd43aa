import EventLog

extension SessionsProjection {
    /// At most this many token pairs are swept per event: more than the one pair an event issues, so the
    /// tables shrink back after a burst of logins.
    public static let sweptPerEvent = 4

    /// Forgets up to `sweptPerEvent` token pairs whose refresh token expired by `now` (the event's time, so a
    /// rebuild sweeps the same): both tokens, and their session when that pair was its current one.
    ///
    /// A pair goes when its refresh token expires, not its access token: until then an expired access token
    /// still answers "expired" (the client refreshes) and a replaced refresh token still ends its session.
    func sweep(at now: Int64, _ state: ProjectionState) throws {
        var expired: [(key: [UInt8], refreshHash: String, accessHash: String)] = []
        try state.scan("expiries") { key, value in
            guard expired.count < Self.sweptPerEvent, key.count > 8, Key.readPosition(key) <= UInt64(max(0, now))
            else { return false }
            expired.append(
                (Array(key), String(decoding: key.dropFirst(8), as: UTF8.self), String(decoding: value, as: UTF8.self)))
            return true
        }
        for pair in expired {
            try state.delete("expiries", pair.key)
            try state.delete("accessTokens", Array(pair.accessHash.utf8))
            let refreshKey = Array(pair.refreshHash.utf8)
            guard let record = try state.get("refreshTokens", refreshKey).map(TokenRecord.init(decoding:)) else {
                continue
            }
            try state.delete("refreshTokens", refreshKey)
            let sessionKey = Self.key(record.sessionId)
            if let entry = try state.get("sessions", sessionKey).map(SessionEntry.init(decoding:)),
                entry.refreshTokenHash == pair.refreshHash
            {
                try state.delete("sessions", sessionKey)
                try state.delete("userSessions", Self.userKey(record.namespace, record.user, record.sessionId))
            }
        }
    }

    /// The `expiries` key of a pair: the refresh token's expiry, then its hash.
    static func expiryKey(_ expiresAt: Int64, _ refreshTokenHash: String) -> [UInt8] {
        Key.position(UInt64(max(0, expiresAt))) + Array(refreshTokenHash.utf8)
    }
}
