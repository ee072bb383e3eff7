import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Child processes started with `posix_spawn` as Foundation's `Process.run()` starts them on Linux: `argv[0]` is
/// the path, the child leads a process group of its own, every descriptor above standard error is closed in it,
/// and it inherits the calling thread's signal mask (callers clear it first: Swift's pool threads block signals).
public enum ChildSpawn {
    /// Why a program could not be started: the `errno` of `stat`, `access` or `posix_spawn`.
    public struct Failure: Error, CustomStringConvertible {
        /// The `errno` value.
        public let errno: Int32
        /// `strerror`'s text, e.g. `No such file or directory`.
        public var description: String { SystemErrorText.text(errno: errno) }
    }

    /// Starts `path` with `arguments` and exactly `environment`; a `nil` descriptor is inherited as it is, others are
    /// put in its place (standard input, output, error). Returns the child's process ID.
    ///
    /// - Throws: ``Failure``: `EACCES` for a path that is not a regular file (as `execve` says of a folder), else the
    ///   `errno` of `stat`, `access` or `posix_spawn`.
    public static func spawn(
        _ path: String, arguments: [String], environment: [String: String], standardInput: Int32? = nil,
        standardOutput: Int32? = nil, standardError: Int32? = nil
    ) throws(Failure) -> pid_t {
        // posix_spawn may succeed although execve then fails: check what can be checked first, as Process does.
        var status = stat()
        guard stat(path, &status) == 0 else { throw Failure(errno: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw Failure(errno: EACCES) }
        guard access(path, X_OK) == 0 else { throw Failure(errno: errno) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (source, target) in [
            (standardInput, STDIN_FILENO), (standardOutput, STDOUT_FILENO), (standardError, STDERR_FILENO),
        ] {
            if let source { posix_spawn_file_actions_adddup2(&actions, source, target) }
        }
        // Closed after the dups, so a pipe end moved to 0–2 is closed at its old number only.
        for descriptor in openDescriptors() where descriptor > STDERR_FILENO {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid = pid_t()
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw Failure(errno: result) }
        return pid
    }

    /// Blocks until `pid` ends and reaps it: its exit status, or 128 + the signal number when a signal ended it
    /// (0 if `waitpid` fails otherwise than with `EINTR`, as `Process` reports it).
    public static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFSIGNALED and WTERMSIG are macros Swift does not import.
        let signal = status & 0x7F
        return signal != 0 && signal != 0x7F ? 128 + signal : (status >> 8) & 0xFF
    }

    /// This process's open descriptors, from /proc/self/fd.
    private static func openDescriptors() -> [Int32] {
        guard let folder = opendir("/proc/self/fd") else { return Array(0...1023) }
        defer { closedir(folder) }
        let own = dirfd(folder)
        var found: [Int32] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let descriptor = Int32(name), descriptor != own { found.append(descriptor) }
        }
        return found
    }
}
