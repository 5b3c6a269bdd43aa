/// The sphere all distances are measured on.
public enum Earth {
    /// The WGS84 mean radius R1 = (2a + b) / 3, in metres (IUGG).
    public static let meanRadius: Double = 6_371_008.8
}
