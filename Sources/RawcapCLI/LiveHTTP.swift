import FoundationEssentials
import PlatformSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Shots asked for during live view, oldest first: the page's shutter and SIGUSR1 put them here, the live loop takes
/// them between frames.
final class LiveShotQueue: Sendable {
    private let requests = Mutex<[LiveShotRequest]>([])

    func request() -> LiveShotRequest {
        let request = LiveShotRequest()
        requests.withLock { $0.append(request) }
        return request
    }

    func take() -> LiveShotRequest? {
        requests.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    /// Answers every shot not taken (live view ended).
    func cancelAll() {
        for shot in requests.withLock({ requests in defer { requests.removeAll() }; return requests }) {
            shot.complete(status: 503, body: #"{"error":"live view ended"}"#)
        }
    }
}

/// A shot asked for during live view (the page's shutter button, or SIGUSR1): the live loop takes it between frames,
/// shoots through the `shoot` pipeline, and answers.
final class LiveShotRequest: @unchecked Sendable {
    private let condition = ThreadCondition()
    private var answer: (status: Int, body: String)?

    /// Called by the live loop when the shot is saved or failed.
    func complete(status: Int, body: String) {
        condition.lock()
        answer = (status, body)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the answer (on an HTTP client's thread).
    func wait() -> (status: Int, body: String) {
        condition.lock()
        defer { condition.unlock() }
        while answer == nil { condition.wait() }
        return answer ?? (500, "{}")
    }
}

/// `rawcap live --http HOST:PORT`: the stream as MJPEG (`/stream`, `multipart/x-mixed-replace`), a page (`/`) that
/// shows it with the frame rate and the camera's exposure settings, `/status` as JSON, and a shutter (`POST /shoot`)
/// that shoots through the same pipeline as `rawcap shoot`. Plain HTTP/1.0, one thread per client, on the address
/// given (loopback unless the user names another).
final class LiveHTTPServer: @unchecked Sendable {
    let port: UInt16
    let host: String
    private let descriptor: Int32
    private let shots: LiveShotQueue
    private let condition = ThreadCondition()
    private var latest: (number: Int, jpeg: [UInt8])?
    private var statusJSON = "{}"
    private var closed = false
    /// Most clients served at once.
    static let maxClients = 16
    private let clients = Atomic<Int>(0)

    /// Binds and listens on `address` (`HOST:PORT`, an IPv4 address or `localhost`; port 0 picks one).
    init(address: String, shots: LiveShotQueue) throws {
        guard let colon = address.lastIndex(of: ":"), let port = UInt16(address[address.index(after: colon)...]) else {
            throw CommandFailure(.usage, "--http \(address): give HOST:PORT, such as 127.0.0.1:8080")
        }
        var host = String(address[..<colon])
        if host == "localhost" || host.isEmpty { host = "127.0.0.1" }
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &socketAddress.sin_addr) == 1 else {
            throw CommandFailure(.usage, "--http \(address): \(host) is not an IPv4 address")
        }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw CommandFailure(.io, "--http: socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw CommandFailure(.notAvailable, "--http \(address): cannot listen: \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        self.port = UInt16(bigEndian: actual.sin_port)
        self.host = host
        self.shots = shots
    }

    /// Starts accepting clients on a thread of its own.
    func start() {
        DetachedThread.start(name: "rawcap.live.http") { [self] in
            while true {
                let client = accept(descriptor, nil, nil)
                if client < 0 {
                    if errno == EINTR { continue }
                    return
                }
                guard clients.wrappingAdd(1, ordering: .relaxed).newValue <= Self.maxClients else {
                    clients.wrappingSubtract(1, ordering: .relaxed)
                    Glibc.close(client)
                    continue
                }
                DetachedThread.start(name: "rawcap.live.client") { [self] in
                    serve(client)
                    Glibc.close(client)
                    clients.wrappingSubtract(1, ordering: .relaxed)
                }
            }
        }
    }

    /// Hands a new frame to the stream's clients, with the status the page shows.
    func publish(number: Int, jpeg: [UInt8], status: String) {
        condition.lock()
        latest = (number, jpeg)
        statusJSON = status
        condition.broadcast()
        condition.unlock()
    }

    /// Stops serving: streams end, the listening socket closes, shots not taken are answered 503.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
        shots.cancelAll()
        shutdown(descriptor, Int32(SHUT_RDWR))
        Glibc.close(descriptor)
    }

    // MARK: Clients

    private func serve(_ client: Int32) {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 2048)
        while request.count < 8192, !request.ends(with: [13, 10, 13, 10]) {
            let count = read(client, &buffer, buffer.count)
            guard count > 0 else { return }
            request += buffer[0..<count]
            if let end = request.firstRange(of: [13, 10, 13, 10]) {
                request = Array(request[..<end.upperBound])
                break
            }
        }
        let line = String(decoding: request.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
        let parts = line.split(separator: " ")
        guard parts.count >= 2 else { return respond(client, 400, "text/plain", Array("bad request\n".utf8)) }
        let method = parts[0]
        let path = parts[1].split(separator: "?").first.map(String.init) ?? "/"
        switch (method, path) {
        case ("GET", "/"): respond(client, 200, "text/html; charset=utf-8", Array(Self.page.utf8))
        case ("GET", "/status"):
            condition.lock()
            let status = statusJSON
            condition.unlock()
            respond(client, 200, "application/json", Array(status.utf8))
        case ("GET", "/stream"): stream(client)
        case ("POST", "/shoot"):
            condition.lock()
            let isClosed = closed
            condition.unlock()
            guard !isClosed else { return respond(client, 503, "application/json", Array("{}".utf8)) }
            let answer = shots.request().wait()
            respond(client, answer.status, "application/json", Array(answer.body.utf8))
        default: respond(client, 404, "text/plain", Array("not found\n".utf8))
        }
    }

    private func respond(_ client: Int32, _ status: Int, _ type: String, _ body: [UInt8]) {
        let reason = [200: "OK", 400: "Bad Request", 404: "Not Found", 500: "Internal Server Error", 503: "Service Unavailable"][status] ?? "Error"
        let head = "HTTP/1.0 \(status) \(reason)\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n"
        _ = RawcapCommand.Live.writeAll(Array(head.utf8) + body, to: client)
    }

    private func stream(_ client: Int32) {
        let head =
            "HTTP/1.0 200 OK\r\nContent-Type: multipart/x-mixed-replace; boundary=rawcapframe\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n"
        guard RawcapCommand.Live.writeAll(Array(head.utf8), to: client) else { return }
        var sent = -1
        while true {
            condition.lock()
            while !closed, (latest?.number ?? -1) <= sent { condition.wait() }
            let frame = closed ? nil : latest
            condition.unlock()
            guard let frame else { return }
            sent = frame.number
            let part = "--rawcapframe\r\nContent-Type: image/jpeg\r\nContent-Length: \(frame.jpeg.count)\r\n\r\n"
            guard RawcapCommand.Live.writeAll(Array(part.utf8) + frame.jpeg + [13, 10], to: client) else { return }
        }
    }

    /// The page: the stream, the rate and settings from `/status` once a second, and the shutter.
    static let page = """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>rawcap live</title>
        <style>body{font-family:sans-serif;background:#222;color:#eee;margin:1em}img{max-width:100%;background:#000}
        button{font-size:1.2em;padding:.4em 1.2em;margin:.5em 0}#shot{font-family:monospace;white-space:pre-wrap}</style>
        </head><body>
        <h1 id="camera">rawcap live</h1>
        <img id="stream" src="/stream" alt="live view">
        <p><span id="fps">–</span> frames a second, <span id="frames">0</span> frames; <span id="exposure"></span></p>
        <button id="shutter">Shoot</button>
        <div id="shot"></div>
        <script>
        async function poll() {
          try {
            const s = await (await fetch('/status')).json();
            document.getElementById('camera').textContent = s.camera || 'rawcap live';
            document.getElementById('fps').textContent = (s.fps || 0).toFixed(1);
            document.getElementById('frames').textContent = s.frames || 0;
            document.getElementById('exposure').textContent = s.exposure || '';
          } catch (e) {}
        }
        setInterval(poll, 1000); poll();
        document.getElementById('shutter').onclick = async () => {
          const out = document.getElementById('shot');
          out.textContent = 'shooting…';
          const r = await fetch('/shoot', {method: 'POST'});
          const body = await r.json();
          out.textContent = r.ok ? 'saved ' + (body.files || []).join(', ') : 'failed: ' + (body.error || r.status);
        };
        </script>
        </body></html>
        """
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
