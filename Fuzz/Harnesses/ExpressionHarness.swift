import Foundation
import Geo

extension FuzzTarget {
    /// An Arcade message expression as an operator writes it in a geotrigger (`PUT /api/v1/geotriggers/{id}`).
    static let expression = FuzzTarget(
        name: "expression", summary: "MessageExpression(_:) and its evaluation, within its limits"
    ) { input in
        let source = String(decoding: input, as: UTF8.self)
        guard let expression = try? MessageExpression(source) else { return }
        let context = GeotriggerContext(
            notificationType: input.count % 2 == 0 ? .entered : .exited,
            fenceFeature: ["area_name": "Area A", "id": 7, "note": "", "owner": nil, "tags": ["a", "b"]],
            feedFeature: ["speed": 3.456, "name": "van 12", "address": ["city": "Lyon"]],
            now: Date(timeIntervalSince1970: 1_774_744_200))
        // Evaluation ends within the step limit with a value or an ExpressionError; twice gives the same answer.
        let first = Result { () throws(ExpressionError) in try expression.value(for: context) }
        let second = Result { () throws(ExpressionError) in try expression.value(for: context) }
        require(
            String(describing: first) == String(describing: second), "the same expression evaluates differently twice")
        if case .success = first {
            _ = try? expression.message(for: context)
        }
    }
}
