/// Rules for namespace, stream and type names. A name is 1…200 UTF-8 bytes with no control
/// characters, so it can be part of an index key and printed on one line.
public enum Names {
    /// The namespace used when none is given.
    public static let defaultNamespace = "default"

    /// Throws `.invalidArgument` naming `what` when `name` breaks the rules.
    public static func validate(_ name: String, as what: String, maximumBytes: Int = 200) throws {
        let utf8 = name.utf8
        if utf8.isEmpty { throw StoreError(.invalidArgument, "\(what) must not be empty") }
        if utf8.count > maximumBytes {
            throw StoreError(
                .invalidArgument, "\(what) is \(utf8.count) bytes long; at most \(maximumBytes) are allowed")
        }
        if let bad = name.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw StoreError(
                .invalidArgument,
                "\(what) \(String(reflecting: name)) contains control character U+\(String(bad.value, radix: 16, uppercase: true)); use printable characters only"
            )
        }
    }
}
