#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A POSIX thread of its own for blocking work (waiting on a pipe, a child, libusb), never Swift's cooperative pool.
public enum DetachedThread {
    /// Runs `body` on a new detached thread named `name` (cut to the 15 bytes Linux keeps; it shows in debuggers and
    /// `top -H`).
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let created = pthread_create(
            &thread, &attributes,
            { context in
                // Never nil: it is the retained `Start` passed below.
                guard let context else { return nil }
                Unmanaged<Start>.fromOpaque(context).takeRetainedValue().run()
                return nil
            }, context)
        precondition(created == 0, "pthread_create: error \(created)")
    }

    /// What the new thread starts with.
    private final class Start {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }

        func run() {
            #if os(Linux)
                // pthread_setname_np, which Swift's Glibc does not declare: Linux keeps 15 bytes and refuses a longer
                // name, so it is cut rather than lost.
                let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
                if descriptor >= 0 {
                    DescriptorIO.write(Array(name.utf8.prefix(15)), to: descriptor)
                    close(descriptor)
                }
            #endif
            body()
        }
    }
}

/// A mutex with a condition variable, for threads that wait on each other (`NSCondition`'s role): `lock()`, then
/// `wait()` in a loop on the guarded state, `signal()` or `broadcast()` after changing it, `unlock()`.
public final class ThreadCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }
    /// Releases the lock until signalled, then holds it again; call it in a loop on the condition waited for.
    public func wait() { pthread_cond_wait(condition, mutex) }
    public func signal() { pthread_cond_signal(condition) }
    public func broadcast() { pthread_cond_broadcast(condition) }
}
