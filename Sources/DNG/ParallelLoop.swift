import Dispatch

/// Runs independent iterations (tiles) on a fixed number of threads.
///
/// Work is dealt out round-robin (thread *t* takes iterations *t*, *t + threads*, …): rawcap's tiles cost about the
/// same, so a static split balances well and needs no shared counter. One thread runs on the caller's thread.
enum ParallelLoop {
    static func run(iterations: Int, threads: Int, _ body: (Int) -> Void) {
        let workers = max(1, min(threads, iterations))
        if workers == 1 {
            for iteration in 0..<iterations { body(iteration) }
            return
        }
        // concurrentPerform blocks until every worker returns, so `body` never escapes.
        withoutActuallyEscaping(body) { body in
            nonisolated(unsafe) let body = body
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                for iteration in stride(from: worker, to: iterations, by: workers) { body(iteration) }
            }
        }
    }
}
