import Dispatch

/// One timed operation: a row of the results table.
///
/// `bytes` is the amount of input the operation processes, counted as 16-bit samples (a 6000 × 4000 frame is
/// 48 MB whatever its bit depth), so MB/s figures compare across rows. `reference` names the row this one is
/// compared with; it must be measured in the same run (same machine state), and its own row carries no reference.
struct BenchmarkRow {
    /// The group's name, shown in the first column and used by `--filter`.
    let group: String
    /// What is measured, e.g. "encode 256² tiles, 1 thread".
    let name: String
    /// Input bytes processed by one call of `run`.
    let bytes: Int
    /// The `name` of the row in the same group that this one is compared with, or `nil`.
    let reference: String?
    /// Extra text for the last column (output size, compression ratio…), computed once after the runs.
    var note: () -> String = { "" }
    /// The operation; it must do the whole work on every call.
    let run: () -> Void
}

/// A set of rows that share their input (a synthetic frame, a file). Each group lives in its own file and is
/// listed once in `RawcapBench.groups`; `makeRows` builds the input and returns the rows.
protocol BenchmarkGroup: Sendable {
    /// The group name, shown in every row.
    static var name: String { get }
    /// Builds the shared input and the rows. Errors abort the whole run: a benchmark that cannot run its
    /// operation must not print a number.
    static func makeRows(options: BenchmarkOptions) throws -> [BenchmarkRow]
}

/// Command-line options.
struct BenchmarkOptions {
    /// Timed runs per row (after one untimed warm-up run); the median is reported.
    var runs = 7
    /// Only groups whose name contains this text.
    var filter: String?
    /// Threads for the "all cores" rows.
    var threads = ProcessorCount.active
    /// Only rows whose name contains this text (for profiling one operation).
    var rowFilter: String?
    /// Frame size for groups that synthesise a frame (smaller frames make profiling under valgrind practical).
    var frameWidth = 6000
    var frameHeight = 4000
    /// A raw file whose frame the DNG rows write instead of the synthetic one (`--input`).
    var inputPath: String?
    /// Print one JSON object per row instead of the table (`--json`).
    var json = false
}

/// Wall-clock and CPU timing of one call.
///
/// The CPU time is the whole process's (all threads), so `bytes / cpu` is the speed per core; it stays meaningful
/// when other work shares the machine, which stretches wall-clock times.
enum Stopwatch {
    /// Seconds of wall-clock and of process CPU time taken by `body`.
    static func measure(_ body: () -> Void) -> (wall: Double, cpu: Double) {
        let wallStart = DispatchTime.now().uptimeNanoseconds
        let cpuStart = processCPUSeconds()
        body()
        let cpu = processCPUSeconds() - cpuStart
        return (Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9, cpu)
    }

    static func processCPUSeconds() -> Double {
        #if canImport(Glibc)
            var time = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        #else
            return 0
        #endif
    }
}

/// The processors this process may use.
enum ProcessorCount {
    static var active: Int {
        #if canImport(Glibc)
            return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #else
            return 1
        #endif
    }
}

#if canImport(Glibc)
    import Glibc
#endif

/// Standard error as a `TextOutputStream`.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        #if canImport(Glibc)
            _ = string.withCString { Glibc.write(2, $0, strlen($0)) }
        #endif
    }
}
