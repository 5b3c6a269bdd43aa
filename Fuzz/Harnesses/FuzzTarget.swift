/// One decoder under test: a name for `Tools/fuzz` and the corpus directory, and a function that feeds it one input.
///
/// `run` asserts what the decoder promises with `require`: a failed promise stops the process, which libFuzzer
/// reports as a crash and saves the input.
struct FuzzTarget: Sendable {
    /// The name on the command line and of `Fuzz/Corpus/<name>/`.
    var name: String
    /// One line: what is fed to what.
    var summary: String
    /// Feeds one input to the decoder and checks its promises.
    var run: @Sendable ([UInt8]) -> Void

    /// Every harness, in the order `Tools/fuzz` runs them.
    static let all: [FuzzTarget] = [
        .envelope, .chunk, .json, .forms, .ubudu, .advert, .expression, .sse, .mqtt, .importLines,
    ]

    /// The harness named `name`.
    static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

/// Stops the process with `message` when a decoder broke a promise; libFuzzer saves the input as a crash.
func require(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) {
    if !condition { fatalError("fuzz: promise broken: \(message())", file: file, line: line) }
}

/// Splits an input into parts at each `separator` byte; harnesses that need several texts take them this way.
func parts(_ bytes: [UInt8], separator: UInt8 = 0, count: Int) -> [[UInt8]] {
    var result = bytes.split(separator: separator, maxSplits: count - 1, omittingEmptySubsequences: false).map(
        Array.init)
    while result.count < count { result.append([]) }
    return result
}
