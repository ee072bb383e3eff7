/// A file a run saved, as `--json` prints it (one object per line) and the progress display reports it.
public struct SavedFile: Codable, Hashable, Sendable {
    /// The exposure the file's metadata records.
    public struct Exposure: Codable, Hashable, Sendable {
        /// Exposure time, as a fraction of seconds (`1/125`).
        public var time: String?
        /// Seconds.
        public var seconds: Double?
        /// F-number.
        public var fNumber: Double?
        /// ISO speed.
        public var iso: Int?
        /// Exposure bias in EV.
        public var bias: Double?

        /// Creates an exposure record.
        public init(
            time: String? = nil, seconds: Double? = nil, fNumber: Double? = nil, iso: Int? = nil, bias: Double? = nil
        ) {
            self.time = time
            self.seconds = seconds
            self.fNumber = fNumber
            self.iso = iso
            self.bias = bias
        }
    }

    /// Where each part of the shot's time went, in seconds.
    public struct Timings: Codable, Hashable, Sendable {
        /// Trigger to last object announced.
        public var capture: Double
        /// Downloading the shot's objects.
        public var download: Double
        /// Decoding and encoding this file, writing it included.
        public var encode: Double
        /// Trigger to this file on disk.
        public var total: Double

        /// Creates timings.
        public init(capture: Double, download: Double, encode: Double, total: Double) {
            self.capture = capture
            self.download = download
            self.encode = encode
            self.total = total
        }
    }

    /// The file's path.
    public var path: String
    /// Its size in bytes.
    public var size: Int
    /// Its SHA-256, hex.
    public var sha256: String
    /// The camera model.
    public var camera: String
    /// The camera's serial number.
    public var serial: String
    /// The file's format: `bayer14`, `linear`, `tiff`, `jpeg`, or `original`.
    public var format: String
    /// The frame's number in the run, from 1.
    public var frame: Int
    /// The bracket step, in EV.
    public var bracket: Double?
    /// The object's handle on the camera.
    public var handle: UInt32
    /// The object's name on the camera.
    public var cameraFile: String
    /// The exposure.
    public var exposure: Exposure?
    /// The timings.
    public var timings: Timings?

    /// Creates a record.
    public init(
        path: String, size: Int, sha256: String, camera: String, serial: String, format: String, frame: Int,
        bracket: Double?, handle: UInt32, cameraFile: String, exposure: Exposure?, timings: Timings?
    ) {
        self.path = path
        self.size = size
        self.sha256 = sha256
        self.camera = camera
        self.serial = serial
        self.format = format
        self.frame = frame
        self.bracket = bracket
        self.handle = handle
        self.cameraFile = cameraFile
        self.exposure = exposure
        self.timings = timings
    }
}
