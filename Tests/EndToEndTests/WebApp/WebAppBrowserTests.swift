import Testing

/// Every test that drives Chromium, one after another: browsers running side by side on a small machine would make
/// each other's waits flaky.
@Suite(.serialized) struct WebAppBrowserTests {}
