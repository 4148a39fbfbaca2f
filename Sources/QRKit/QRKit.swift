// QRKit: one import for the whole library.
@_exported import QRCore
@_exported import QREncoder
@_exported import QRImage
@_exported import QRPicker
@_exported import QRReader
@_exported import QRRender
@_exported import QRVideo
