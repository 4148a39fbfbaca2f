import QRCore
import QREncoder
import QRTestSupport

/// A synthetic camera video: codes that move, rotate, tilt, enter and leave a noisy, unevenly lit scene.
struct TestVideo {
    /// One code's appearance: visible (at least partly) in `frames`, placed by `pose` at each frame.
    struct Appearance {
        let text: String
        let frames: ClosedRange<Int>
        let pose: (Int) -> (center: Point, degrees: Double, tilt: Double)
    }

    let width: Int
    let height: Int
    let frameCount: Int
    let appearances: [Appearance]
    let moduleSize: Double

    /// Three codes seen one after another, with overlaps, and the first one coming back late.
    static func threeCodes(width: Int = 320, height: Int = 240, frameCount: Int = 90) -> TestVideo {
        func lerp(_ a: Double, _ b: Double, _ t: Int, _ range: ClosedRange<Int>) -> Double {
            a + (b - a) * Double(t - range.lowerBound) / Double(range.upperBound - range.lowerBound)
        }
        let first = 0...40, second = 30...70, third = 55...89, again = 76...89
        return TestVideo(width: width, height: height, frameCount: frameCount, appearances: [
            // Enters on the left, crosses the frame rotating, leaves on the right.
            Appearance(text: "ALPHA-1", frames: first) { t in
                (Point(lerp(-40, 360, t, first), 90), lerp(0, 60, t, first), 0)
            },
            // Falls in from the top, tilted and swinging, and leaves at the bottom.
            Appearance(text: "bravo two", frames: second) { t in
                (Point(200, lerp(-50, 300, t, second)), lerp(-20, 25, t, second), 0.2)
            },
            // Slides in from the right upside down and comes to rest.
            Appearance(text: "Charlie #3", frames: third) { t in
                (Point(max(160, lerp(400, 100, t, third)), 160), lerp(180, 250, t, third), 0.1)
            },
            // The first code again, within the repeat window: seen, but not news.
            Appearance(text: "ALPHA-1", frames: again) { _ in (Point(62, 62), 8, 0) },
        ], moduleSize: 3)
    }

    /// The luma plane of frame `index`.
    func frame(_ index: Int) throws -> [UInt8] {
        var scene = SyntheticScene(width: width, height: height, background: 190)
        for appearance in appearances where appearance.frames.contains(index) {
            let code = try QRCode.encode(appearance.text, options: EncodingOptions(errorCorrectionLevel: .medium))
            let pose = appearance.pose(index)
            scene.place(code.modules, center: pose.center, moduleSize: moduleSize, degrees: pose.degrees, tilt: pose.tilt)
        }
        if index % 3 == 1 { scene.blur(radius: 1) }
        if index % 4 == 2 { scene.addShadow(factor: 0.7) }
        scene.addNoise(amplitude: 18, seed: UInt64(index) + 1)
        return scene.pixels
    }

    /// Where the code with `text` is centred in frame `index`, if it is there.
    func center(of text: String, inFrame index: Int) -> Point? {
        appearances.first { $0.text == text && $0.frames.contains(index) }?.pose(index).center
    }

    /// The whole video as a Y4M stream (4:2:0, flat chroma), as ffmpeg would pipe it.
    func y4m(frameRate: String = "15:1") throws -> [UInt8] {
        let chroma = 2 * ((width + 1) / 2) * ((height + 1) / 2)
        var bytes = Array("YUV4MPEG2 W\(width) H\(height) F\(frameRate) Ip A1:1 C420jpeg XYSCSS=420JPEG\n".utf8)
        for index in 0..<frameCount {
            bytes += Array("FRAME\n".utf8)
            bytes += try frame(index)
            bytes += [UInt8](repeating: 128, count: chroma)
        }
        return bytes
    }
}
