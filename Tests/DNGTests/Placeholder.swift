import DNG
import Foundation
import RawImage
import Testing

@Test func scratchWrite() throws {
    let w = 37, h = 23
    var samples = [UInt16](repeating: 0, count: w * h)
    for i in 0..<samples.count { samples[i] = UInt16((i * 7919) % 16384) }
    let time = try CaptureTime(year: 2024, month: 5, day: 6, hour: 7, minute: 8, second: 9, subSeconds: "042", utcOffsetMinutes: 120)
    let meta = CaptureMetadata(make: "Acme", model: "Cam 1", serialNumber: "SN123", lensModel: "Lens 50", exposureTime: Rational(1, 125), fNumber: 2.8, iso: 400, exposureBias: Rational(-1, 3), focalLength: 50, captureTime: time, orientation: .normal)
    let frame = try RawFrame(width: w, height: h, bitsPerSample: 14, samples: samples, cfa: .rggb, blackLevels: [512, 512, 512, 512], whiteLevel: 16383, metadata: meta)
    let thumb = try RGBImage8(width: 8, height: 5, pixels: [UInt8](repeating: 128, count: 8 * 5 * 3))
    let plan = try DNGEncoder().plan(for: frame, previews: DNGPreviews(thumbnail: thumb, preview: nil))
    print(plan)
    try? FileManager.default.removeItem(atPath: "/tmp/scratch.dng")
    let r = try DNGWriter.write(plan, to: "/tmp/scratch.dng")
    print(r)
    try Data(samples.withUnsafeBytes { Array($0) }).write(to: URL(fileURLWithPath: "/tmp/scratch.raw"))
}
