/// The members Muster puts in each option's `ReplyObject`, so that the reply the app publishes says what to
/// rebuild: which message it answers and which button or choice was picked. Named `muster…` so they cannot be
/// mistaken for the device's own members (`iPhoneID`, `GPS`…) or a field's `Key`.
public enum ReplyKeys {
    /// The message answered, a lower-case UUID string.
    public static let messageID = "musterMessageId"
    /// The picked button's `value`, the response's `submitValue` (0 for the Submit option Muster adds).
    public static let submitValue = "musterSubmitValue"
    /// The `id` of the radioButtons or droplist field whose choices are the options.
    public static let field = "musterField"
    /// The picked choice's value, for the response's `values[musterField]`.
    public static let value = "musterValue"

    /// All four.
    public static let all: Set<String> = [messageID, submitValue, field, value]
}
