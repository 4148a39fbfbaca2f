"""zxing-cpp as the benchmarks run it: its Python binding on an 8-bit grayscale numpy array, with the options the
corpus's peer results were made with (QR, Micro QR and rMQR; try rotate, downscale and invert; local-average
binarizer; plain text)."""
import sys
import time

try:
    import numpy
    import zxingcpp
    from PIL import Image, ImageOps
except ImportError:
    sys.exit("needs the zxing-cpp, pillow and numpy Python packages: pip install zxing-cpp pillow numpy")

FORMATS = (zxingcpp.BarcodeFormat.QRCode, zxingcpp.BarcodeFormat.MicroQRCode, zxingcpp.BarcodeFormat.RMQRCode)


def grayscale(path):
    """The image at `path`, EXIF orientation applied, as an 8-bit grayscale numpy array."""
    return numpy.asarray(ImageOps.exif_transpose(Image.open(path)).convert("L"))


def read(image):
    """zxing-cpp's results for a grayscale numpy array."""
    return zxingcpp.read_barcodes(image, formats=FORMATS, try_rotate=True, try_downscale=True, try_invert=True,
                                  binarizer=zxingcpp.Binarizer.LocalAverage, text_mode=zxingcpp.TextMode.Plain)


def fastest_read_ms(path, runs):
    """zxing-cpp's fastest of `runs` reads of the image at `path`, preloaded as grayscale, in milliseconds."""
    image = grayscale(path)
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        read(image)
        best = min(best, (time.perf_counter() - start) * 1000)
    return best
