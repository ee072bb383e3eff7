import RawImage

/// What a raw file decoded to: the image with its metadata, the LinearizationTable it came with, and a
/// description of the file for `rawcap inspect`.
///
/// **Stored values, table alongside.** The samples are exactly the values stored in the file; nothing is
/// subtracted, scaled or mapped. A DNG LinearizationTable (DNG 1.7 p.26) is returned in
/// ``linearizationTable`` instead of being applied silently, because applying it is lossy in general (a
/// companding table maps 8–12 stored bits to 14–16 linear bits, and writing the linearized values again would
/// drop the compression the camera chose) and because a DNG writer can carry the table over unchanged. The
/// levels (``RawImage/RawFrame/blackLevels``, ``RawImage/RawFrame/whiteLevel``) are in the units DNG defines them in:
/// after linearization. When a table is present the frame's ``RawImage/RawFrame/bitsPerSample`` is therefore the
/// bit depth of the table's output (at least ``storedBitsPerSample``, so the stored values still fit); call
/// ``applyingLinearization()`` to get a frame whose samples are linear.
public struct DecodedRaw: Sendable {
    /// The decoded image.
    public enum Image: Sendable {
        /// A colour-filter-array mosaic (DNG PhotometricInterpretation 32803, or any vendor raw via LibRaw).
        case cfa(RawFrame)
        /// Demosaiced linear camera RGB (DNG PhotometricInterpretation 34892).
        case linear(LinearImage)
    }

    /// The image.
    public var image: Image
    /// The CFA image's LinearizationTable, stored value → linear value, when the file has one. (A linear image
    /// carries its table in ``RawImage/LinearImage/linearizationTable``.)
    public var linearizationTable: [UInt16]?
    /// Bits per sample as stored in the file (before any linearization).
    public var storedBitsPerSample: Int
    /// What the file holds besides the samples.
    public var info: RawFileInfo

    /// Creates a result.
    public init(image: Image, linearizationTable: [UInt16]? = nil, storedBitsPerSample: Int, info: RawFileInfo) {
        self.image = image
        self.linearizationTable = linearizationTable
        self.storedBitsPerSample = storedBitsPerSample
        self.info = info
    }

    /// The image's metadata, whichever kind the image is.
    public var metadata: CaptureMetadata {
        get {
            switch image {
            case .cfa(let frame): frame.metadata
            case .linear(let image): image.metadata
            }
        }
        set {
            switch image {
            case .cfa(var frame):
                frame.metadata = newValue
                image = .cfa(frame)
            case .linear(var linear):
                linear.metadata = newValue
                image = .linear(linear)
            }
        }
    }

    /// The CFA frame, or `nil` for a linear image.
    public var frame: RawFrame? {
        if case .cfa(let frame) = image { return frame }
        return nil
    }

    /// The linear image, or `nil` for a CFA frame.
    public var linearImage: LinearImage? {
        if case .linear(let image) = image { return image }
        return nil
    }

    /// The image's pixel size.
    public var size: (width: Int, height: Int) {
        switch image {
        case .cfa(let frame): (frame.width, frame.height)
        case .linear(let image): (image.width, image.height)
        }
    }

    /// The same result with the CFA frame's samples mapped through ``linearizationTable`` (values past the end of
    /// the table take its last entry, DNG 1.7 p.26) and the table removed; unchanged when there is no table or
    /// the image is linear.
    public func applyingLinearization() throws(RawImageError) -> DecodedRaw {
        guard let table = linearizationTable, let last = table.last, case .cfa(let frame) = image else { return self }
        let mapped = frame.samples.map { Int($0) < table.count ? table[Int($0)] : last }
        var copy = self
        copy.image = .cfa(try frame.withSamples(mapped))
        copy.linearizationTable = nil
        return copy
    }
}
