/// What one shot stores on the camera: the raw file, a JPEG, or both (RAW+JPEG).
public enum ShotQuality: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The raw file alone.
    case raw
    /// The raw file and the camera's JPEG of the same exposure.
    case rawPlusJPEG
    /// A JPEG alone.
    case jpeg

    /// How many objects a shot of this quality stores.
    public var objectCount: Int { self == .rawPlusJPEG ? 2 : 1 }
    /// Whether the shot includes a raw object.
    public var includesRaw: Bool { self != .jpeg }
    /// Whether the shot includes a JPEG object.
    public var includesJPEG: Bool { self != .raw }

    /// `RAW`, `RAW+JPEG` or `JPEG`.
    public var description: String {
        switch self {
        case .raw: "RAW"
        case .rawPlusJPEG: "RAW+JPEG"
        case .jpeg: "JPEG"
        }
    }
}
