import TIFFVocabulary

/// Every IFD of a TIFF file that libtiff read, in walk order, with the EXIF IFDs they point to and libtiff's
/// messages. Produced by ``LibTIFFFile/readStructure(of:)``; everything that interprets it is pure Swift.
public struct TIFFStructure: Sendable {
    /// A message libtiff reported while reading (its error and warning handlers, per file).
    public struct Message: Hashable, Sendable, CustomStringConvertible {
        /// How serious libtiff considered it.
        public enum Severity: String, Hashable, Sendable {
            case warning, error
        }

        /// Warning or error.
        public let severity: Severity
        /// The libtiff function that reported it (`module`).
        public let module: String
        /// The formatted text.
        public let text: String

        public var description: String { "\(severity) \(module): \(text)" }
    }

    /// The file header.
    public let header: TIFFHeader
    /// Every IFD: each chain IFD followed depth-first by its SubIFDs.
    public let directories: [TIFFDirectory]
    /// The EXIF IFDs that directories point to, keyed by their offset.
    public let exifDirectories: [UInt64: [TIFFTag: TIFFTagValue]]
    /// libtiff's warnings and errors while reading, in order (at most ``maxMessages``).
    public let messages: [Message]

    /// Most libtiff messages kept per file; a hostile file can make libtiff warn once per IFD entry.
    public static let maxMessages = 64

    /// Creates a structure; used by the libtiff adapter and by tests.
    public init(
        header: TIFFHeader, directories: [TIFFDirectory], exifDirectories: [UInt64: [TIFFTag: TIFFTagValue]] = [:],
        messages: [Message] = []
    ) {
        self.header = header
        self.directories = directories
        self.exifDirectories = exifDirectories
        self.messages = messages
    }

    /// IFD0, when the file has one.
    public var ifd0: TIFFDirectory? {
        directories.first { $0.position == .chain(index: 0) }
    }

    /// The EXIF tags that apply to `directory`: its own EXIF IFD, else IFD0's.
    public func exif(for directory: TIFFDirectory) -> [TIFFTag: TIFFTagValue] {
        for candidate in [directory, ifd0].compactMap({ $0 }) {
            if let value = candidate[.exifIFD]?.integers?.first, let offset = UInt64(exactly: value),
                let exif = exifDirectories[offset]
            {
                return exif
            }
        }
        return [:]
    }
}
