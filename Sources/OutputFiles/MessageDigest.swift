import CCrypto

#if canImport(Glibc)
    import Glibc
#endif

/// MD5 or SHA-256 through OpenSSL's libcrypto (`EVP_Digest*`): MD5 for DNG's NewRawImageDigest and RawDataUniqueID,
/// SHA-256 for the checksums rawcap prints for saved files.
///
/// Use ``hash(_:_:)`` for a buffer in memory, or create a value and feed it with ``update(_:)`` for data that
/// arrives in pieces. A value owns its `EVP_MD_CTX`; it is not meant to be shared between threads.
public final class MessageDigest {
    /// The digest algorithm.
    public enum Algorithm: Sendable, Hashable {
        /// MD5 (RFC 1321), 16 bytes. The corresponding C symbol is `EVP_md5`.
        case md5
        /// SHA-256 (FIPS 180-4), 32 bytes. The corresponding C symbol is `EVP_sha256`.
        case sha256

        /// The digest's size in bytes.
        public var byteCount: Int {
            switch self {
            case .md5: 16
            case .sha256: 32
            }
        }

        fileprivate var evp: OpaquePointer? {
            switch self {
            case .md5: EVP_md5()
            case .sha256: EVP_sha256()
            }
        }
    }

    /// The algorithm this value computes.
    public let algorithm: Algorithm
    private let context: OpaquePointer

    /// Starts a digest. Only an allocation failure inside OpenSSL can make this fail, which is a programmer-level
    /// environment problem, so it stops the process with a message.
    public init(_ algorithm: Algorithm) {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, algorithm.evp, nil) == 1 else {
            preconditionFailure("OpenSSL could not start a \(algorithm) digest")
        }
        self.algorithm = algorithm
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds bytes to the digest.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let accepted = EVP_DigestUpdate(context, base, bytes.count)
        precondition(accepted == 1, "EVP_DigestUpdate failed on an initialised context")
    }

    /// Adds bytes to the digest.
    public func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let array = Array(bytes)
        array.withUnsafeBytes { update($0) }
    }

    /// Finishes the digest and returns it; the value must not be used afterwards.
    public func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let finished = digest.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &length) }
        precondition(finished == 1 && Int(length) == algorithm.byteCount, "EVP_DigestFinal_ex failed")
        return Array(digest.prefix(Int(length)))
    }

    /// The digest of one buffer.
    public static func hash(_ algorithm: Algorithm, _ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: algorithm.byteCount)
        let done = digest.withUnsafeMutableBufferPointer { output -> Int32 in
            guard let out = output.baseAddress else { return 0 }
            // A zero-length buffer may have no base address; libcrypto accepts any pointer for zero bytes.
            let input = bytes.baseAddress ?? UnsafeRawPointer(out)
            switch algorithm {
            case .md5: return rc_md5(input, bytes.count, out)
            case .sha256: return rc_sha256(input, bytes.count, out)
            }
        }
        precondition(done == 1, "EVP_Digest(\(algorithm)) failed")
        return digest
    }

    /// The digest of a byte array.
    public static func hash(_ algorithm: Algorithm, _ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { hash(algorithm, $0) }
    }

    /// The digest of a file's contents, read in 1 MiB pieces.
    ///
    /// - Throws: ``OutputFileError`` with the path and errno when the file cannot be opened or read.
    public static func hashFile(_ algorithm: Algorithm, at path: String) throws(OutputFileError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let failure = errno
            // A missing file to read is an IO failure, not the missing destination folder ENOENT means elsewhere.
            if failure == ENOENT {
                throw OutputFileError(
                    .ioFailure, path: path, "open failed: no such file (errno \(failure))", errno: failure)
            }
            throw OutputFileError.system("open", path: path, errno: failure)
        }
        defer { close(descriptor) }
        return try hashFile(algorithm, descriptor: descriptor, name: path)
    }

    /// Starts the SHA-256 of the open file `descriptor` from its first byte on a background thread, through a
    /// duplicate of the descriptor (so the caller may close its own meanwhile) and `pread` (so neither moves the
    /// other's offset).
    ///
    /// - Throws: ``OutputFileError`` when the descriptor cannot be duplicated; the job's result carries a read failure.
    package static func hashFileInBackground(_ descriptor: Int32, name: String) throws(OutputFileError)
        -> BackgroundJob<Result<[UInt8], OutputFileError>>
    {
        let own = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard own >= 0 else { throw OutputFileError.system("dup", path: name, errno: errno) }
        return BackgroundJob {
            defer { close(own) }
            return Result { () throws(OutputFileError) in try hashFile(.sha256, descriptor: own, name: name) }
        }
    }

    /// The digest of the open file `descriptor` from its first byte to its end.
    private static func hashFile(_ algorithm: Algorithm, descriptor: Int32, name: String) throws(OutputFileError)
        -> [UInt8]
    {
        let digest = MessageDigest(algorithm)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while true {
            let count = try digest.update(
                fileDescriptor: descriptor, range: offset..<offset + buffer.count, buffer: &buffer, name: name)
            offset += count
            if count < buffer.count { return digest.finalize() }
        }
    }

    /// Adds bytes `range` of the open file `descriptor` to the digest, read with `pread` (the file offset does not
    /// move) through `buffer`, which the caller keeps between calls.
    ///
    /// - Returns: the bytes added; fewer than `range.count` when the file ends first.
    /// - Throws: ``OutputFileError`` naming `name` when a read fails.
    public func update(fileDescriptor descriptor: Int32, range: Range<Int>, buffer: inout [UInt8], name: String)
        throws(OutputFileError) -> Int
    {
        var offset = range.lowerBound
        while offset < range.upperBound {
            let want = min(buffer.count, range.upperBound - offset)
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, want, off_t(offset)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw OutputFileError.system("read", path: name, errno: errno)
            }
            if count == 0 { break }
            buffer.withUnsafeBytes { update(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
            offset += count
        }
        return offset - range.lowerBound
    }

    /// Lowercase hexadecimal, the form `sha256sum` prints.
    public static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(digest.count * 2)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }
}
