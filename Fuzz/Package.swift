// swift-tools-version: 6.1
// Coverage-guided fuzzers (libFuzzer) for QRKit's untrusted-input paths. Built apart from the package so that
// its sanitizer flags never reach the product; README.md here says how to build and run them.
import PackageDescription

let fuzzers = ["FuzzImage", "FuzzReader", "FuzzBitstream", "FuzzSymbol", "FuzzVideo", "FuzzEncoder"]

let package = Package(
    name: "QRKitFuzz",
    dependencies: [.package(name: "QRKit", path: "..")],
    targets: [.target(name: "CFuzzerDriver"), .target(name: "FuzzerSupport", dependencies: ["CFuzzerDriver"])] + fuzzers.map { name in
        .executableTarget(name: name, dependencies: ["FuzzerSupport", .product(name: "QRKit", package: "QRKit")])
    }
)
