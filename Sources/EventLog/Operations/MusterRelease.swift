/// The release of Muster this code is, recorded in backup manifests.
public enum MusterRelease {
    /// The release number.
    public static let version = "0.1.0"
}
