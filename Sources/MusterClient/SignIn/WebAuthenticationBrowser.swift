#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
    import AuthenticationServices
    import Foundation

    /// The sign-in page in `ASWebAuthenticationSession`: the system's browser sheet, which comes back to the app
    /// through its URL scheme (the redirect `urlScheme:/oauth/callback`).
    public struct WebAuthenticationBrowser: OAuthBrowser {
        /// The window the sheet is shown over.
        public let anchor: @MainActor @Sendable () -> ASPresentationAnchor
        /// Whether to keep the browser's cookies out of it, so the person signs in afresh every time.
        public let prefersEphemeralSession: Bool

        /// A browser showing its sheet over `anchor()`'s window.
        public init(
            prefersEphemeralSession: Bool = false, anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor
        ) {
            self.prefersEphemeralSession = prefersEphemeralSession
            self.anchor = anchor
        }

        /// Shows the sheet and returns the redirect it caught; throws when the person closed it.
        public func signIn(at authorizationURL: URL, redirectURI: URL) async throws -> URL {
            try await Self.present(
                authorizationURL, callbackScheme: redirectURI.scheme ?? "", anchor: anchor,
                ephemeral: prefersEphemeralSession)
        }

        @MainActor
        private static func present(
            _ url: URL, callbackScheme: String, anchor: @MainActor @Sendable () -> ASPresentationAnchor,
            ephemeral: Bool
        ) async throws -> URL {
            let context = PresentationContext(anchor: anchor())
            return try await withCheckedThrowingContinuation { continuation in
                let session = ASWebAuthenticationSession(url: url, callbackURLScheme: callbackScheme) {
                    callback, error in
                    // The session holds its context weakly: the handler keeps it alive until the sheet is done.
                    withExtendedLifetime(context) {
                        if let callback {
                            continuation.resume(returning: callback)
                        } else {
                            continuation.resume(throwing: error ?? CancellationError())
                        }
                    }
                }
                session.presentationContextProvider = context
                session.prefersEphemeralWebBrowserSession = ephemeral
                if !session.start() {
                    continuation.resume(
                        throwing: MusterClientError(
                            code: .cancelled, message: "the system could not show the sign-in sheet"))
                }
            }
        }
    }

    /// Tells the session which window to show its sheet over.
    @MainActor
    private final class PresentationContext: NSObject, ASWebAuthenticationPresentationContextProviding {
        let anchor: ASPresentationAnchor

        init(anchor: ASPresentationAnchor) {
            self.anchor = anchor
        }

        func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
            anchor
        }
    }
#endif
