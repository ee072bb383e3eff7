import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The text full Foundation gives for the errors FoundationEssentials throws (`CocoaError`, `POSIXError`), which
/// print as Swift structures without it: messages read the same whether or not libFoundation is linked.
public enum FoundationErrorText {
    /// `"\(error)"` as with Foundation: `Error Domain=NSCocoaErrorDomain Code=4 "The file doesn’t exist."` with
    /// `UserInfo={…}` when there is any (Foundation lists it in dictionary order, which varies from run to run;
    /// here it is sorted by key).
    public static func description(_ error: any Error) -> String {
        switch error {
        case let error as CocoaError:
            let userInfo = error.userInfo.sorted { $0.key < $1.key }.map { "\($0.key)=\(value($0.value))" }
            return "Error Domain=NSCocoaErrorDomain Code=\(error.code.rawValue) \"\(reason(error) ?? "(null)")\""
                + (userInfo.isEmpty ? "" : "UserInfo={\(userInfo.joined(separator: ", "))}")
        case let error as POSIXError:
            return "Error Domain=NSPOSIXErrorDomain Code=\(error.code.rawValue) \"\(reason(error) ?? "(null)")\""
        default:
            return "\(error)"
        }
    }

    /// `error.localizedDescription` as with Foundation (which FoundationEssentials lacks):
    /// `The operation could not be completed. You don’t have permission.`
    public static func localizedDescription(_ error: any Error) -> String {
        let fallback: String
        switch error {
        case let error as CocoaError: fallback = "(NSCocoaErrorDomain error \(error.code.rawValue).)"
        case let error as POSIXError: fallback = "(NSPOSIXErrorDomain error \(error.code.rawValue).)"
        default: fallback = "(\(error._domain) error \(error._code).)"
        }
        return "The operation could not be completed. " + (reason(error) ?? fallback)
    }

    /// Foundation's `localizedFailureReason` for the two domains.
    private static func reason(_ error: any Error) -> String? {
        switch error {
        case let error as CocoaError: cocoaReasons[error.code.rawValue]
        case let error as POSIXError: String(validatingCString: strerror(error.code.rawValue))
        default: nil
        }
    }

    private static func value(_ value: Any) -> String {
        if let error = value as? any Error { return description(error) }
        return "\(value)"
    }

    /// Foundation's `CocoaError.errorMessages` (swift-corelibs-foundation, as shipped with Swift 6.3.1).
    private static let cocoaReasons: [Int: String] = [
        4: "The file doesn’t exist.",
        255: "The file couldn’t be locked.",
        257: "You don’t have permission.",
        258: "The file name is invalid.",
        259: "The file isn’t in the correct format.",
        260: "The file doesn’t exist.",
        261: "The specified text encoding isn’t applicable.",
        262: "The specified URL type isn’t supported.",
        263: "The item is too large.",
        264: "The text encoding of the contents couldn’t be determined.",
        513: "You don’t have permission.",
        514: "The file name is invalid.",
        516: "A file with the same name already exists.",
        517: "The specified text encoding isn’t applicable.",
        518: "The specified URL type isn’t supported.",
        640: "There isn’t enough space.",
        642: "The volume is read only.",
        1024: "The value is invalid.",
        2048: "The value is invalid.",
        3072: "The operation was cancelled.",
        3328: "The requested operation is not supported.",
        3840: "The data is not in the correct format.",
        3841: "The data is in a format that this application doesn’t understand.",
        3842: "An error occurred in the source of the data.",
        3851: "An error occurred in the destination for the data.",
        3852: "An error occurred in the content of the data.",
        4353: "The file is not available on iCloud yet.",
        4354: "There isn’t enough space in your account.",
        4355: "The iCloud servers might be unreachable or your settings might be incorrect.",
        4864: "The data isn’t in the correct format.",
        4865: "The data is missing.",
        4866: "The data isn’t in the correct format.",
    ]
}
