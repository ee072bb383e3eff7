import ArgumentParser

/// One `--camera` value: a camera (``CameraSpec``), or `all`, every camera found on USB. Commands that work with one
/// camera use the first (``ConnectionOptions/camera``); `rawcap shoot` uses them all.
public enum CameraChoice: Hashable, Sendable, CustomStringConvertible, ExpressibleByArgument {
    /// One camera.
    case one(CameraSpec)
    /// Every camera found on USB.
    case all

    /// Parses `all` or a ``CameraSpec`` form.
    public init?(argument: String) {
        if argument == "all" {
            self = .all
        } else if let spec = CameraSpec(argument: argument) {
            self = .one(spec)
        } else {
            return nil
        }
    }

    /// The camera, or `nil` for `all`.
    public var spec: CameraSpec? {
        if case .one(let spec) = self { return spec }
        return nil
    }

    /// The text form.
    public var description: String { spec?.description ?? "all" }

    /// The forms, for `--help`.
    public static var defaultCompletionKind: CompletionKind { .list(["usb", "sim", "all"]) }
}
