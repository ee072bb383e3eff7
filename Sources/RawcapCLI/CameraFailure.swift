import ArgumentParser
import CameraControl
import FoundationEssentials
import PTP
import PTPIP
import PTPRecord
import PTPUSB
import WireFormat

#if canImport(Glibc)
    import Glibc
#endif

/// The name camera commands used for ``CommandFailure`` before the two were one type; kept so that code written
/// against either name compiles.
public typealias CameraFailure = CommandFailure

extension CommandFailure {
    /// Classifies any error a camera command meets.
    public init(_ error: any Error) {
        switch error {
        case let failure as CommandFailure:
            self = failure
        case let error as CameraControlError:
            self.init(Self.code(of: error), error.description)
        case let error as ValidationError:
            self.init(.usage, error.message)
        case let exit as ExitCode:
            self.init(Code(status: exit.rawValue), "exit status \(exit.rawValue)")
        case let error as USBCameraError:
            let code: Code =
                switch error.code {
                case .noCamera, .notFound: .noCamera
                case .ambiguous: .ambiguous
                case .permissionDenied: .permissionDenied
                case .busy: .busy
                default: .io
                }
            self.init(code, error.description)
        case let error as LibUSBError:
            self.init(.noCamera, "USB is not available: \(error).")
        case let error as TransportError where error.underlyingError is PTPIPConnectFailure:
            self.init(
                .noCamera,
                "No PTP/IP camera answers there: \(error.underlyingError.map { "\($0)" } ?? "\(error)"). Check the "
                    + "address and that the camera's Wi-Fi remote function is on.")
        case let error as TransportError
        where (error.underlyingError as? PTPIPInitFailure)?.reason == .busy:
            // PTP/IP serves one client at a time (ISO 15740 Annex: Init Fail "Busy").
            self.init(
                .busy,
                "The camera is busy with another program over the network (a phone app, gphoto2, another rawcap): "
                    + "close that program or end its connection, then try again. (\(error))")
        case let error as TransportError where error.underlyingError is ReplayMismatch:
            self.init(
                .io,
                "rawcap's requests left the recording (strict replay): \(error.underlyingError.map { "\($0)" } ?? "").")
        case let error as TransportError:
            self.init(Self.code(of: error), Self.message(for: error))
        case let error as PcapError:
            self.init(.badInput, "The recording cannot be read: \(error).")
        case let error as RecordError where error.code == .ioError:
            self.init(.cannotCreate, "The recording cannot be written: \(error.detail).")
        case let error as RecordError:
            self.init(.badInput, "The recording holds no usable PTP session: \(error).")
        case let error as PTPError where error.code == .deviceResponse:
            self.init(.protocolError, "The camera refused a request rawcap needs: \(error).")
        case let error as PTPError:
            self.init(.protocolError, "The camera broke the PTP protocol: \(error).")
        case let error as WireError:
            self.init(.protocolError, "The camera sent data rawcap cannot decode: \(error).")
        default:
            self.init(.software, "\(error)")
        }
    }

    private static func code(of error: CameraControlError) -> Code {
        switch error.code {
        case .refused, .restoreIncomplete: .protocolError
        default: .usage
        }
    }

    private static func code(of error: TransportError) -> Code {
        switch error.code {
        case .busy: .busy
        case .rejected: .noCamera
        default: .io
        }
    }

    private static func message(for error: TransportError) -> String {
        switch error.code {
        case .disconnected:
            """
            The camera disconnected (cable pulled, camera switched off or gone to sleep); reconnect it and try \
            again. (\(error))
            """
        case .timeout:
            """
            The camera did not answer in time; check that it is awake and not busy (writing to its card, in a \
            menu), or raise --timeout. (\(error))
            """
        case .stalled:
            "The camera refused a transfer (endpoint stall): \(error)."
        default:
            "Talking to the camera failed: \(error)."
        }
    }
}
