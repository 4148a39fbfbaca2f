/// The kinds of symbol the reader knows.
public enum Symbology: String, Sendable, CaseIterable, Codable {
    /// QR Code Model 2, versions 1…40 (ISO/IEC 18004).
    case qrCode = "QR Code"
    /// Micro QR Code, M1…M4: one finder pattern, for very small data.
    case microQRCode = "Micro QR Code"
    /// QR Code Model 1, versions 1…14: the original QR code, without alignment patterns.
    case qrCodeModel1 = "QR Code Model 1"
    /// Rectangular Micro QR Code (rMQR), R7x43…R17x139 (ISO/IEC 23941).
    case rectangularMicroQRCode = "rMQR Code"
}
