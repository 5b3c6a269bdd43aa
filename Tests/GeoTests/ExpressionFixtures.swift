import Foundation

@testable import Geo

/// 2026-03-29T00:30:00Z, a fixed clock for `Now()`.
let expressionNow = Date(timeIntervalSince1970: 1_774_744_200)

/// A fence named "Area A" entered by a feed at a known place.
func fenceContext(_ type: FenceNotificationType = .entered) -> GeotriggerContext {
    GeotriggerContext(
        notificationType: type,
        fenceFeature: ["area_name": "Area A", "id": 7, "note": "", "owner": nil, "tags": ["a", "b"]],
        feedFeature: ["speed": 3.456, "name": "van 12", "address": ["city": "Lyon"]],
        now: expressionNow)
}

/// The value of `source` for `context`.
func evaluate(_ source: String, _ context: GeotriggerContext = fenceContext()) throws -> ArcadeValue {
    try MessageExpression(source).value(for: context)
}

/// The error `source` raises when parsed or evaluated, or nil.
func expressionError(_ source: String, limits: ExpressionLimits = .standard) -> ExpressionError? {
    do {
        _ = try MessageExpression(source, limits: limits).value(for: fenceContext())
        return nil
    } catch {
        return error
    }
}
