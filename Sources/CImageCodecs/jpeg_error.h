#ifndef JPEG_ERROR_H
#define JPEG_ERROR_H

#include <setjmp.h>
#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>
#include "codec_message.h"

/* libjpeg error manager that records messages instead of printing them and longjmps back into the
 * shim function that called setjmp on `jump`. */
typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char *message;
    /* Set when libjpeg warned that the data ended early (it then pads the image with gray). */
    int truncated;
    /* Set when the shim appended the end marker the data lacked: the entropy decoder then meets that marker,
       not the end of the data, where the data ends early. */
    int end_marker_appended;
} qrc_jpeg_error;

static void qrc_jpeg_error_exit(j_common_ptr cinfo) {
    qrc_jpeg_error *error = (qrc_jpeg_error *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    qrc_set_message(error->message, text);
    longjmp(error->jump, 1);
}

/* Keeps the text of the latest warning; libjpeg's default would print it to stderr. */
static void qrc_jpeg_output_message(j_common_ptr cinfo) {
    qrc_jpeg_error *error = (qrc_jpeg_error *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    qrc_set_message(error->message, text);
}

/* Level -1 is a warning, higher levels are trace output, which is ignored. */
static void qrc_jpeg_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;
    qrc_jpeg_error *error = (qrc_jpeg_error *)cinfo->err;
    if (cinfo->err->msg_code == JWRN_JPEG_EOF) error->truncated = 1;
    if (cinfo->err->msg_code == JWRN_HIT_MARKER && error->end_marker_appended) error->truncated = 1;
    cinfo->err->num_warnings++;
    (*cinfo->err->output_message)(cinfo);
}

static void qrc_jpeg_error_init(qrc_jpeg_error *error, char *message) {
    jpeg_std_error(&error->base);
    error->base.error_exit = qrc_jpeg_error_exit;
    error->base.output_message = qrc_jpeg_output_message;
    error->base.emit_message = qrc_jpeg_emit_message;
    error->message = message;
    error->truncated = 0;
    error->end_marker_appended = 0;
}

#endif
