/// The frame parameters of a lossless JPEG stream: its SOF3 header (ITU T.81 B.2.2).
///
/// | field | size | meaning |
/// |---|---|---|
/// | `Lf` | 2 | segment length, 8 + 3 × Nf |
/// | `P` | 1 | sample precision in bits (``precision``, 2…16 for lossless) |
/// | `Y` | 2 | number of lines (``height``) |
/// | `X` | 2 | samples per line (``width``) |
/// | `Nf` | 1 | number of components (``components``) |
/// | `Ci`, `Hi`/`Vi`, `Tqi` | 3 × Nf | component id, sampling factors (1×1 here), quantisation table (0) |
public struct LJ92FrameHeader: Hashable, Sendable {
    /// Bits per sample P.
    public let precision: Int
    /// Pixels per row X (each pixel has ``components`` samples).
    public let width: Int
    /// Rows Y.
    public let height: Int
    /// Interleaved components per pixel Nf.
    public let components: Int
    /// The component identifiers `Ci`, in frame order; scans refer to components by these.
    public let componentIDs: [UInt8]

    /// Creates a header; the decoder validates the values it reads.
    public init(precision: Int, width: Int, height: Int, componentIDs: [UInt8]) {
        self.precision = precision
        self.width = width
        self.height = height
        self.components = componentIDs.count
        self.componentIDs = componentIDs
    }

    /// Samples in one decoded row: ``width`` × ``components``.
    public var samplesPerRow: Int { width * components }
    /// Samples in the whole frame: ``samplesPerRow`` × ``height``.
    public var sampleCount: Int { samplesPerRow * height }
}
