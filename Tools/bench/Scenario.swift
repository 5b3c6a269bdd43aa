/// One benchmark: measures Muster and its baselines in the same run and fills in a report.
protocol Scenario: Sendable {
    /// The name `--scenario` selects and the report prints.
    var name: String { get }
    /// Runs the scenario. Figures already added to `report` are kept when it throws.
    func run(_ settings: Settings, into report: inout ScenarioReport) async throws
}

/// Every scenario, in the order a full run executes them.
let allScenarios: [any Scenario] = [
    DurableAppend(), Rebuild(), JSONLinesImport(), Backup(), BlobIngest(), SendToAll(), HTTPSubmission(),
    HTTPLocations(),
    Geofences(), EventDecode(), PushFanout(), WebInbox(), TopicStream(), IdleFollowers(), MQTTIngest(), Cluster(),
    ClusterScale(),
    ClusterNamespaces(),
    Soak(),
]
