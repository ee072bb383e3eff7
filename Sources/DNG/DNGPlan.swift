/// Everything a DNG file will contain, decided before any byte is written: IFD0 with its SubIFDs and EXIF IFD, every
/// entry, and the strips and tiles already compressed.
///
/// A plan is a plain value (STYLE §1 "DNG output is planned, then written"): building it is pure and deterministic,
/// so it is unit-tested without files, and the libtiff adapter (``DNGWriter``) only transcribes it.
public struct DNGPlan: Sendable, CustomStringConvertible {
    /// IFD0 (DNG 1.7 p.12): the thumbnail and the DNG/TIFF tags that apply to the whole file.
    public let root: DNGDirectory

    /// Room kept for IFDs and out-of-line values when checking the 4 GiB limit: far above the few kilobytes rawcap's
    /// directories take, even with a 64 Ki-entry LinearizationTable.
    static let directoryAllowance = 1 << 20

    /// Creates a plan.
    ///
    /// - Throws: ``DNGError/Code/doesNotFit`` when the pixel data would push offsets past 4 GiB, which classic TIFF
    ///   cannot address (rawcap does not write BigTIFF: DNG readers rarely accept it, DNG 1.7 p.17-18).
    public init(root: DNGDirectory) throws(DNGError) {
        // The bound, not the exact size: lossless tiles may still be being encoded (they stream into the file).
        try Self.checkFits(imageByteCount: root.imageByteCountUpperBound)
        self.root = root
    }

    /// Blocks until every strip and tile exists: lossless tiles are encoded in the background while the writer
    /// writes the ones already done (the raw digest waits for this so that it does not compete with the encoders).
    public func waitUntilEncoded() {
        root.waitUntilEncoded()
    }

    /// Stops the background encoding of tiles not yet started (a write that failed has no use for them).
    func cancelEncoding() {
        root.cancelEncoding()
    }

    /// Throws unless `imageByteCount` bytes of pixel data plus the directories stay within 32-bit offsets.
    static func checkFits(imageByteCount: Int) throws(DNGError) {
        let (total, overflow) = imageByteCount.addingReportingOverflow(directoryAllowance)
        guard !overflow, total <= Int(UInt32.max) else {
            throw DNGError(.doesNotFit, "\(imageByteCount) bytes of pixel data exceed a classic TIFF's 4 GiB")
        }
    }

    /// The raw image IFD: the first directory (IFD0 or a SubIFD) with NewSubFileType 0.
    public var rawDirectory: DNGDirectory? {
        ([root] + root.subDirectories).first { $0.integer(.newSubfileType) == 0 }
    }

    /// The whole plan as text, one entry per line; stable across runs, used by the golden tests.
    public var description: String { root.description }
}
