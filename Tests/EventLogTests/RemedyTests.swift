import EventLog
import Testing

/// The store says what to do next as a step, not as a command of one program.
struct RemedyTests {
    @Test(arguments: [
        StoreError.Remedy.verify, .verifyAndRestore, .restoreBackup(directory: "/srv/d"),
        .startOverOrRestore(directory: "/srv/d"), .rebuild(projection: "inbox"), .migrate, .useBackup,
    ])
    func aRemedyIsWordedWithoutACommand(remedy: StoreError.Remedy) {
        #expect(!remedy.description.contains("muster"))
        #expect(!remedy.description.contains("`"))
    }

    @Test func theDescriptionOfAnErrorEndsWithItsRemedy() {
        let error = StoreError(
            .projectionNotReady, "projection inbox is not built yet", remedy: .rebuild(projection: "inbox"))
        #expect(error.message == "projection inbox is not built yet")
        #expect(error.description == "projection inbox is not built yet; rebuild projection inbox")
        #expect(StoreError(.io, "cannot read x").description == "cannot read x")
    }
}
