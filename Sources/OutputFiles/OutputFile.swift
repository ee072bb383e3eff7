import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A new file that appears under its final name only once it is complete and on disk, and never replaces an
/// existing file (DESIGN.md: "Files are never lost").
///
/// The data goes to a hidden temporary file in the destination folder (`.NAME.rawcap-…​.tmp`, created with
/// `O_EXCL`). ``commit()`` then `fsync`s it, publishes it under the final name with `renameat2(RENAME_NOREPLACE)`
/// (or, on file systems without that flag, `link(2)` followed by `unlink(2)`; both fail with `EEXIST` instead of
/// replacing a file), and `fsync`s the folder so the new name survives a power cut. If anything fails, or the value
/// is released without ``commit()``, the temporary file is removed.
///
/// A name taken meanwhile (another rawcap writing into the same folder) fails the commit with
/// ``OutputFileError/Code/fileExists``, or, with ``WhenTaken/nextFree(stem:fileExtension:companions:)``, moves the file to
/// the next free name (`STEM-1.EXT`, `STEM-2.EXT`, …), which ``path`` then holds.
///
/// Used for DNGs and for every other file the capture code saves (JPEGs, TIFFs).
public final class OutputFile {
    /// What happens when the final name is taken, when the file is created or published.
    public enum WhenTaken: Sendable, Hashable {
        /// Fail with ``OutputFileError/Code/fileExists``.
        case refuse
        /// Publish under the first free name of `STEM.EXT`, `STEM-1.EXT`, `STEM-2.EXT`, … (up to ``maxSuffix``) for
        /// which no `STEM-N.C` exists either, for each extension `C` of `companions` (a RAW file and its JPEG share
        /// their stem).
        case nextFree(stem: String, fileExtension: String, companions: [String] = [])

        /// The most suffixes tried before giving up: far more than a real folder holds, few enough to fail quickly.
        public static let maxSuffix = 9999

        /// `STEM.EXT` for 0, `STEM-N.EXT` for N.
        public static func name(stem: String, fileExtension: String, suffix: Int) -> String {
            (suffix == 0 ? stem : "\(stem)-\(suffix)") + (fileExtension.isEmpty ? "" : "." + fileExtension)
        }

        /// The policy for a file name `name` (`STEM.EXT`, or `STEM` without a dot).
        public static func nextFree(name: String, companions: [String] = []) -> WhenTaken {
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else {
                return .nextFree(stem: name, fileExtension: "", companions: companions)
            }
            return .nextFree(
                stem: String(name[..<dot]), fileExtension: String(name[name.index(after: dot)...]),
                companions: companions)
        }
    }

    /// The final path: where the file is (after ``commit()``) or is meant to be (a name taken meanwhile may move it
    /// with ``WhenTaken/nextFree(stem:fileExtension:companions:)``).
    public private(set) var path: String
    /// The temporary file's path in the same folder.
    public let temporaryPath: String
    /// The temporary file's descriptor, open for reading and writing (libtiff reads back what it wrote).
    public let fileDescriptor: Int32

    private let folderDescriptor: Int32
    private let folder: String
    private var name: String
    private let temporaryName: String
    private let whenTaken: WhenTaken
    private var isOpen = true

