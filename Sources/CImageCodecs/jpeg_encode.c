#include <stdlib.h>
#include <string.h>
#include "CImageCodecs.h"
#include "jpeg_error.h"

/* State owned by the caller of the setjmp function, valid after a longjmp. */
typedef struct {
    struct jpeg_compress_struct cinfo;
    qrc_jpeg_error error;
    /* libjpeg's memory destination mallocs and grows this buffer itself. */
    unsigned char *buffer;
    unsigned long size;
} jpeg_write_state;

/* Every libjpeg call that may longjmp happens inside this function. */
static qrc_status encode(jpeg_write_state *state, const uint8_t *pixels, uint32_t width, uint32_t height,
                         int channels, int quality, int progressive) {
    j_compress_ptr cinfo = &state->cinfo;
    if (setjmp(state->error.jump)) {
        return QRC_CORRUPT;
    }
    jpeg_create_compress(cinfo);
    jpeg_mem_dest(cinfo, &state->buffer, &state->size);
    cinfo->image_width = width;
    cinfo->image_height = height;
    cinfo->input_components = channels;
    cinfo->in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, quality, TRUE);
    cinfo->optimize_coding = TRUE;
    if (progressive) jpeg_simple_progression(cinfo);
    jpeg_start_compress(cinfo, TRUE);
    size_t row_bytes = (size_t)width * (size_t)channels;
    while (cinfo->next_scanline < cinfo->image_height) {
        /* libjpeg's API is not const-correct; it only reads the rows. */
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo->next_scanline * row_bytes);
        jpeg_write_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_compress(cinfo);
    return QRC_OK;
}

qrc_status qrc_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                           int quality, int progressive, uint8_t **output, size_t *output_size,
                           char *message) {
    *output = NULL;
    *output_size = 0;
    qrc_set_message(message, "");
    if (pixels == NULL || width == 0 || height == 0 || width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION
        || (channels != 1 && channels != 3) || quality < 1 || quality > 100) {
        qrc_set_message(message, "inconsistent JPEG parameters");
        return QRC_INVALID_ARGUMENT;
    }
    jpeg_write_state *state = calloc(1, sizeof *state);
    if (state == NULL) {
        qrc_set_message(message, "cannot initialise libjpeg");
        return QRC_OUT_OF_MEMORY;
    }
    state->cinfo.err = &state->error.base;
    qrc_jpeg_error_init(&state->error, message);
    qrc_status status = encode(state, pixels, width, height, channels, quality, progressive);
    jpeg_destroy_compress(&state->cinfo);
    if (status == QRC_OK) {
        *output = state->buffer;
        *output_size = state->size;
    } else {
        free(state->buffer);
    }
    free(state);
    return status;
}
