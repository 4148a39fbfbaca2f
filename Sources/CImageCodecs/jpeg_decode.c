#include <stdlib.h>
#include <string.h>
#include "CImageCodecs.h"
#include "jpeg_error.h"

/* Progressive files may legally hold hundreds of scans, but thousands are a denial-of-service trick
 * (each scan revisits the whole coefficient buffer); libjpeg-turbo's own tools stop at 500. */
enum { MAX_PROGRESSIVE_SCANS = 500 };

typedef struct {
    struct jpeg_progress_mgr base;
    qrc_jpeg_error *error;
    int too_many_scans;
} scan_limit;

static void check_scan_count(j_common_ptr cinfo) {
    scan_limit *limit = (scan_limit *)cinfo->progress;
    j_decompress_ptr decompress = (j_decompress_ptr)cinfo;
    if (decompress->input_scan_number > MAX_PROGRESSIVE_SCANS) {
        limit->too_many_scans = 1;
        qrc_set_message(limit->error->message, "the progressive JPEG has more than 500 scans");
        longjmp(limit->error->jump, 1);
    }
}

/* State owned by the caller of the setjmp function, valid after a longjmp. */
typedef struct {
    struct jpeg_decompress_struct cinfo;
    qrc_jpeg_error error;
    scan_limit limit;
    /* One CMYK row when converting CMYK to RGB. */
    JSAMPLE *cmyk_row;
    /* Whether the image data is one sequential scan of every component (read from the header). */
    int single_scan;
} jpeg_read_state;

/* Adobe applications store CMYK inverted (0 = full ink); others store it plain. */
static void cmyk_to_rgb(const JSAMPLE *cmyk, uint8_t *rgb, JDIMENSION width, int inverted) {
    for (JDIMENSION x = 0; x < width; x++) {
        unsigned c = cmyk[4 * x], m = cmyk[4 * x + 1], y = cmyk[4 * x + 2], k = cmyk[4 * x + 3];
        if (!inverted) {
            c = 255 - c;
            m = 255 - m;
            y = 255 - y;
            k = 255 - k;
        }
        rgb[3 * x] = (uint8_t)((c * k + 127) / 255);
        rgb[3 * x + 1] = (uint8_t)((m * k + 127) / 255);
        rgb[3 * x + 2] = (uint8_t)((y * k + 127) / 255);
    }
}

/* Every libjpeg call that may longjmp happens inside this function. */
static qrc_status decode(jpeg_read_state *state, const uint8_t *data, size_t size, int grayscale,
                         uint64_t max_pixels, qrc_pixels *result) {
    j_decompress_ptr cinfo = &state->cinfo;
    if (setjmp(state->error.jump)) {
        if (state->limit.too_many_scans) return QRC_CORRUPT;
        return state->error.truncated ? QRC_TRUNCATED : QRC_CORRUPT;
    }
    jpeg_create_decompress(cinfo);
    cinfo->progress = &state->limit.base;
    jpeg_mem_src(cinfo, data, (unsigned long)size);
    jpeg_read_header(cinfo, TRUE);
    state->single_scan = !cinfo->progressive_mode && cinfo->comps_in_scan == cinfo->num_components;
    result->width = cinfo->image_width;
    result->height = cinfo->image_height;
    if ((uint64_t)cinfo->image_width * cinfo->image_height > max_pixels) {
        qrc_set_message(state->error.message, "the image has too many pixels");
        return QRC_TOO_LARGE;
    }

    int cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
    if (cmyk) {
        cinfo->out_color_space = JCS_CMYK;
    } else if (grayscale || cinfo->num_components == 1) {
        cinfo->out_color_space = JCS_GRAYSCALE;
    } else {
        cinfo->out_color_space = JCS_RGB;
    }
    jpeg_start_decompress(cinfo);

    JDIMENSION width = cinfo->output_width;
    size_t channels = cmyk ? 3 : (size_t)cinfo->output_components;
    size_t row_bytes = (size_t)width * channels;
    result->width = width;
    result->height = cinfo->output_height;
    result->channels = (uint32_t)channels;
    result->pixels = malloc(row_bytes * cinfo->output_height);
    if (cmyk) state->cmyk_row = malloc((size_t)width * 4);
    if (result->pixels == NULL || (cmyk && state->cmyk_row == NULL)) {
        qrc_set_message(state->error.message, "not enough memory for the image");
        return QRC_OUT_OF_MEMORY;
    }
    while (cinfo->output_scanline < cinfo->output_height) {
        uint8_t *row = result->pixels + (size_t)cinfo->output_scanline * row_bytes;
        JSAMPROW target = cmyk ? state->cmyk_row : row;
        if (jpeg_read_scanlines(cinfo, &target, 1) != 1) {
            qrc_set_message(state->error.message, "libjpeg stopped early");
            return QRC_TRUNCATED;
        }
        if (cmyk) cmyk_to_rgb(state->cmyk_row, row, width, cinfo->saw_Adobe_marker);
    }
    jpeg_finish_decompress(cinfo);
    if (state->error.truncated) {
        qrc_set_message(state->error.message, "the JPEG data ends early");
        return QRC_TRUNCATED;
    }
    return QRC_OK;
}

