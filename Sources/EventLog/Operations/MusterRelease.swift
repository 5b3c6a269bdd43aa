/// The release of Muster this code is: `muster --version`, `GET /api/v1/server`, the `muster_build_info` metric and
/// backup manifests all say this one.
public enum MusterRelease {
    /// The release number; `-dev` until the changes under "Unreleased" in CHANGELOG.md are released.
    public static let version = "0.2.0-dev"
}
