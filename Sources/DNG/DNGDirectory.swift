import TIFFVocabulary

/// One IFD of a plan: its entries in ascending tag order, its pixel data, and its child IFDs.
///
/// The initializer enforces the TIFF rules that readers trip over (dng-facts.md fact 8): entries are sorted by tag
/// and unique, an IFD is never empty, an IFD with pixel data carries consistent size tags and the right number of
/// strips or tiles, and tags that the writer fills in itself (offsets, byte counts, SubIFDs, ExifIFD) are absent.
public struct DNGDirectory: Sendable, CustomStringConvertible {
    /// The entries, sorted by tag id, one per tag.
    public let entries: [DNGEntry]
    /// The strips or tiles, for an image IFD.
    public let image: DNGImageData?
    /// Child IFDs reached through the SubIFDs tag (TIFF Technical Note 1; DNG 1.7 p.12), in order.
    public let subDirectories: [DNGDirectory]
    /// The EXIF IFD reached through the ExifIFD tag (EXIF 2.32 §4.6.3).
    public let exif: EXIFDirectory?

    /// The EXIF IFD: entries only (it holds no pixel data and no children).
    public struct EXIFDirectory: Sendable {
        /// The entries, sorted and unique.
        public let entries: [DNGEntry]

        /// Creates an EXIF IFD; throws when it is empty or has a duplicate tag.
        public init(entries: [DNGEntry]) throws(DNGError) {
            self.entries = try DNGDirectory.sortedUnique(entries, name: "EXIF IFD")
        }
    }

    /// Creates an IFD after checking it.
    ///
    /// - Throws: ``DNGError/Code/invalidPlan`` for an empty IFD, a duplicate tag, a writer-managed tag, a child IFD
    ///   that has children of its own (rawcap writes one level of SubIFDs, as the DNG spec recommends), or pixel data
    ///   whose chunk count or sizes do not match ImageWidth, ImageLength, BitsPerSample and SamplesPerPixel.
    public init(
        entries: [DNGEntry], image: DNGImageData? = nil, subDirectories: [DNGDirectory] = [],
        exif: EXIFDirectory? = nil
    ) throws(DNGError) {
        let sorted = try DNGDirectory.sortedUnique(entries, name: "IFD")
        if let managed = sorted.first(where: { TIFFTag.writerManaged.contains($0.tag.rawValue) }) {
            throw DNGError(.invalidPlan, "\(managed.tag) is written by the writer from the image data, not the plan")
        }
        guard subDirectories.allSatisfy({ $0.subDirectories.isEmpty && $0.exif == nil }) else {
            throw DNGError(.invalidPlan, "SubIFDs may not have SubIFDs or an EXIF IFD of their own")
        }
        guard UInt16(exactly: subDirectories.count) != nil else {
            throw DNGError(.doesNotFit, "\(subDirectories.count) SubIFDs")
        }
        self.entries = sorted
        self.image = image
        self.subDirectories = subDirectories
        self.exif = exif
        if let image { try checkImage(image) }
    }

    /// The value of `tag`, if present.
    public subscript(tag: TIFFTag) -> DNGValue? {
        entries.first { $0.tag.rawValue == tag.rawValue }?.value
    }

    /// The first value of an integer tag (SHORT or LONG), if present.
    public func integer(_ tag: TIFFTag) -> Int? {
        switch self[tag] {
        case .shorts(let values): values.first.map(Int.init)
        case .longs(let values): values.first.map(Int.init)
        default: nil
        }
    }

    /// The sum of all chunk sizes in this IFD and its children.
    public var imageByteCount: Int {
        (image?.byteCount ?? 0) + subDirectories.reduce(0) { $0 + $1.imageByteCount }
    }

    /// At least ``imageByteCount``, known without waiting for tiles still being encoded.
    var imageByteCountUpperBound: Int {
        (image?.byteCountUpperBound ?? 0) + subDirectories.reduce(0) { $0 + $1.imageByteCountUpperBound }
    }

    /// Blocks until the pixel data of this IFD and its children exists.
    func waitUntilEncoded() {
        image?.waitUntilEncoded()
        for child in subDirectories { child.waitUntilEncoded() }
    }

