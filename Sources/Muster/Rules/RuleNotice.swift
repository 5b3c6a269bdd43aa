import Forms
import Foundation
import MusterWire

/// The inbox message a fired rule sends: the alert text as the message body, a form showing the
/// open_url page (or wallet pass) when there is one, and the rule's application data.
struct RuleNotice {
    enum Link {
        case web(String)
        case wallet(String)
    }

    var area: Area
    var rule: String
    var trigger: String
    var notice: UserNotice
    var link: Link?

    var title: String { area.name.isEmpty ? area.id : area.name }

    /// `/areas/<id>/rules/<rule>` when the ids make a valid topic, else `/areas/rules`.
    var responseTopic: String {
        let topic = "/areas/\(area.id)/rules/\(rule)"
        return ResponseTopic.isValid(topic) ? topic : "/areas/rules"
    }

    func payload() -> [UInt8] {
        var fields: [JSONValue] = []
        var notice: [String: JSONValue] = [
            "area": .string(area.id), "rule": .string(rule), "trigger": .string(trigger),
        ]
        switch link {
        case .web(let url):
            fields.append(.object(["type": .string("document"), "flavor": .string("html"), "url": .string(url)]))
            notice["openURL"] = .string(url)
        case .wallet(let url):
            fields.append(
                .object([
                    "type": .string("document"), "flavor": .string("html"), "url": .string(url),
                    "placeholder": .string("Add to your wallet"),
                ]))
            notice["openPBK"] = .string(url)
        case nil: break
        }
        if let data = self.notice.payload, let value = try? JSONValue(json: data) { notice["payload"] = value }
        let payload: JSONValue = .object([
            "responseTopic": .string(responseTopic), "fields": .array(fields), "areaNotice": .object(notice),
        ])
        return Array(payload.jsonData())
    }
}
