import Capture
import Logging
import PTPUSB

/// The cameras `rawcap shoot` uses: each `--camera` given, with `all` expanded to every camera found on USB.
enum ShootCameras {
    /// The cameras `choices` name, in order, without repeats; the default camera when none is named.
    ///
    /// - Throws: ``CameraFailure`` (no camera) when `all` finds none.
    static func resolve(_ choices: [CameraChoice], logger: Logger) async throws -> [CameraSpec] {
        guard !choices.isEmpty else { return [.usb(.onlyCamera)] }
        var specs: [CameraSpec] = []
        for choice in choices {
            switch choice {
            case .one(let spec):
                if !specs.contains(spec) || spec == .simulator { specs.append(spec) }
            case .all:
                let context = try await LibUSBContext.make(logger: logger)
                let found = try await context.cameras()
                let selectors = found.compactMap { USBCameraSelector($0.selector) }
                guard !selectors.isEmpty else {
                    throw CameraFailure(.noCamera, "--camera all: no camera found on USB.")
                }
                for selector in selectors where !specs.contains(.usb(selector)) { specs.append(.usb(selector)) }
            }
        }
        return specs
    }
}
