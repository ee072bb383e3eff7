import WireFormat

/// What a raw file holds besides its samples: the container, how the raw image is stored, the previews, and the
/// messages the reading libraries produced. Shown by `rawcap inspect`.
public struct RawFileInfo: Sendable {
    /// The kind of file.
    public enum Container: Hashable, Sendable, CustomStringConvertible {
        /// Adobe DNG, with its DNGVersion and DNGBackwardVersion as `a.b.c.d`.
        case dng(version: String, backwardVersion: String?)
        /// A TIFF/EP file (ISO 12234-2) with the CFA image in IFD 0, as cameras deliver for PTP format 0x3802.
        case tiffEP
        /// A vendor raw format decoded by LibRaw, named for people (`Nikon NEF`, `Canon CR2`); LibRaw's decoder is
        /// in ``Storage/layout``.
        case vendor(String)

        public var description: String {
            switch self {
            case .dng(let version, let backward): "DNG \(version)" + (backward.map { " (backward \($0))" } ?? "")
            case .tiffEP: "TIFF/EP"
            case .vendor(let format): format
            }
        }
    }

    /// How the raw image's samples are stored.
    public struct Storage: Hashable, Sendable, CustomStringConvertible {
        /// Where the raw image sits, e.g. `IFD0/SubIFD0`; empty for vendor files.
        public var path: String
        /// The compression scheme (TIFF values; vendor files report LibRaw's decoder instead, see ``layout``).
        public var compression: TIFFCompression?
        /// Strips or tiles, e.g. `24 tiles of 256×256` or `1 strip of 4000 rows`.
        public var layout: String
        /// Bits per stored sample.
        public var bitsPerSample: Int
        /// Samples per pixel (1 for CFA, 3 for LinearRaw).
        public var samplesPerPixel: Int

        public var description: String {
            let scheme = compression.map { "\($0)" } ?? "vendor"
            return "\(scheme), \(layout), \(bitsPerSample)-bit × \(samplesPerPixel)"
        }
    }

    /// One embedded preview or thumbnail.
    public struct Preview: Hashable, Sendable, CustomStringConvertible {
        /// How the preview's pixels are stored.
        public enum Kind: Hashable, Sendable, CustomStringConvertible {
            /// A JPEG stream (TIFF Compression 7 or 6, or a vendor JPEG).
            case jpeg
            /// Uncompressed 8-bit RGB.
            case rgb
            /// Anything else, described.
            case other(String)

            public var description: String {
                switch self {
                case .jpeg: "JPEG"
                case .rgb: "RGB"
                case .other(let text): text
                }
            }
        }

        /// Where it sits, e.g. `IFD0` or `IFD0/SubIFD1`.
        public var path: String
        /// Columns.
        public var width: Int
        /// Rows.
        public var height: Int
        /// JPEG, RGB or other.
        public var kind: Kind
        /// Bytes it occupies in the file.
        public var byteCount: Int

        public var description: String { "\(width)×\(height) \(kind) (\(byteCount) bytes) in \(path)" }
    }

    /// Which decoder read the samples.
    public enum Reader: String, Hashable, Sendable, CustomStringConvertible {
        /// rawcap's own TIFF reader (DNG, TIFF/EP).
        case rawcap
        /// LibRaw: every vendor format, and a DNG or TIFF/EP whose data rawcap's reader does not decode (lossy JPEG
        /// tiles, say).
        case libRaw

        public var description: String {
            switch self {
            case .rawcap: "rawcap"
            case .libRaw: "LibRaw \(LibRawDecoder.libraryVersion)"
            }
        }
    }

    /// The container.
    public var container: Container
    /// Which decoder read the samples.
    public var reader: Reader
    /// The TIFF byte order, when the file is a TIFF.
    public var byteOrder: ByteOrder?
    /// How the raw image is stored.
    public var storage: Storage
    /// The previews, largest first.
    public var previews: [Preview]
    /// Messages from the reading libraries and from rawcap's own leniencies (a crop that did not fit and was
    /// replaced, a black-level pattern that had to be averaged), for the user to see.
    public var warnings: [String]
    /// The DNG NewRawImageDigest (tag 51111, 16 bytes, MD5) stored in IFD 0, when the file has one: what the
    /// samples must hash to (see `DNG.RawImageDigest`), so that damaged pixel data can be told from intact data.
    public var rawImageDigest: [UInt8]?

    /// Creates a description.
    public init(
        container: Container, byteOrder: ByteOrder? = nil, storage: Storage, previews: [Preview] = [],
        warnings: [String] = [], rawImageDigest: [UInt8]? = nil, reader: Reader = .rawcap
    ) {
        self.container = container
        self.reader = reader
        self.byteOrder = byteOrder
        self.storage = storage
        self.previews = previews
        self.warnings = warnings
        self.rawImageDigest = rawImageDigest
    }
}
