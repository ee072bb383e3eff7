/// Decodes lossless JPEG streams (ITU T.81 process 14, SOF3): DNG Compression 7 tiles and strips, and the lossless
/// JPEG inside vendor raw files.
///
/// Accepted: precision 2…16, 1…4 components with 1×1 sampling, predictors 1…7, any point transform, up to four
/// Huffman tables from any number of DHT segments, restart intervals (DRI/RSTn) that span whole rows (as in
/// libjpeg-turbo, which counts lossless restart intervals in rows; T.81 H.1.2.1 resets prediction per line), APPn, COM
/// and DQT segments (skipped), fill bytes before markers, and several scans that each code some of the
/// components. Everything else throws ``LJ92Error``: another SOF is ``LJ92Error/Code/unsupportedProcess``, a
/// damaged or short stream is ``LJ92Error/Code/truncated``, ``LJ92Error/Code/invalidCode`` and so on. Sizes are
/// checked against `WireLimits` and against the input length before anything is allocated. Nothing traps,
/// whatever the bytes.
///
/// Offsets in errors are indices into the input (for a slice, into its base array).
public enum LJ92Decoder {
    /// Reads the frame header (up to and including SOF3) without decoding any data.
    public static func frameHeader(of bytes: ArraySlice<UInt8>) throws(LJ92Error) -> LJ92FrameHeader {
        var parser = LJ92StreamParser(bytes: bytes)
        return try parser.readFrameHeader()
    }

    /// Reads the frame header of a whole array; see ``frameHeader(of:)-(ArraySlice<UInt8>)``.
    public static func frameHeader(of bytes: [UInt8]) throws(LJ92Error) -> LJ92FrameHeader {
        try frameHeader(of: bytes[...])
    }

    /// Decodes a complete stream (SOI to EOI) into a new sample array.
    public static func decode(_ bytes: ArraySlice<UInt8>) throws(LJ92Error) -> LJ92Image {
        var parser = LJ92StreamParser(bytes: bytes)
        let frame = try parser.readFrameHeader()
        let count = frame.sampleCount
        var failure: LJ92Error?
        let samples = [UInt16](unsafeUninitializedCapacity: count) { buffer, initialized in
            do throws(LJ92Error) {
                if let base = buffer.baseAddress {
                    try parser.decodeScans(into: base, rowStride: frame.samplesPerRow)
                }
            } catch {
                failure = error
                // Nothing is read from the array when decoding failed; zero it so it is never uninitialised.
                buffer.initialize(repeating: 0)
            }
            initialized = count
        }
        if let failure { throw failure }
        return LJ92Image(frame: frame, samples: samples)
    }

    /// Decodes a complete stream held in a whole array; see ``decode(_:)-(ArraySlice<UInt8>)``.
    public static func decode(_ bytes: [UInt8]) throws(LJ92Error) -> LJ92Image {
        try decode(bytes[...])
    }

    /// Decodes a complete stream into caller-owned memory: JPEG row `r` goes to
    /// `destination[r × rowStride ..< r × rowStride + samplesPerRow]`; other samples are left alone.
    ///
    /// Readers use this to decode a DNG tile straight into the plane when the JPEG frame has the tile's shape, and
    /// ``frameHeader(of:)-(ArraySlice<UInt8>)`` first to check that it does.
    ///
    /// - Returns: the frame header.
    /// - Throws: ``LJ92Error/Code/invalidInput`` when the rows do not fit `destination`, and every error of
    ///   ``decode(_:)-(ArraySlice<UInt8>)``. On error, the destination holds partial data.
    public static func decode(
        _ bytes: ArraySlice<UInt8>, into destination: UnsafeMutableBufferPointer<UInt16>, rowStride: Int
    ) throws(LJ92Error) -> LJ92FrameHeader {
        var parser = LJ92StreamParser(bytes: bytes)
        let frame = try parser.readFrameHeader()
        guard rowStride >= frame.samplesPerRow else {
            throw LJ92Error(.invalidInput, "row stride \(rowStride) is shorter than a row of \(frame.samplesPerRow)")
        }
        let (span, overflow) = (frame.height - 1).multipliedReportingOverflow(by: rowStride)
        guard !overflow, span <= destination.count - frame.samplesPerRow, let base = destination.baseAddress else {
            throw LJ92Error(
                .invalidInput, "\(frame.height) rows at stride \(rowStride) overrun \(destination.count) samples")
        }
        try parser.decodeScans(into: base, rowStride: rowStride)
        return frame
    }
}
