/// Local stand-ins for the push providers, speaking their real protocols on loopback so tests and the benchmark
/// exercise every byte Muster sends: `APNsServer` (HTTP/2 over TLS, provider tokens or client certificates),
/// `FCMServer` (OAuth2 token endpoint and `messages:send`), `WebPushEndpoint` (decrypts and checks VAPID).
public enum PushTesting {}
