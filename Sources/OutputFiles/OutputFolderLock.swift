import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Hidden temporaries a killed rawcap left behind (`.NAME.rawcap-….tmp`) are removed by the next rawcap that writes
/// into that folder, and never those of a rawcap still writing there.
///
/// Every process holds a shared `flock(2)` on the folder itself while it has an ``OutputFile`` open in it. The first
/// time a process writes into a folder it first tries for an exclusive lock without waiting: granted, no other
/// process is writing there, so every temporary in the folder is stale and is removed; refused, another rawcap is
/// writing, and nothing is removed. Locks on a folder leave nothing in it and end with the process, however it ends.
enum OutputFolderLock {
    private struct Held {
        var descriptor: Int32
        var users: Int
    }

    private struct State {
        var held: [String: Held] = [:]
        var cleaned: Set<String> = []
    }

    private static let state = Mutex(State())

    /// Takes the shared lock on `folder` for one more file (cleaning the folder the first time); pair with
    /// ``release(_:)``. A folder that cannot be opened or locked is written all the same, without cleaning.
    static func acquire(_ folder: String) {
        state.withLock { state in
            if var held = state.held[folder] {
                held.users += 1
                state.held[folder] = held
                return
            }
            let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            if !state.cleaned.contains(folder) {
                state.cleaned.insert(folder)
                if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { removeStaleTemporaries(descriptor) }
            }
            // From exclusive (or none) to shared; waits only while another process cleans.
            while flock(descriptor, LOCK_SH) != 0 && errno == EINTR {}
            state.held[folder] = Held(descriptor: descriptor, users: 1)
        }
    }

    /// Gives back what ``acquire(_:)`` took; the lock goes when the folder's last file is done.
    static func release(_ folder: String) {
        state.withLock { state in
            guard var held = state.held[folder] else { return }
            held.users -= 1
            if held.users > 0 {
                state.held[folder] = held
            } else {
                close(held.descriptor)
                state.held[folder] = nil
            }
        }
    }

    /// Whether `name` is the name of an ``OutputFile`` temporary: `.NAME.rawcap-SUFFIX.tmp`.
    static func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return false }
        let base = name.dropLast(4)
        guard let marker = base.ranges(of: ".rawcap-").last else { return false }
        let suffix = base[marker.upperBound...]
        return marker.lowerBound > name.index(after: name.startIndex) && !suffix.isEmpty
            && suffix.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// Removes every temporary in the folder open at `descriptor` (regular files only).
    private static func removeStaleTemporaries(_ descriptor: Int32) {
        let listing = dup(descriptor)
        guard listing >= 0, let directory = fdopendir(listing) else {
            if listing >= 0 { close(listing) }
            return
        }
        defer { closedir(directory) }
        var stale: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard isTemporaryName(name) else { continue }
            var info = stat()
            guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG
            else { continue }
            stale.append(name)
        }
        for name in stale { unlinkat(descriptor, name, 0) }
    }
}
