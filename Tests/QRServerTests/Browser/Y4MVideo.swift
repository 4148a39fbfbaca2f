import Foundation
import QRImage

/// A YUV4MPEG2 (Y4M) video for Chromium's fake camera: 4:2:0 frames whose luma plane is a gray picture and
/// whose chroma is neutral (128), so the camera shows exactly the pictures drawn.
enum Y4MVideo {
    /// The file bytes for `frames` (all the same size, even width and height) at `fps` frames per second.
    static func encode(_ frames: [GrayImage], fps: Int = 10) throws -> Data {
        guard let first = frames.first, first.width % 2 == 0, first.height % 2 == 0,
              frames.allSatisfy({ $0.width == first.width && $0.height == first.height }) else {
            throw Chromium.Failure("Y4M frames need one even size")
        }
        var data = Data("YUV4MPEG2 W\(first.width) H\(first.height) F\(fps):1 Ip A1:1 C420jpeg\n".utf8)
        let chroma = Data(repeating: 128, count: first.width * first.height / 4)
        for frame in frames {
            data.append(Data("FRAME\n".utf8))
            data.append(contentsOf: frame.pixels)
            data.append(chroma)
            data.append(chroma)
        }
        return data
    }
}