    /// Stops the background encoding of this IFD's and its children's tiles not yet started.
    func cancelEncoding() {
        for chunk in image?.chunks ?? [] { chunk.cancelEncoding() }
        for child in subDirectories { child.cancelEncoding() }
    }

    static func sortedUnique(_ entries: [DNGEntry], name: String) throws(DNGError) -> [DNGEntry] {
        guard !entries.isEmpty else { throw DNGError(.invalidPlan, "empty \(name)") }
        let sorted = entries.sorted { $0.tag.rawValue < $1.tag.rawValue }
        for (previous, next) in zip(sorted, sorted.dropFirst()) where previous.tag.rawValue == next.tag.rawValue {
            throw DNGError(.invalidPlan, "\(name) lists \(next.tag) twice")
        }
        return sorted
    }

    private func checkImage(_ image: DNGImageData) throws(DNGError) {
        guard let width = integer(.imageWidth), let height = integer(.imageLength), width > 0, height > 0 else {
            throw DNGError(.invalidPlan, "an IFD with pixel data needs ImageWidth and ImageLength")
        }
        guard let expected = image.expectedChunkCount(width: width, height: height) else {
            throw DNGError(.invalidPlan, "\(image.layout) does not fit \(width)×\(height)")
        }
        guard image.chunks.count == expected else {
            throw DNGError(
                .invalidPlan,
                "\(width)×\(height) in \(image.layout) needs \(expected) chunks, got \(image.chunks.count)")
        }
        switch image.layout {
        case .strips(let rows):
            guard integer(.rowsPerStrip) == rows, self[.tileWidth] == nil else {
                throw DNGError(.invalidPlan, "strips of \(rows) rows need RowsPerStrip = \(rows) and no tile tags")
            }
        case .tiles(let tileWidth, let tileHeight):
            guard integer(.tileWidth) == tileWidth, integer(.tileLength) == tileHeight, self[.rowsPerStrip] == nil
            else {
                throw DNGError(.invalidPlan, "\(image.layout) needs matching TileWidth/TileLength and no RowsPerStrip")
            }
        }
        // Uncompressed chunks have an exact size; check it so a plan can never write a short strip.
        guard integer(.compression) == 1 else { return }
        guard case .shorts(let bits) = self[.bitsPerSample], let bitsPerSample = bits.first,
            bits.allSatisfy({ $0 == bitsPerSample }), bitsPerSample == 8 || bitsPerSample == 16
        else {
            throw DNGError(.invalidPlan, "uncompressed data is written as 8- or 16-bit samples")
        }
        let samplesPerPixel = integer(.samplesPerPixel) ?? 1
        let bytesPerPixel = samplesPerPixel * Int(bitsPerSample) / 8
        guard bits.count == samplesPerPixel else {
            throw DNGError(.invalidPlan, "BitsPerSample has \(bits.count) entries for \(samplesPerPixel) samples")
        }
        for (index, chunk) in image.chunks.enumerated() {
            let expectedBytes: Int
            switch image.layout {
            case .strips(let rows):
                expectedBytes = min(rows, height - index * rows) * width * bytesPerPixel
            case .tiles(let tileWidth, let tileHeight):
                expectedBytes = tileWidth * tileHeight * bytesPerPixel
            }
            guard chunk.byteCount == expectedBytes else {
                throw DNGError(.invalidPlan, "chunk \(index) has \(chunk.byteCount) bytes, \(expectedBytes) expected")
            }
        }
    }

    /// The IFD as indented text: one line per entry, then the pixel data and the children.
    public var description: String { describe(name: "IFD0", indent: "") }

    func describe(name: String, indent: String) -> String {
        var lines = ["\(indent)\(name)"]
        for entry in entries { lines.append("\(indent)  \(entry)") }
        if let image {
            lines.append("\(indent)  data: \(image.chunks.count) \(image.layout), \(image.byteCount) bytes")
        }
        if let exif {
            lines.append("\(indent)  ExifIFD")
            for entry in exif.entries { lines.append("\(indent)    \(entry)") }
        }
        for (index, child) in subDirectories.enumerated() {
            lines.append(child.describe(name: "SubIFD[\(index)]", indent: indent + "  "))
        }
        return lines.joined(separator: "\n")
    }
}
