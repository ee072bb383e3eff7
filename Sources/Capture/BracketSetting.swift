import CameraControl
import FoundationEssentials
import PTP

#if canImport(Glibc)
    import Glibc
#endif

/// How one bracket step is set on the camera: the property and the value nearest the step.
///
/// Exposure bias (ExposureBiasCompensation 0x5010, INT16 in thousandths of an EV, ISO 15740 §13.5.11) when the
/// camera has it; otherwise the exposure time (ExposureTime 0x500D, UINT32 in 1/10000 s, §13.5.9), scaled by
/// 2^EV from the current value and snapped to the nearest value the camera allows.
public struct BracketSetting: Hashable, Sendable {
    /// The step in EV.
    public var ev: Double
    /// The property set.
    public var property: DevicePropertyCode
    /// Its value for this step.
    public var value: PTPValue

    /// The settings for `steps` on this camera.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/invalidPlan`` when the camera has neither property settable.
    public static func plan(
        _ steps: [Double], control: CameraControl.CameraSettings
    ) async throws -> [BracketSetting] {
        guard !steps.isEmpty else { return [] }
        let supported = control.deviceInfo.devicePropertiesSupported
        if supported.contains(.exposureBiasCompensation) {
            let description = try await control.descriptor(control.definition(for: .exposureBiasCompensation))
            if description.isSettable {
                let allowed = Self.allowed(description)
                return steps.map { ev in
                    let wanted = (ev * 1000).rounded()
                    let best = allowed.min { abs(Double($0) - wanted) < abs(Double($1) - wanted) } ?? Int(wanted)
                    return BracketSetting(
                        ev: ev, property: .exposureBiasCompensation,
                        value: (try? PTPValue(best, as: description.dataType)) ?? .int16(Int16(clamping: best)))
                }
            }
        }
        if supported.contains(.exposureTime) {
            let description = try await control.descriptor(control.definition(for: .exposureTime))
            if description.isSettable, let base = description.currentValue.integerValue, base > 0 {
                let allowed = Self.allowed(description).filter { $0 > 0 }
                return steps.map { ev in
                    let wanted = Double(base) * pow(2, ev)
                    let best =
                        allowed.min { abs(log2(Double($0) / wanted)) < abs(log2(Double($1) / wanted)) }
                        ?? Int(wanted.rounded())
                    return BracketSetting(
                        ev: ev, property: .exposureTime,
                        value: (try? PTPValue(best, as: description.dataType)) ?? .uint32(UInt32(clamping: best)))
                }
            }
        }
        throw CaptureError(
            .invalidPlan,
            "--bracket needs exposure bias (0x5010) or exposure time (0x500D), and the camera lets "
                + "rawcap set neither")
    }

    private static func allowed(_ description: DevicePropDesc) -> [Int] {
        switch description.form {
        case .enumeration(let values): return values.compactMap(\.integerValue)
        case .range(let minimum, let maximum, let step):
            guard let low = minimum.integerValue, let high = maximum.integerValue, let by = step.integerValue, by > 0,
                low <= high, (high - low) / by < 100_000
            else { return [] }
            return Array(stride(from: low, through: high, by: by))
        case .none: return []
        }
    }
}
