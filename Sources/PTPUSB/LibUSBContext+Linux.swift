#if os(Linux)
    import FoundationEssentials
    import PlatformSupport

    extension LibUSBContext {
        /// Fills missing strings from sysfs (/sys/bus/usb/devices/<port path>/manufacturer, product, serial), which
        /// the kernel keeps readable for everyone: a camera the user may not open still gets a name in messages.
        static func fillStringsFromSystem(_ camera: inout USBCameraInfo) {
            let folder = "/sys/bus/usb/devices/\(camera.portPath)/"
            // The folder names a port; make sure the device there is still this one.
            guard attribute(folder + "busnum").flatMap({ UInt8($0) }) == camera.busNumber,
                attribute(folder + "devnum").flatMap({ UInt8($0) }) == camera.deviceAddress
            else { return }
            camera.manufacturer = camera.manufacturer ?? attribute(folder + "manufacturer")
            camera.product = camera.product ?? attribute(folder + "product")
            camera.serialNumber = camera.serialNumber ?? attribute(folder + "serial")
        }

        private static func attribute(_ path: String) -> String? {
            guard let data = FileManager.default.contents(atPath: path), data.count <= 4096 else { return nil }
            let text = String(decoding: data, as: UTF8.self).trimmingWhitespaceAndNewlines()
            return text.isEmpty ? nil : text
        }
    }
#else
    extension LibUSBContext {
        /// No sysfs on this platform: strings come only from the device.
        static func fillStringsFromSystem(_ camera: inout USBCameraInfo) {}
    }
#endif
