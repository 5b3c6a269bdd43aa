import EventLog
import Foundation

/// What a new user's name may be, and how names compare: written in NFC, and one user per
/// case-folded form in a namespace, so `Ada` and `ada` are the same person.
///
/// Only names of new users are checked: a data directory may hold older names that break these
/// rules or meet when folded, and they keep working.
public enum UserName {
    /// `name` in Unicode Normalization Form C, as the directory stores new names.
    public static func normalized(_ name: String) -> String { name.precomposedStringWithCanonicalMapping }

    /// The form under which a namespace knows one user: NFC, full case folding (upper- then
    /// lowercased, so `ß` and `SS` meet), NFC again.
    public static func folded(_ name: String) -> String {
        normalized(normalized(name).uppercased().lowercased())
    }

    /// The rules a new name must follow, in one sentence for error messages.
    public static let rules =
        "letters, digits, spaces inside and punctuation except / and \\; not starting with . nor containing ..; letters of one script among Latin, Cyrillic and Greek"

    /// `name` in NFC when a new user may have it; throws `MusterError(.invalidArgument)` naming
    /// `what` (the field or argument, also its `field`) and the rule it broke otherwise.
    public static func validated(_ name: String, as what: String = "user name") throws -> String {
        let name = normalized(name)
        do {
            try Names.validate(name, as: what)
        } catch let error as StoreError {
            throw MusterError(.invalidArgument, error.message, field: what)
        }
        func refuse(_ why: String) -> MusterError {
            MusterError(.invalidArgument, "\(what) \(String(reflecting: name)) \(why); allowed: \(rules)", field: what)
        }
        if let bad = name.unicodeScalars.first(where: isInvisible) {
            throw refuse("contains \(code(bad)), an invisible, control or text-direction character")
        }
        if let first = name.unicodeScalars.first, let last = name.unicodeScalars.last,
            first.properties.isWhitespace || last.properties.isWhitespace
        {
            throw refuse("starts or ends with a space")
        }
        if name.contains("/") || name.contains("\\") { throw refuse("contains a path separator") }
        if name.hasPrefix(".") || name.contains("..") { throw refuse("looks like a path (. at the start or ..)") }
        let scripts = Set(name.unicodeScalars.compactMap(script))
        if scripts.count > 1 {
            throw refuse("mixes \(scripts.sorted().joined(separator: " and ")) letters, as look-alike names do")
        }
        return name
    }

    /// Control, format (bidirectional marks, overrides and isolates, zero-width characters),
    /// separator, surrogate, private-use and unassigned code points.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: true
        default: false
        }
    }

    /// The script of a letter among the three whose letters look alike; nil for anything else.
    private static func script(_ scalar: Unicode.Scalar) -> String? {
        guard scalar.properties.isAlphabetic else { return nil }
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0xAA, 0xBA, 0xC0...0x24F, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF,
            0xFF21...0xFF3A, 0xFF41...0xFF5A:
            return "Latin"
        case 0x370...0x3FF, 0x1F00...0x1FFF: return "Greek"
        case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: return "Cyrillic"
        default: return nil
        }
    }

    private static func code(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
