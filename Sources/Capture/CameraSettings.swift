import Logging
import PTP

/// The camera properties a run changes, with their values from before, so that ``restore()`` puts the camera
/// back as the user left it (after the run, an error or Ctrl-C).
public actor CameraSettings {
    private let session: PTPSession
    private let logger: Logger
    private var originals: [(DevicePropertyCode, PTPValue)] = []
    private var descriptions: [DevicePropertyCode: DevicePropDesc] = [:]

    /// Creates a record for `session`; nothing is read until the first change.
    public init(session: PTPSession, logger: Logger) {
        self.session = session
        self.logger = logger
    }

    /// The property's description (cached; current values are kept up to date by ``set(_:_:)``).
    public func description(of code: DevicePropertyCode) async throws -> DevicePropDesc {
        if let cached = descriptions[code] { return cached }
        let description = try await session.getDevicePropDesc(code)
        descriptions[code] = description
        return description
    }

    /// Sets `code` to `value`, remembering the value from before the first change.
    public func set(_ code: DevicePropertyCode, _ value: PTPValue) async throws {
        var description = try await self.description(of: code)
        if description.currentValue == value { return }
        if !originals.contains(where: { $0.0 == code }) { originals.append((code, description.currentValue)) }
        try await session.setDevicePropValue(code, value)
        description.currentValue = value
        descriptions[code] = description
    }

    /// Every property changed so far, with its original value.
    public var changed: [(code: DevicePropertyCode, original: PTPValue)] { originals.map { ($0.0, $0.1) } }

    /// Puts every changed property back, last change first; returns what could not be restored (a failure does
    /// not stop the others).
    @discardableResult
    public func restore() async -> [String] {
        var failures: [String] = []
        for (code, value) in originals.reversed() {
            do {
                try await session.setDevicePropValue(code, value)
                descriptions[code]?.currentValue = value
            } catch {
                logger.warning("could not restore \(code) to \(value): \(error)")
                failures.append("\(code): \(error)")
            }
        }
        originals.removeAll()
        return failures
    }
}
