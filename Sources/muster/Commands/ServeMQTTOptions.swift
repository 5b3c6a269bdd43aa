import ArgumentParser
import Foundation
import MQTT
import MQTTBridge

/// `muster serve --mqtt URL …`: the broker the MQTT bridge connects to. The password comes from
/// `MUSTER_MQTT_PASSWORD` or `--mqtt-password-file`, never from the command line.
struct ServeMQTTOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Connect the MQTT bridge to this broker: mqtt://HOST:PORT, or mqtts://HOST:PORT with --mqtt-ca-file.",
            valueName: "URL"))
    var mqtt: String?
    @Option(help: "The bridge's user name at the broker.") var mqttUser: String?
    @Option(
        help: """
            A file (owner-only) whose first line is the bridge's password at the broker; else MUSTER_MQTT_PASSWORD.
            """)
    var mqttPasswordFile: String?
    @Option(
        help: """
            The client id whose persistent session keeps messages for Muster while it is away; with --namespaces, \
            each namespace's bridge uses it with - and the namespace appended.
            """)
    var mqttClientId = "muster"
    @Option(help: "PEM file of the certificate authorities that sign the broker's certificate (mqtts://).")
    var mqttCaFile: String?
    @Option(help: "PEM file of the bridge's client certificate, for a broker that asks for one (with --mqtt-key-file).")
    var mqttCertFile: String?
    @Option(help: "PEM file (owner-only, not encrypted) of the private key of --mqtt-cert-file.")
    var mqttKeyFile: String?
    @Flag(help: "Speak MQTT 3.1.1 to the broker instead of MQTT 5.") var mqtt311 = false
    @Option(
        help: ArgumentHelp(
            "Publish the default namespace's response topics /a/b/c to MQTT as PREFIX/a/b/c; \"\" publishes none.",
            valueName: "PREFIX"))
    var mqttTopicPrefix = "muster"
    @Option(
        help: ArgumentHelp(
            "How long muster mqtt settings waits for the device's receipt (default 30).", valueName: "SECONDS"))
    var mqttReceiptTimeout: String?

    /// The bridge's options; nil without `--mqtt`.
    func bridgeOptions() throws -> MQTTBridgeOptions? {
        guard let mqtt else {
            guard mqttUser == nil, mqttPasswordFile == nil, mqttCaFile == nil, mqttCertFile == nil,
                mqttKeyFile == nil, mqttReceiptTimeout == nil
            else {
                throw ValidationError(
                    "--mqtt-user, --mqtt-password-file, --mqtt-ca-file, --mqtt-cert-file, --mqtt-key-file and "
                        + "--mqtt-receipt-timeout need --mqtt URL")
            }
            return nil
        }
        guard !mqttTopicPrefix.contains(where: { $0 == "+" || $0 == "#" || $0 == "\u{0}" }) else {
            throw ValidationError(
                "--mqtt-topic-prefix \(mqttTopicPrefix) cannot hold + or # (MQTT wildcards): give a plain topic such as muster"
            )
        }
        do {
            let connection = try MQTTConfiguration(
                url: mqtt, clientID: mqttClientId, userName: mqttUser, password: try password(), tls: try tls(),
                protocolVersion: mqtt311 ? .v311 : .v5)
            var options = MQTTBridgeOptions(connection: connection)
            options.topicPrefix = mqttTopicPrefix.isEmpty ? nil : mqttTopicPrefix
            options.receiptTimeout = try receiptTimeout() ?? options.receiptTimeout
            return options
        } catch let error as MQTTError {
            throw ValidationError("--mqtt: \(error.message)")
        }
    }

    /// `--mqtt-receipt-timeout` as a duration: a number of seconds over 0, at most a day.
    private func receiptTimeout() throws -> Duration? {
        guard let mqttReceiptTimeout else { return nil }
        guard let seconds = Double(mqttReceiptTimeout), seconds > 0, seconds <= 86_400 else {
            throw ValidationError(
                "--mqtt-receipt-timeout \(mqttReceiptTimeout): expected seconds over 0 (at most 86400), such as 30")
        }
        return .milliseconds(Int64((seconds * 1000).rounded(.up)))
    }

    /// The CA file, and the client certificate and key when given: both or neither, the key owner-only.
    private func tls() throws -> MQTTTLS? {
        try TLSFiles.checked(
            caFile: mqttCaFile, certificateFile: mqttCertFile, keyFile: mqttKeyFile, prefix: "--mqtt",
            needs: "--mqtt-ca-file and an mqtts:// URL"
        ).map { MQTTTLS(caFile: $0.caFile, certificateFile: $0.certificateFile, keyFile: $0.keyFile) }
    }

    private func password() throws -> String? {
        try SecretFile.password(
            file: mqttPasswordFile, option: "--mqtt-password-file", variable: "MUSTER_MQTT_PASSWORD")
    }
}
