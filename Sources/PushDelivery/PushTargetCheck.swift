import Muster
import PushProviders

/// What a device's push token must be before it is registered, so that a delivery to it can be made: a `web`
/// device's token is the browser's subscription (`PushSubscription.toJSON()`) with an `https:` endpoint (`http:`
/// only on a loopback address). The CLI and the HTTP edge both register through this.
public enum PushTargetCheck {
    /// Throws `PushConfigurationError` naming `token` (or the member of it at fault) and what was expected.
    public static func check(platform: PushTargetRegistered.Platform, token: String?) throws {
        guard platform == .web else { return }
        guard let token, !token.isEmpty else {
            throw PushConfigurationError(
                "token", "a web device needs its push subscription's JSON (PushSubscription.toJSON() in the browser)")
        }
        _ = try WebPushSubscription(json: token)
    }
}