    /// Creates the temporary file for `path`.
    ///
    /// - Throws: ``OutputFileError`` naming the path: ``OutputFileError/Code/folderNotFound`` when the folder does not exist,
    ///   ``OutputFileError/Code/fileExists`` when `path` already exists (checked here so the caller does not encode for
    ///   nothing; ``commit()`` still refuses to replace a file that appears meanwhile),
    ///   ``OutputFileError/Code/notWritable`` for a read-only or forbidden folder, ``OutputFileError/Code/diskFull``.
    ///
    /// With `whenTaken` ``WhenTaken/nextFree(stem:fileExtension:companions:)`` an existing file is no error: the file
    /// goes to the next free name when it is published.
    public init(creatingAt path: String, whenTaken: WhenTaken = .refuse) throws(OutputFileError) {
        let (folder, name) = Self.split(path)
        guard !name.isEmpty, name != ".", name != ".." else {
            throw OutputFileError(.invalidPath, path: path, "the path names no file")
        }
        var info = stat()
        guard stat(folder, &info) == 0 else { throw OutputFileError.system("stat folder", path: folder, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw OutputFileError(.folderNotFound, path: folder, "not a folder")
        }
        if whenTaken == .refuse, lstat(path, &info) == 0 {
            throw OutputFileError(.fileExists, path: path, "the file already exists and rawcap never overwrites")
        }
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folderDescriptor >= 0 else { throw OutputFileError.system("open folder", path: folder, errno: errno) }
        // Held until the file is published or discarded: no other rawcap takes this temporary for a stale one.
        OutputFolderLock.acquire(folder)

        // A random suffix keeps concurrent writers (two rawcap processes, or a retry) from colliding; O_EXCL makes a
        // collision an error instead of a shared file.
        var attempt = 0
        while true {
            let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
            let temporaryName = ".\(name).rawcap-\(suffix).tmp"
            let descriptor = openat(folderDescriptor, temporaryName, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if descriptor >= 0 {
                self.path = path
                self.name = name
                self.folder = folder
                self.whenTaken = whenTaken
                self.temporaryName = temporaryName
                self.temporaryPath =
                    folder == "." && !path.hasPrefix("./") ? temporaryName : "\(folder)/\(temporaryName)"
                self.folderDescriptor = folderDescriptor
                self.fileDescriptor = descriptor
                Self.live.withLock { _ = $0.insert(self.temporaryPath) }
                return
            }
            let failure = errno
            attempt += 1
            if failure == EEXIST && attempt < 16 { continue }
            close(folderDescriptor)
            OutputFolderLock.release(folder)
            throw OutputFileError.system("create temporary file", path: path, errno: failure)
        }
    }

    deinit { discard() }

    /// Appends `bytes` at the current position, retrying partial writes and interruptions.
    ///
    /// - Throws: ``OutputFileError/Code/diskFull`` (ENOSPC, EDQUOT, EFBIG) or another IO error naming the final path.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(OutputFileError) {
        var remaining = bytes
        while !remaining.isEmpty {
            let written = Glibc.write(fileDescriptor, remaining.baseAddress, remaining.count)
            if written < 0 {
                if errno == EINTR { continue }
                throw OutputFileError.system("write", path: path, errno: errno)
            }
            // write(2) returns 0 only for a zero-length request; treat anything else as a full device.
            guard written > 0 else { throw OutputFileError.system("write", path: path, errno: ENOSPC) }
            remaining = UnsafeRawBufferPointer(rebasing: remaining[written...])
        }
    }

    /// Appends `bytes`.
    public func write(_ bytes: [UInt8]) throws(OutputFileError) {
        // withUnsafeBytes rethrows untyped errors, so the typed error travels in a Result.
        try bytes.withUnsafeBytes { buffer in Result { () throws(OutputFileError) in try write(buffer) } }.get()
    }

    /// Publishes the file under `name` (a file name, in the same folder) instead: for a file whose companion moved
    /// to a free name (a RAW file's JPEG follows the RAW file). Call before ``commit()``.
    public func rename(to name: String) {
        precondition(isOpen && !name.isEmpty && !name.contains("/"), "OutputFile.rename(to:) takes a free file name")
        self.name = name
        path = !path.contains("/") ? name : folder == "/" ? "/" + name : "\(folder)/\(name)"
    }

    /// `fsync`s the temporary file now, so that a later ``commit()`` mostly publishes it (its own `fsync` then finds
    /// little left to write): for a file written ahead of the moment it may appear.
    ///
    /// - Throws: ``OutputFileError`` naming the path; the file stays (``discard()`` or release removes it).
    public func sync() throws(OutputFileError) {
        precondition(isOpen, "OutputFile.sync() after commit() or discard()")
        guard fsync(fileDescriptor) == 0 else { throw OutputFileError.system("fsync", path: path, errno: errno) }
    }

    /// Makes the file durable and visible under ``path`` (with ``WhenTaken/nextFree(stem:fileExtension:companions:)``,
    /// under the next free name when that one is taken; ``path`` says which).
    ///
    /// - Throws: ``OutputFileError/Code/fileExists`` when a file of that name appeared since ``init(creatingAt:whenTaken:)``
    ///   (it is left untouched) and no other name may be taken, or an IO error. On any error the temporary file is
    ///   removed.
    public func commit() throws(OutputFileError) {
        precondition(isOpen, "OutputFile.commit() called twice or after discard()")
        do throws(OutputFileError) {
            guard fsync(fileDescriptor) == 0 else { throw OutputFileError.system("fsync", path: path, errno: errno) }
            try publishUnderAFreeName()
        } catch {
            discard()
            throw error
        }
        isOpen = false
        Self.live.withLock { _ = $0.remove(temporaryPath) }
        close(fileDescriptor)
        OutputFolderLock.release(folder)
        // The new directory entry is durable only once the folder itself is synced. Some file systems cannot sync a
        // folder (EINVAL); the file is already published then, so that is not an error.
        let synced = fsync(folderDescriptor) == 0 ? 0 : errno
        close(folderDescriptor)
        if synced != 0 && synced != EINVAL && synced != EROFS {
            throw OutputFileError.system("fsync folder", path: path, errno: synced)
        }
    }

    /// Removes the temporary file; does nothing after ``commit()`` or a previous discard.
    public func discard() {
        guard isOpen else { return }
        isOpen = false
        close(fileDescriptor)
        unlinkat(folderDescriptor, temporaryName, 0)
        close(folderDescriptor)
        Self.live.withLock { _ = $0.remove(temporaryPath) }
        OutputFolderLock.release(folder)
    }

    /// The temporary files of every ``OutputFile`` of this process that is neither committed nor discarded.
    private static let live = Mutex<Set<String>>([])

    /// Removes the temporary files of every ``OutputFile`` still being written in this process, for a process that
    /// is about to exit without unwinding (a second Ctrl-C): no hidden `.tmp` file is left behind. A file being
    /// published at that moment either is already under its final name or is never published; nothing else is
    /// touched. With `folder`, only temporaries in that folder are removed (tests share one process).
    public static func removeTemporaries(in folder: String? = nil) {
        live.withLock { paths in
            for path in paths where folder == nil || path.hasPrefix(folder! + "/") {
                unlink(path)
                paths.remove(path)
            }
        }
    }

    /// Writes `bytes` to a new file at `path` through a temporary file (see the type's documentation) and returns
    /// where it is (another name with `whenTaken` ``WhenTaken/nextFree(stem:fileExtension:companions:)``).
    @discardableResult
    public static func write(_ bytes: [UInt8], to path: String, whenTaken: WhenTaken = .refuse) throws(OutputFileError)
        -> String
    {
        let file = try OutputFile(creatingAt: path, whenTaken: whenTaken)
        try file.write(bytes)
        try file.commit()
        return file.path
    }

    /// Publishes under ``name``, or, when it is taken and the policy allows, under the next free name.
    private func publishUnderAFreeName() throws(OutputFileError) {
        guard case .nextFree(let stem, let fileExtension, let companions) = whenTaken else { return try publish() }
        var suffix = 0
        while true {
            do throws(OutputFileError) {
                return try publish()
            } catch let error where error.code == .fileExists && suffix < WhenTaken.maxSuffix {
                // The next suffix whose name, and companions' names, are free now; the rename decides.
                var info = stat()
                repeat {
                    suffix += 1
                    name = WhenTaken.name(stem: stem, fileExtension: fileExtension, suffix: suffix)
                } while suffix < WhenTaken.maxSuffix
                    && ([name]
                        + companions.map { WhenTaken.name(stem: stem, fileExtension: $0, suffix: suffix) })
                        .contains { fstatat(folderDescriptor, $0, &info, AT_SYMLINK_NOFOLLOW) == 0 }
                rename(to: name)
            }
        }
    }

    private func publish() throws(OutputFileError) {
        if let renameNoReplace = Self.renameat2 {
            if renameNoReplace(folderDescriptor, temporaryName, folderDescriptor, name, Self.renameNoReplaceFlag) == 0 {
                return
            }
            let failure = errno
            // EINVAL/ENOSYS/ENOTSUP: the file system (or kernel) cannot honour RENAME_NOREPLACE; try link(2).
            guard failure == EINVAL || failure == ENOSYS || failure == ENOTSUP else {
                throw OutputFileError.system("renameat2", path: path, errno: failure)
            }
        }
        guard linkat(folderDescriptor, temporaryName, folderDescriptor, name, 0) == 0 else {
            let failure = errno
            if failure == EEXIST { throw OutputFileError.system("link", path: path, errno: failure) }
            throw OutputFileError(
                .ioFailure, path: path,
                "the file system supports neither renameat2(RENAME_NOREPLACE) nor link(2), so the file cannot be "
                    + "published without risking an overwrite: \(String(cString: strerror(failure)))",
                errno: failure)
        }
        unlinkat(folderDescriptor, temporaryName, 0)
    }

    /// `RENAME_NOREPLACE` from `<linux/fs.h>`.
    private static let renameNoReplaceFlag: UInt32 = 1

    private typealias RenameAt2 =
        @convention(c) (Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32) -> Int32

    /// glibc 2.28+ exports `renameat2`, but Swift's Glibc module does not declare it (it needs `_GNU_SOURCE`), so it
    /// is looked up once at run time; `nil` on a C library without it, and the `link(2)` path is used.
    private static let renameat2: RenameAt2? = {
        guard let symbol = dlsym(nil, "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: RenameAt2.self)
    }()

    /// Splits a path into its folder (`.` when there is none) and its last component.
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }
}

extension OutputFile {
    private typealias SyncFileRange = @convention(c) (Int32, Int64, Int64, UInt32) -> Int32

    /// `sync_file_range(2)`, looked up at run time because Swift's Glibc module does not declare it (it needs
    /// `_GNU_SOURCE`); `nil` where the C library lacks it.
    private static let syncFileRange: SyncFileRange? = {
        guard let symbol = dlsym(nil, "sync_file_range") else { return nil }
        return unsafeBitCast(symbol, to: SyncFileRange.self)
    }()

    /// Asks the kernel to start writing the file's dirty pages now (`SYNC_FILE_RANGE_WRITE`, which does not wait),
    /// so the `fsync` of ``commit()`` finds most of the work done. Purely an optimisation: errors are ignored, and
    /// `fsync` still guarantees durability.
    public static func startWriteback(_ fileDescriptor: Int32) {
        _ = syncFileRange?(fileDescriptor, 0, 0, 2)
    }

    /// ``startWriteback(_:)`` for this file's temporary file.
    public func startWriteback() { Self.startWriteback(fileDescriptor) }
}
