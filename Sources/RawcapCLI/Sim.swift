import ArgumentParser

extension RawcapCommand {
    /// `rawcap sim`: rawcap's emulated camera, for trying rawcap and other tools without a camera.
    struct Sim: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sim",
            abstract: "Run rawcap's emulated camera: on the network (PTP/IP) or as a USB device for a program.",
            discussion: """
                The emulated camera is a strict PTP camera with a synthetic sensor: it photographs a test chart \
                through its ISO, shutter, aperture and exposure bias, stores TIFF/EP raw files (and JPEGs with \
                RAW+JPEG) on a memory card, and announces them with events. `rawcap sim serve` puts it on the \
                network for any PTP/IP client, `rawcap sim usb -- COMMAND` plugs it into a fake USB bus for one \
                program, and `--camera sim` on any camera command uses it in process.
                """,
            subcommands: [Serve.self, USB.self])
    }
}
