/// The outcome of validating a payload: errors make it unusable, warnings do not.
public struct ValidationReport: Sendable, Hashable {
    /// Problems that make the payload or response invalid.
    public var errors: [FormError] = []
    /// Problems the app would ignore, such as unknown field types.
    public var warnings: [FormError] = []

    /// Whether there are no errors.
    public var isValid: Bool { errors.isEmpty }
}
