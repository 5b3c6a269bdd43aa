import Foundation
import Hummingbird
import Replication

extension ServerConfiguration {
    /// The client's IP address: the one a replica of the cluster forwarded the request for, when its signature holds;
    /// else from `clientAddressHeader` when the server is behind a proxy that sets it (the first address of a list),
    /// else the connected peer; nil when none says.
    func clientAddress(_ request: Request, _ context: MusterRequestContext) -> String? {
        if let forwarded = forwardedClientAddress(request) { return forwarded }
        if let header = clientAddressHeader {
            guard let value = request.headers[header] else { return nil }
            let first = value.split(separator: ",", maxSplits: 1).first.map(String.init) ?? value
            let address = first.trimmingCharacters(in: .whitespaces)
            return address.isEmpty ? nil : String(address.prefix(64))
        }
        return context.remoteAddress?.ipAddress
    }

    /// The address a node of the cluster signed for this request (`Muster-Forwarded-For`), or nil: no cluster, no
    /// such header, or a signature that does not hold (another key, another request, more than 30 s old).
    private func forwardedClientAddress(_ request: Request) -> String? {
        guard let forwardingKey, let address = request.headers[.forwardedFor],
            let node = request.headers[.forwardedBy], let time = request.headers[.forwardedAt].flatMap({ Int($0) }),
            let signature = request.headers[.forwardedSignature]
        else { return nil }
        let claim = ForwardingKey.Claim(
            address: address, node: node, method: request.method.rawValue, target: request.uri.description, time: time)
        let now = Int(Date().timeIntervalSince1970)
        return forwardingKey.verifies(signature, of: claim, now: now) ? String(address.prefix(64)) : nil
    }
}
