import QRCore

/// How `qr mark` outlines detected symbols: a closed outline in #FF3B30 whose width grows with the
/// photo (3 px up to 1000 px on the shorter side), and a numbered label at the symbol's top-left corner.
public enum DetectionMarking {
    /// The outline colour, #FF3B30.
    public static let color = RGBAPixel(red: 0xFF, green: 0x3B, blue: 0x30)

    /// Outline width in pixels: 3 px per 1000 px of the shorter side, never less than 3.
    public static func lineWidth(imageWidth: Int, imageHeight: Int) -> Double {
        Swift.max(3, (Double(Swift.min(imageWidth, imageHeight)) / 1000 * 3).rounded())
    }
}

extension RGBAImage {
    /// Outlines `corners` and labels them with `label` (e.g. "1") in white on a box of the outline colour,
    /// placed just outside the top-left corner and kept inside the image.
    public mutating func markDetection(_ corners: Quadrilateral, label: String, color: RGBAPixel = DetectionMarking.color) {
        let lineWidth = DetectionMarking.lineWidth(imageWidth: width, imageHeight: height)
        strokePolygon(corners.corners, lineWidth: lineWidth, color: color)
        guard !label.isEmpty, corners.topLeft.x.isFinite, corners.topLeft.y.isFinite else { return }
        let scale = Swift.max(2, Int(lineWidth * 0.75))
        let text = BitmapFont.size(of: label, scale: scale)
        let margin = scale * 2
        let boxWidth = text.width + 2 * margin, boxHeight = text.height + 2 * margin
        // Above and left of the corner when there is room, clamped to the image otherwise.
        let x = Int(Swift.max(0, Swift.min(Double(width - boxWidth), corners.topLeft.x - Double(boxWidth) / 2)))
        let y = Int(Swift.max(0, Swift.min(Double(height - boxHeight), corners.topLeft.y - Double(boxHeight) - lineWidth)))
        fillRect(x: x, y: y, width: boxWidth, height: boxHeight, color: color)
        drawText(label, x: x + margin, y: y + margin, scale: scale, color: .white)
    }
}
