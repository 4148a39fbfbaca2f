// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "QRKit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "QRKit", targets: ["QRKit"]),
        .executable(name: "qr", targets: ["qr"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The web app (`qr serve`); no traits: swift-configuration is not needed.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0", traits: []),
    ],
    targets: [
        // System libraries (Debian: libpng-dev, libjpeg-dev, zlib1g-dev).
        .systemLibrary(name: "CLibPNG", path: "Sources/CLibPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CLibJPEG", path: "Sources/CLibJPEG", pkgConfig: "libjpeg",
                       providers: [.apt(["libjpeg-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        // glibc's mallopt, for the commands that decode photos (see qr's LargeImageMemory).
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        // C shims that own every setjmp/longjmp of libpng and libjpeg.
        .target(name: "CImageCodecs", dependencies: ["CLibPNG", "CLibJPEG", "CZlib"]),

        // Shared math, tables and geometry used by the encoder and the reader.
        .target(name: "QRCore"),
        .target(name: "QREncoder", dependencies: ["QRCore"]),
        .target(name: "QRImage", dependencies: ["QRCore", "CImageCodecs", "CZlib"]),
        .target(name: "QRRender", dependencies: ["QRCore", "QREncoder", "QRImage"]),
        .target(name: "QRReader", dependencies: ["QRCore", "QRImage"]),
        .target(name: "QRPicker", dependencies: ["QRCore"]),
        .target(name: "QRKit", dependencies: ["QRCore", "QREncoder", "QRImage", "QRRender", "QRReader", "QRPicker", "QRVideo"]),
        // Live scanning of Y4M / raw gray video streams (`qr watch`).
        .target(name: "QRVideo", dependencies: ["QRCore", "QRReader", "QRImage"]),
        // The web app and JSON API behind `qr serve`; its pages and OpenAPI file are resources.
        .target(name: "QRServer", dependencies: [
            "QRCore", "QREncoder", "QRImage", "QRRender", "QRReader",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
        ], resources: [.copy("Public")]),
        .executableTarget(name: "qr", dependencies: [
            "QRKit",
            "QRVideo",
            "QRServer",
            .target(name: "CMalloc", condition: .when(platforms: [.linux])),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // Helpers shared by the test targets (deterministic randomness, synthetic images).
        .target(name: "QRTestSupport", dependencies: ["QRCore"], path: "Tests/TestSupport"),
        .testTarget(name: "QRCoreTests", dependencies: ["QRCore", "QRTestSupport"]),
        .testTarget(name: "QREncoderTests", dependencies: ["QREncoder", "QRTestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "QRImageTests", dependencies: ["QRImage", "QRTestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "QRRenderTests", dependencies: ["QRRender", "QRImage", "QRTestSupport"]),
        .testTarget(name: "QRReaderTests", dependencies: ["QRReader", "QREncoder", "QRImage", "QRTestSupport"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "QRPickerTests", dependencies: ["QRPicker"]),
        .testTarget(name: "QRVideoTests", dependencies: ["QRVideo", "QRReader", "QREncoder", "QRImage", "QRTestSupport"]),
        .testTarget(name: "qrTests", dependencies: ["qr", "QREncoder", "QRImage", "QRTestSupport"]),
        .testTarget(name: "QRServerTests", dependencies: [
            "QRServer", "QRCore", "QREncoder", "QRImage", "QRRender", "QRReader", "QRPicker", "QRTestSupport",
            .product(name: "HummingbirdTesting", package: "hummingbird"),
        ]),
    ]
)
