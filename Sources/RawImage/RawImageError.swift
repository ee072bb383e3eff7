/// A raw frame, pattern or scene that does not hold together: wrong sample count, bad bit depth, a crop
/// outside the image.
public struct RawImageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Width or height is zero, negative or above ``RawFrame/maxDimension``.
        public static let invalidSize = Code(rawValue: "invalidSize")
        /// The number of samples does not match width × height × samples per pixel.
        public static let sampleCountMismatch = Code(rawValue: "sampleCountMismatch")
        /// Bits per sample outside 8…16.
        public static let unsupportedBitDepth = Code(rawValue: "unsupportedBitDepth")
        /// A CFA pattern with the wrong number of colours or an unusable size.
        public static let invalidPattern = Code(rawValue: "invalidPattern")
        /// Black levels, white level, active area or crop that do not fit the frame.
        public static let invalidLevels = Code(rawValue: "invalidLevels")
        /// The active area or default crop reaches outside the image.
        public static let invalidGeometry = Code(rawValue: "invalidGeometry")
        /// A colour matrix or neutral with the wrong number of entries or unusable values.
        public static let invalidColor = Code(rawValue: "invalidColor")
        /// Exposure, scene or rendering settings outside their usable range (a zero shutter time, an f-number of
        /// 0, a requested image size of 0).
        public static let invalidSettings = Code(rawValue: "invalidSettings")

        public var description: String { rawValue }
    }

    /// The kind of problem; `==` compares only this.
    public let code: Code
    /// What exactly is wrong, for the message.
    public let detail: String

    /// Creates an error.
    public init(_ code: Code, _ detail: String = "") {
        self.code = code
        self.detail = detail
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    public var description: String { detail.isEmpty ? "\(code)" : "\(code): \(detail)" }
}
