import CameraEmulator
import DNG
import JPEG
import PTP
import Testing

/// RAW, RAW+JPEG and JPEG: the objects each quality stores, their ObjectInfo, and thumbnails.
@Suite struct QualityTests {
    static let cases: [(UInt8, [ObjectFormatCode])] = [(4, [.tiffEP]), (5, [.tiffEP, .exifJPEG]), (2, [.exifJPEG])]

    @Test(arguments: Reach.allCases, [UInt8(4), 5, 2])
    func eachQualityStoresItsObjects(reach: Reach, quality: UInt8) async throws {
        let expected = try #require(Self.cases.first { $0.0 == quality }?.1)
        let link = try await reach.connect(try smallCamera(width: 160, height: 120))
        let session = Reach.session(link)
        try await session.openSession()
        try await session.setDevicePropValue(.compressionSetting, .uint8(quality))
        let handles = try await shoot(session)
        var formats: [ObjectFormatCode] = []
        var stems: Set<Substring> = []
        for handle in handles {
            let info = try await session.getObjectInfo(handle)
            formats.append(info.objectFormat)
            stems.insert(info.filename.prefix { $0 != "." })
            let bytes = try await download(session, handle)
            #expect(UInt64(bytes.count) == info.byteCount)
            if info.objectFormat == .exifJPEG {
                #expect(info.filename.hasSuffix(".JPG"))
                let jpeg = try JPEGImage(validating: bytes)
                #expect(jpeg.width == Int(info.imagePixWidth) && jpeg.height == Int(info.imagePixHeight))
                #expect(jpeg.width == 160 - 2 - 16 && jpeg.height == 120 - 2 - 16)  // default crop of the active area
                #expect(try jpeg.decoded().pixels.count == jpeg.width * jpeg.height * 3)
            } else {
                #expect(info.filename.hasSuffix(".TIF"))
            }
            // Every object has a thumbnail, described in its ObjectInfo.
            let thumb = try await session.getThumb(handle)
            #expect(info.thumbFormat == .jfif && UInt32(thumb.count) == info.thumbCompressedSize)
            let thumbnail = try JPEGImage(validating: thumb)
            #expect(thumbnail.width == Int(info.thumbPixWidth) && thumbnail.height == Int(info.thumbPixHeight))
            #expect(max(thumbnail.width, thumbnail.height) <= 160)
        }
        #expect(formats == expected)
        #expect(stems == ["RCAP0001"])
        await link.close()
    }

    @Test func theFormatParameterOverridesTheQuality() async throws {
        let link = EmulatorLink.usb(try smallCamera())
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        #expect(try await session.getDevicePropValue(.compressionSetting, type: .uint8) == .uint8(4))  // RAW
        let jpeg = try await shoot(session, format: .exifJPEG)
        #expect(try await session.getObjectInfo(try #require(jpeg.first)).objectFormat == .exifJPEG)
        try await session.setDevicePropValue(.compressionSetting, .uint8(5))
        let raw = try await shoot(session, format: .tiffEP)
        #expect(raw.count == 1)
        #expect(try await session.getObjectInfo(try #require(raw.first)).objectFormat == .tiffEP)
        await link.close()
    }

    @Test(arguments: CaptureEventOrder.allCases)
    func eventsFollowTheConfiguredOrder(order: CaptureEventOrder) async throws {
        let link = EmulatorLink.usb(try smallCamera(eventOrder: order))
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        try await session.setDevicePropValue(.compressionSetting, .uint8(5))
        try await session.initiateCapture()
        var codes: [EventCode] = []
        while codes.count < 3, let event = try await session.nextEvent(timeout: .seconds(20)) {
            codes.append(event.code)
            #expect(event.transactionID == 2)  // the InitiateCapture's
        }
        switch order {
        case .standard: #expect(codes == [.objectAdded, .objectAdded, .captureComplete])
        case .gphoto2: #expect(codes == [.objectAdded, .captureComplete, .objectAdded])
        }
        await link.close()
    }
}
