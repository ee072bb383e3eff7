import ArgumentParser
import CameraEmulator
import Capture
import Logging

/// The emulated body's shutter button pressed from outside on a schedule: `rawcap sim serve --press-every`,
/// `rawcap sim usb --press-every`, `--camera sim --sim-press-every` (``EmulatedCamera/pressShutter(timeout:)``).
enum ShutterPresses {
    /// `--press-every DURATION` as a duration (500ms, 2s), or `nil` when not given.
    ///
    /// - Throws: `ValidationError` naming the option.
    static func interval(_ text: String?, option: String) throws -> Duration? {
        guard let text else { return nil }
        do {
            let interval = try ShootPlan.parseDuration(text)
            guard interval >= .milliseconds(10) else {
                throw ValidationError("\(option) \(text): at least 10ms between presses")
            }
            return interval
        } catch let error as CaptureError {
            throw ValidationError("\(option): \(error.detail)")
        }
    }

    /// Presses `camera`'s shutter every `interval` for as long as the process lives, on a drift-free schedule (press
    /// *k* is due at start + *k*·interval; a press the camera makes wait, because the previous shot still develops,
    /// pushes the next ones back rather than bunching them up). A press the camera refuses is logged.
    static func start(_ camera: EmulatedCamera, every interval: Duration, logger: Logger) {
        Task.detached {
            let clock = ContinuousClock()
            var due = clock.now + interval
            while !Task.isCancelled {
                try? await Task.sleep(until: due, clock: clock)
                let code = await camera.pressShutter()
                if code != .ok { logger.warning("emulated shutter press refused: \(code)") }
                due = max(due + interval, clock.now)
            }
        }
    }
}
