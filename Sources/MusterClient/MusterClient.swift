/// The Swift client of a Muster server.
public enum MusterClientPlaceholder {}
