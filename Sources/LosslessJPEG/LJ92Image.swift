/// A decoded lossless JPEG frame: the samples in the interleaved row layout ``LJ92Encoder`` takes.
public struct LJ92Image: Sendable {
    /// The frame's size, components and precision.
    public let frame: LJ92FrameHeader
    /// ``LJ92FrameHeader/height`` rows of ``LJ92FrameHeader/samplesPerRow`` samples; pixel x of row y holds its
    /// components at `y × samplesPerRow + x × components + c`. Point transforms are already undone.
    public var samples: [UInt16]

    /// Wraps decoded samples.
    public init(frame: LJ92FrameHeader, samples: [UInt16]) {
        self.frame = frame
        self.samples = samples
    }

    /// Pixels per row.
    public var width: Int { frame.width }
    /// Rows.
    public var height: Int { frame.height }
    /// Components per pixel.
    public var components: Int { frame.components }
    /// Bits per sample.
    public var precision: Int { frame.precision }
}
