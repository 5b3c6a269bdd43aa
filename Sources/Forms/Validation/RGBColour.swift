/// The `#rrggbb` colours of label and button styling.
enum RGBColour {
    static func isValid(_ text: String) -> Bool {
        let digits = text.utf8.dropFirst()
        return text.utf8.first == UInt8(ascii: "#") && digits.count == 6
            && digits.allSatisfy { (48...57).contains($0) || (97...102).contains($0) || (65...70).contains($0) }
    }
}
