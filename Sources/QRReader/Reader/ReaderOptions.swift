import QRCore

/// How hard and where the reader looks.
public struct ReaderOptions: Sendable, Equatable {
    /// Speed against thoroughness (Core Image's `CIDetectorAccuracyLow` / `High`).
    public enum Accuracy: String, Sendable, CaseIterable {
        /// One binarization at full scale and on the shrunk copies (and an inverted retry when nothing is
        /// found), a symbol sampled from luminance only where its grid times convincingly and its binary
        /// sample misses: for video frames and for searching many photos.
        case fast
        /// Also samples every well-fitting grid from luminance with erasures, and retries other binarizations
        /// and scales, damaged finder patterns and enlarged copies.
        case thorough
    }

    /// A part of the image to search.
    public enum RegionOfInterest: Sendable, Equatable {
        /// Fractions of the width and height, origin top-left (0…1), like AVFoundation's `rectOfInterest`.
        case normalized(Rect)
        /// Pixels, origin top-left.
        case pixels(Rect)
    }

    public var accuracy: Accuracy
    /// Search only here; results are still reported in whole-image coordinates.
    public var regionOfInterest: RegionOfInterest?
    /// Stop after this many codes (nil: find all).
    public var maximumCodes: Int?
    /// Also look for light-on-dark (inverted) codes when nothing else is found.
    public var tryInverted: Bool
    /// With ``tryInverted``, look for light-on-dark codes even when dark-on-light ones were found, for
    /// pictures that hold both kinds (as zxing-cpp's `tryInvert` does): one more pass over every picture,
    /// a third to a half more time (the development corpus and noisy synthetic pages).
    public var mixedPolarity: Bool
    /// Also try a shrunk copy of the image (helps with noise, blur, huge modules and, thresholded for low
    /// contrast, codes under glare or haze).
    public var tryDownscale: Bool
    /// Stop searching after this long (nil: no limit), overrunning it by one step at most (a binarization, or
    /// one candidate symbol's decode), and return what was found; ``QRCodeReader/readReport(_:)`` tells
    /// whether it did (``ReadReport/timedOut``).
    public var timeBudget: Duration?
    /// The kinds of symbol to look for.
    public var symbologies: Set<Symbology>

    public init(accuracy: Accuracy = .thorough, regionOfInterest: RegionOfInterest? = nil, maximumCodes: Int? = nil,
                tryInverted: Bool = true, mixedPolarity: Bool = false, tryDownscale: Bool = true, timeBudget: Duration? = nil,
                symbologies: Set<Symbology> = Set(Symbology.allCases)) {
        self.accuracy = accuracy
        self.regionOfInterest = regionOfInterest
        self.maximumCodes = maximumCodes
        self.tryInverted = tryInverted
        self.mixedPolarity = mixedPolarity
        self.tryDownscale = tryDownscale
        self.timeBudget = timeBudget
        self.symbologies = symbologies
    }
}
