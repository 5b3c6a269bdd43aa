import Foundation
import Hummingbird

extension ServerConfiguration {
    /// The client's IP address: from `clientAddressHeader` when the server is behind a proxy that
    /// sets it (the first address of a list), else the connected peer; nil when neither says.
    func clientAddress(_ request: Request, _ context: MusterRequestContext) -> String? {
        if let header = clientAddressHeader {
            guard let value = request.headers[header] else { return nil }
            let first = value.split(separator: ",", maxSplits: 1).first.map(String.init) ?? value
            let address = first.trimmingCharacters(in: .whitespaces)
            return address.isEmpty ? nil : String(address.prefix(64))
        }
        return context.remoteAddress?.ipAddress
    }
}
