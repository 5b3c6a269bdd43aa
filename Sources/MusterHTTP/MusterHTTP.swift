/// The HTTP edge of Muster: `/api/v1` on Hummingbird, translating requests to the domain.
public enum MusterHTTP {}
