import CLibUSB

extension LibUSBContext {
    /// The cameras connected now, ordered by bus and address.
    ///
    /// A device is a camera when one of its interfaces is a still-image interface (class 6/1/1), or a
    /// vendor-specific one from a maker in ``KnownCameraVendors``, with bulk IN, bulk OUT and interrupt IN
    /// endpoints (``USBCameraInterface/find(vendorID:in:)``). With `probe` (the default) each camera is opened
    /// briefly to read its string descriptors and to learn whether rawcap may use it (``USBCameraAccess``): a
    /// permission error, or another program holding the interface. Without it, no device is opened and the strings
    /// come from sysfs where the platform has one.
    public func cameras(probe: Bool = true) async throws(LibUSBError) -> [USBCameraInfo] {
        let context = pointer
        let logger = self.logger
        let cameras = try await run { Self.enumerate(context.raw, probe: probe) }
        for camera in cameras { logger.debug("found \(camera)") }
        return cameras
    }

    /// Walks libusb's device list (on the context's thread).
    static func enumerate(_ context: OpaquePointer, probe: Bool) -> Result<[USBCameraInfo], LibUSBError> {
        var list: UnsafeMutablePointer<OpaquePointer?>?
        let count = libusb_get_device_list(context, &list)
        guard count >= 0, let list else {
            return .failure(LibUSBError(returnValue: Int32(clamping: count), function: "libusb_get_device_list"))
        }
        defer { libusb_free_device_list(list, 1) }
        var cameras: [USBCameraInfo] = []
        for index in 0..<count {
            guard let device = list[index], var camera = describe(device) else { continue }
            if probe {
                Self.probe(device, &camera)
            } else {
                fillStringsFromSystem(&camera)
            }
            cameras.append(camera)
        }
        cameras.sort { ($0.busNumber, $0.deviceAddress) < ($1.busNumber, $1.deviceAddress) }
        return .success(cameras)
    }

    /// The camera description of `device` from its descriptors alone, or `nil` if it is not a camera.
    static func describe(_ device: OpaquePointer) -> USBCameraInfo? {
        var descriptor = libusb_device_descriptor()
        guard libusb_get_device_descriptor(device, &descriptor) == 0,
            let interface = USBCameraInterface.find(vendorID: descriptor.idVendor, in: interfaces(of: device))
        else { return nil }
        // USB 3 allows a hub depth of 7; libusb documents 7 as the largest count.
        var ports = [UInt8](repeating: 0, count: 8)
        let portCount = libusb_get_port_numbers(device, &ports, Int32(ports.count))
        return USBCameraInfo(
            busNumber: libusb_get_bus_number(device), deviceAddress: libusb_get_device_address(device),
            portNumbers: Array(ports.prefix(Int(max(0, portCount)))), vendorID: descriptor.idVendor,
            productID: descriptor.idProduct, interface: interface)
    }

    /// Every alternate setting of every interface of the active configuration (or of the first one when the
    /// device is unconfigured), copied out of libusb's parsed descriptors.
    static func interfaces(of device: OpaquePointer) -> [USBInterfaceDescription] {
        var configuration: UnsafeMutablePointer<libusb_config_descriptor>?
        if libusb_get_active_config_descriptor(device, &configuration) != 0 {
            configuration = nil
            guard libusb_get_config_descriptor(device, 0, &configuration) == 0 else { return [] }
        }
        guard let configuration else { return [] }
        defer { libusb_free_config_descriptor(configuration) }
        guard let interfaces = configuration.pointee.interface else { return [] }
        var result: [USBInterfaceDescription] = []
        for interfaceIndex in 0..<Int(configuration.pointee.bNumInterfaces) {
            let interface = interfaces[interfaceIndex]
            guard let settings = interface.altsetting else { continue }
            for settingIndex in 0..<Int(max(0, interface.num_altsetting)) {
                let setting = settings[settingIndex]
                var endpoints: [USBEndpointDescription] = []
                if let descriptors = setting.endpoint {
                    for endpointIndex in 0..<Int(setting.bNumEndpoints) {
                        let endpoint = descriptors[endpointIndex]
                        endpoints.append(
                            USBEndpointDescription(
                                address: endpoint.bEndpointAddress, attributes: endpoint.bmAttributes,
                                maxPacketSize: endpoint.wMaxPacketSize))
                    }
                }
                result.append(
                    USBInterfaceDescription(
                        number: setting.bInterfaceNumber, alternateSetting: setting.bAlternateSetting,
                        interfaceClass: setting.bInterfaceClass, interfaceSubclass: setting.bInterfaceSubClass,
                        interfaceProtocol: setting.bInterfaceProtocol, endpoints: endpoints))
            }
        }
        return result
    }

