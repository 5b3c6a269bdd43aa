import Foundation

extension MQTTConfiguration {
    /// A configuration for a broker URL: `mqtt://host[:port]` (plain TCP, port 1883 by default) or
    /// `mqtts://host[:port]` (TLS with `tls`, port 8883 by default).
    ///
    /// The URL carries no user name or password (a password in a URL ends up in shell histories and process lists);
    /// pass them separately.
    public init(
        url: String, clientID: String, userName: String? = nil, password: String? = nil, tls: MQTTTLS? = nil,
        protocolVersion: MQTTProtocolVersion = .v5
    ) throws {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            let shown = url.contains("@") ? "(not shown: it may hold a password)" : url
            throw MQTTError.configuration(
                "broker URL \(shown) is not a URL; expected mqtt://host:port or mqtts://host:port")
        }
        guard components.user == nil, components.password == nil else {
            throw MQTTError.configuration(
                "broker URL has a user name or password in it; expected them as separate options, not in the URL")
        }
        guard scheme == "mqtt" || scheme == "mqtts" else {
            throw MQTTError.configuration(
                "broker URL \(url) has scheme \(scheme); expected mqtt://host:port or mqtts://host:port")
        }
        guard let host = components.host, !host.isEmpty else {
            throw MQTTError.configuration("broker URL \(url) names no host; expected mqtt://host:port")
        }
        guard components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil
        else {
            throw MQTTError.configuration("broker URL \(url) has a path or query; expected only mqtt://host:port")
        }
        if scheme == "mqtts", tls == nil {
            throw MQTTError.configuration("broker URL \(url) asks for TLS; expected a CA file for mqtts")
        }
        if scheme == "mqtt", tls != nil {
            throw MQTTError.configuration("broker URL \(url) is plain TCP but TLS files are given; expected mqtts://")
        }
        let port = components.port ?? (scheme == "mqtts" ? 8883 : 1883)
        self.init(
            host: host, port: port, clientID: clientID, userName: userName, password: password,
            tls: scheme == "mqtts" ? tls : nil, protocolVersion: protocolVersion)
        try validate()
    }
}