/* One decode of `data`; `end_marker_appended` as in qrc_jpeg_error. `single_scan` gets whether the file
   is one sequential scan. */
static qrc_status decode_once(const uint8_t *data, size_t size, int grayscale, uint64_t max_pixels,
                              qrc_pixels *result, char *message, int end_marker_appended, int *single_scan) {
    memset(result, 0, sizeof *result);
    qrc_set_message(message, "");
    jpeg_read_state *state = calloc(1, sizeof *state);
    if (state == NULL) {
        qrc_set_message(message, "cannot initialise libjpeg");
        return QRC_OUT_OF_MEMORY;
    }
    state->cinfo.err = &state->error.base;
    qrc_jpeg_error_init(&state->error, message);
    state->error.end_marker_appended = end_marker_appended;
    state->limit.base.progress_monitor = check_scan_count;
    state->limit.error = &state->error;
    qrc_status status = decode(state, data, size, grayscale, max_pixels, result);
    *single_scan = state->single_scan;
    jpeg_destroy_decompress(&state->cinfo);
    free(state->cmyk_row);
    free(state);
    if (status != QRC_OK) {
        free(result->pixels);
        result->pixels = NULL;
    }
    return status;
}

qrc_status qrc_jpeg_decode(const uint8_t *data, size_t size, int grayscale, uint64_t max_pixels,
                           qrc_pixels *result, char *message) {
    if (size == 0) {
        memset(result, 0, sizeof *result);
        qrc_set_message(message, "the JPEG data is empty");
        return QRC_TRUNCATED;
    }
    int single_scan = 0;
    qrc_status status = decode_once(data, size, grayscale, max_pixels, result, message, 0, &single_scan);
    /* A file that lacks only its end marker holds every row, as browsers and other decoders take it, yet the
       entropy decoder reads ahead past its last bits and meets the end of the data. With the marker appended
       it meets the marker instead, and warns only if it needed bits beyond it: where the data ends early.
       Only for one sequential scan: a progressive file cut between scans would read as a coarser whole. */
    int ends_with_marker = size >= 2 && data[size - 2] == 0xFF && data[size - 1] == 0xD9;
    if (status != QRC_TRUNCATED || !single_scan || ends_with_marker) return status;
    uint8_t *completed = malloc(size + 2);
    if (completed == NULL) return status;
    memcpy(completed, data, size);
    completed[size] = 0xFF;
    completed[size + 1] = 0xD9;
    char retry_message[QRC_MESSAGE_CAPACITY];
    qrc_pixels retried;
    qrc_status retry = decode_once(completed, size + 2, grayscale, max_pixels, &retried, retry_message, 1, &single_scan);
    free(completed);
    if (retry != QRC_OK) return status;
    free(result->pixels);
    *result = retried;
    qrc_set_message(message, "");
    return QRC_OK;
}