    /// Opens the device to read its strings and to see whether its interface is free; closes it again.
    static func probe(_ device: OpaquePointer, _ camera: inout USBCameraInfo) {
        var handle: OpaquePointer?
        let opened = libusb_open(device, &handle)
        guard opened == 0, let handle else {
            camera.access =
                opened == LIBUSB_ERROR_ACCESS.rawValue
                ? .permissionDenied : .unavailable(LibUSBError(returnValue: opened, function: "libusb_open"))
            fillStringsFromSystem(&camera)
            return
        }
        defer { libusb_close(handle) }
        var descriptor = libusb_device_descriptor()
        if libusb_get_device_descriptor(device, &descriptor) == 0 {
            camera.manufacturer = readString(handle, index: descriptor.iManufacturer)
            camera.product = readString(handle, index: descriptor.iProduct)
            camera.serialNumber = readString(handle, index: descriptor.iSerialNumber)
        }
        let number = Int32(camera.interface.number)
        // A kernel driver bound to the interface is not "another program": opening detaches it.
        if libusb_kernel_driver_active(handle, number) == 1 {
            camera.access = .available
            return
        }
        let claimed = libusb_claim_interface(handle, number)
        switch claimed {
        case 0:
            libusb_release_interface(handle, number)
            camera.access = .available
        case LIBUSB_ERROR_BUSY.rawValue:
            camera.access = .busy
        default:
            camera.access = .unavailable(LibUSBError(returnValue: claimed, function: "libusb_claim_interface"))
        }
    }

    /// A string descriptor (USB 2.0 §9.6.7) decoded from UTF-16LE, in the device's first language; `nil` for index
    /// 0, a failed request, or an empty string. The bytes are the device's: lengths are checked, nothing trusted.
    static func readString(_ handle: OpaquePointer, index: UInt8) -> String? {
        guard index != 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 255)
        var language: UInt16 = 0x0409
        let languages = libusb_get_string_descriptor(handle, 0, 0, &buffer, Int32(buffer.count))
        if languages >= 4, buffer[1] == UInt8(LIBUSB_DT_STRING.rawValue) {
            language = UInt16(buffer[2]) | UInt16(buffer[3]) << 8
        }
        let received = libusb_get_string_descriptor(handle, index, language, &buffer, Int32(buffer.count))
        guard received >= 2, buffer[1] == UInt8(LIBUSB_DT_STRING.rawValue) else { return nil }
        let length = min(Int(received), Int(buffer[0]), buffer.count)
        var units: [UInt16] = []
        var offset = 2
        while offset + 1 < length {
            units.append(UInt16(buffer[offset]) | UInt16(buffer[offset + 1]) << 8)
            offset += 2
        }
        let text = String(decoding: units, as: UTF16.self)
            .trimmingCharacters(in: { $0 == "\0" || $0.isWhitespace })
        return text.isEmpty ? nil : text
    }
}

extension String {
    /// Drops leading and trailing characters that match.
    fileprivate func trimmingCharacters(in predicate: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !predicate($0) }), let last = lastIndex(where: { !predicate($0) })
        else { return "" }
        return String(self[first...last])
    }
}
