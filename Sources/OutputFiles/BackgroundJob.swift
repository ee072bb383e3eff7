import Dispatch

/// A computation started on a background thread, whose result is collected later.
package final class BackgroundJob<Value: Sendable>: @unchecked Sendable {
    private let group = DispatchGroup()
    // Written once by the job before `group.leave()`, read only after `group.wait()`.
    private var value: Value?

    package init(_ work: @escaping @Sendable () -> Value) {
        group.enter()
        DispatchQueue.global(qos: .userInitiated).async {
            self.value = work()
            self.group.leave()
        }
    }

    /// Blocks until the job has finished and returns its result.
    package func wait() -> Value {
        group.wait()
        guard let value else { preconditionFailure("BackgroundJob finished without a value") }
        return value
    }
}
