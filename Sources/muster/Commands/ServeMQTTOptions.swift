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
    @Option(help: "The client id whose persistent session keeps messages for Muster while it is away.")
    var mqttClientId = "muster"
    @Option(help: "PEM file of the certificate authorities that sign the broker's certificate (mqtts://).")
    var mqttCaFile: String?
    @Flag(help: "Speak MQTT 3.1.1 to the broker instead of MQTT 5.") var mqtt311 = false
    @Option(
        help: ArgumentHelp(
            "Publish the default namespace's response topics /a/b/c to MQTT as PREFIX/a/b/c; \"\" publishes none.",
            valueName: "PREFIX"))
    var mqttTopicPrefix = "muster"

    /// The bridge's options; nil without `--mqtt`.
    func bridgeOptions() throws -> MQTTBridgeOptions? {
        guard let mqtt else {
            guard mqttUser == nil, mqttPasswordFile == nil, mqttCaFile == nil else {
                throw ValidationError("--mqtt-user, --mqtt-password-file and --mqtt-ca-file need --mqtt URL")
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
                url: mqtt, clientID: mqttClientId, userName: mqttUser, password: try password(),
                tls: mqttCaFile.map { MQTTTLS(caFile: $0) }, protocolVersion: mqtt311 ? .v311 : .v5)
            var options = MQTTBridgeOptions(connection: connection)
            options.topicPrefix = mqttTopicPrefix.isEmpty ? nil : mqttTopicPrefix
            return options
        } catch let error as MQTTError {
            throw ValidationError("--mqtt: \(error.message)")
        }
    }

    private func password() throws -> String? {
        if let mqttPasswordFile {
            if let mode = (try? FileManager.default.attributesOfItem(atPath: mqttPasswordFile))?[.posixPermissions]
                as? Int, mode & 0o077 != 0
            {
                throw ValidationError(
                    "--mqtt-password-file \(mqttPasswordFile) can be read by others (mode \(String(mode, radix: 8))): "
                        + "chmod 600 \(mqttPasswordFile)")
            }
            guard let text = try? String(contentsOfFile: mqttPasswordFile, encoding: .utf8) else {
                throw ValidationError("--mqtt-password-file \(mqttPasswordFile) cannot be read")
            }
            let line = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard !line.isEmpty else {
                throw ValidationError("--mqtt-password-file \(mqttPasswordFile) holds no password on its first line")
            }
            return line
        }
        return ProcessInfo.processInfo.environment["MUSTER_MQTT_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
    }
}
