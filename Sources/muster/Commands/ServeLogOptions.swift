import ArgumentParser
import Logging
import MusterHTTP

/// `muster serve --log-format text|json --log-level LEVEL`: how the server's log lines reach stderr.
struct ServeLogOptions: ParsableArguments {
    /// How a log line is written.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        /// swift-log's text lines, for people.
        case text
        /// One JSON object per line (`JSONLogHandler`), for log collectors.
        case json
    }

    @Option(
        help: """
            How log lines are written to stderr: text (for people) or json (one object per line: time, level, label, \
            message, metadata).
            """)
    var logFormat: Format = .text
    @Option(help: "The least severe level that is logged.") var logLevel: Logger.Level = .info

    /// Makes every logger of the process (the server's and its libraries') write as these options say, and returns
    /// the server's. Once per process: swift-log's logging system can be set up only once.
    func bootstrap() -> Logger {
        let format = logFormat
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler =
                switch format {
                case .text: TextLogHandler.standardError(label: label)
                case .json: JSONLogHandler.standardError(label: label)
                }
            handler.logLevel = level
            return handler
        }
        return Logger(label: "muster")
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
