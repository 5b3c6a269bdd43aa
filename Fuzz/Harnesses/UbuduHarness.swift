import Foundation
import Muster

extension FuzzTarget {
    /// An areas document as an operator imports it (`muster areas import`, `PUT /api/v1/geofences`).
    static let ubudu = FuzzTarget(name: "ubudu", summary: "UbuduFormat.read on an areas document") { input in
        let document: UbuduFormat.Document
        do {
            document = try UbuduFormat.read(Data(input))
        } catch {
            return require(error is MusterError, "read threw \(type(of: error)), not a MusterError")
        }
        // The canonical form of what was read reads back as the same areas.
        let written = UbuduFormat.json(document.areas)
        let again: UbuduFormat.Document
        do {
            again = try UbuduFormat.read(written)
        } catch {
            return require(false, "the areas' own JSON is refused: \(error)")
        }
        require(
            again.areas == document.areas,
            "the areas' own JSON reads back differently: \(String(decoding: written, as: UTF8.self))")
        // Values kept as given (a day whose open is after its close) warn again; nothing new may appear.
        let given = Set(document.warnings.map { $0.drop { $0 != ":" } })
        for warning in again.warnings {
            require(given.contains(warning.drop { $0 != ":" }), "the areas' own JSON gives a new warning: \(warning)")
        }
    }
}
