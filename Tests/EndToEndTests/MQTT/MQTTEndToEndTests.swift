import Testing

/// Every end-to-end test with a broker and a server, one after another: each starts mosquitto, `muster serve` and
/// a phone, and side by side on a small machine under a full run's load they starved each other (a broker slow to
/// open its port, timeouts elsewhere).
@Suite(.serialized) struct MQTTEndToEndTests {}
