import Testing

/// The cluster's end-to-end suites, one after another: each starts three nats-servers and `muster serve` nodes, and
/// two of them at once on a loaded machine slowed a node's start past its minute.
@Suite(.serialized) enum ClusterSuites {}
