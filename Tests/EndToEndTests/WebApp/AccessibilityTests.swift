import Foundation
import Testing

extension WebAppBrowserTests {
    /// The main screens pass the accessibility audit (labels, names, alternatives, language, unique ids, contrast):
    /// the login, the inbox, a form of every field type, Start, Documents and every page of the console.
    @Suite(.serialized) struct AccessibilityTests {
        /// The audit's findings on the page now, each prefixed with the screen's name.
        func audit(_ stage: WebAppStage, _ screen: String) async throws -> [String] {
            try await stage.browser.screenshot("a11y-\(screen)")
            return try await AccessibilityAudit.problems(in: stage.driver).map { "\(screen): \($0)" }
        }

        @Test func thePersonsScreensAndAFormOfEveryFieldPassTheAudit() async throws {
            let stage = try await WebAppStage.start()
            try await stage.running("a11y-person") {
                try await stage.driver.open(stage.server.base)
                _ = try await stage.driver.find("#log-in")
                var problems = try await audit(stage, "login")
                try await stage.logIn("joe", password: "secret-joe")
                let id = try await stage.send(to: "joe", title: "Everything", payload: FormFieldsTests.everyField)
                try await stage.wait(forElement: "li.message[data-message-id=\"\(id)\"]")
                problems += try await audit(stage, "inbox")
                try await stage.openMessage(id)
                problems += try await audit(stage, "form")
                try await stage.show("#/start", waitingFor: "main h1")
                problems += try await audit(stage, "start")
                try await stage.show("#/documents", waitingFor: "main h1")
                problems += try await audit(stage, "documents")
                #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
            }
        }

        @Test func everyPageOfTheConsolePassesTheAudit() async throws {
            try await WebAppStage.withConsole("a11y-console") { stage in
                _ = try await stage.send(
                    to: "joe", title: "Roll call", payload: #"{"responseTopic":"/roll","fields":[]}"#)
                try await stage.logIn("ada", password: "secret-ada")
                var problems: [String] = []
                for (page, selector) in [
                    ("send", "#payload"), ("sends", "table.sends"), ("areas", "main h1"),
                    ("people", "tr[data-user='joe']"), ("audit", "main h1"), ("settings", "main h1"),
                    ("push", "main h1"), ("geotriggers", "main h1"),
                ] {
                    try await stage.show("#/console/\(page)", waitingFor: selector)
                    problems += try await audit(stage, "console-\(page)")
                }
                #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
            }
        }
    }
}
