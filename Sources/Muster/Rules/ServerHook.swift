import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Calls a rule's `notify_server` URL and reads the decision record it answers (seed 004,
/// "Server Action Hook"): `{"version":"2","decision":"enable"|"disable"|"notify", …}`.
///
/// A server that cannot be reached, answers an error status, or answers anything but such a
/// record aborts the rule. Connection failures and 5xx answers are retried.
public struct ServerHook: Sendable {
    /// Seconds one attempt may take.
    public var timeout: TimeInterval
    /// Attempts in all (1 = no retry).
    public var attempts: Int

    private let session: URLSession

    public init(timeout: TimeInterval = 5, attempts: Int = 2) {
        self.timeout = timeout
        self.attempts = max(attempts, 1)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.httpMaximumConnectionsPerHost = 8
        session = URLSession(configuration: configuration)
    }

    /// A decision record.
    public struct Decision: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable { case enable, disable, notify }
        public var kind: Kind
        /// For `notify`: what to show instead of the rule's own text.
        public var notice: UserNotice?
        public var openURL: String
        public var openPBK: String
    }

    /// What the hook answered.
    public enum Answer: Sendable, Hashable {
        case decision(Decision)
        /// Why the rule is aborted, for the audit trail.
        case failure(String)
    }

    /// Fetches `url` and reads the answer.
    public func fetch(_ url: String) async -> Answer {
        guard let target = URL(string: Self.escapingStrayCharacters(url)), let scheme = target.scheme?.lowercased(),
            ["http", "https"].contains(scheme)
        else { return .failure("the server hook URL \(String(reflecting: url)) is not an http(s) URL") }
        var request = URLRequest(url: target, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        var last = "no attempt made"
        for attempt in 1...attempts {
            do {
                let (data, response) = try await session.data(for: request)
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                if (500...599).contains(status) {
                    last = "the server hook answered HTTP \(status)"
                    continue
                }
                guard (200...299).contains(status) else { return .failure("the server hook answered HTTP \(status)") }
                return Self.read(data)
            } catch {
                last =
                    "the server hook could not be reached (attempt \(attempt) of \(attempts)): \(error.localizedDescription)"
            }
        }
        return .failure(last)
    }

    /// What a URL may hold as it is (RFC 3986's unreserved and reserved characters) and `%`, which starts the escapes
    /// the template's substitution wrote.
    private static let urlCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%")

    /// `url` with the characters a URL may not hold as they are (a literal `{campaign}` of the template, a space)
    /// percent-encoded, and nothing else: the values substituted are encoded already and stay so, where letting
    /// `URL(string:)` encode an invalid string would encode their `%` a second time.
    static func escapingStrayCharacters(_ url: String) -> String {
        url.addingPercentEncoding(withAllowedCharacters: urlCharacters) ?? url
    }

    /// Reads a decision record; `.failure` says what is wrong with it.
    public static func read(_ data: Data) -> Answer {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            return .failure("the server hook did not answer a JSON object")
        }
        let version = (object["version"] as? String) ?? (object["version"] as? NSNumber)?.stringValue
        guard version == "2" else {
            return .failure(
                "the server hook answered version \(version.map { String(reflecting: $0) } ?? "nothing"); version \"2\" is understood"
            )
        }
        guard let text = object["decision"] as? String, let kind = Decision.Kind(rawValue: text) else {
            return .failure("the server hook's decision is not enable, disable or notify")
        }
        var notice: UserNotice?
        switch object["notify_user"] {
        case let text as String: notice = UserNotice(text)
        case let dictionary as [String: Any]: notice = UserNotice(object: dictionary)
        default: notice = nil
        }
        return .decision(
            Decision(
                kind: kind, notice: notice, openURL: object["open_url"] as? String ?? "",
                openPBK: object["open_pbk"] as? String ?? object["open_pkb"] as? String ?? ""))
    }
}
