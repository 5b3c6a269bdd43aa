/// A misbehaviour the local Web Push endpoint can be told to show, in place of taking a push.
public struct WebPushFault: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case status(Int, retryAfter: String?)
        case hold
    }

    let kind: Kind

    /// Answer with `status` (429, 500, 410, 404, 413…), with a `Retry-After` header when `retryAfter` is given.
    public static func status(_ status: Int, retryAfter: String? = nil) -> WebPushFault {
        WebPushFault(kind: .status(status, retryAfter: retryAfter))
    }

    /// Never answer: the request is held until the endpoint stops.
    public static let hold = WebPushFault(kind: .hold)
}
