//go:build linux && cgo

package sound

// ALSA prints a dozen lines to stderr when the machine has no sound card. The
// server already logs one warning for that, so the library is told to be quiet.

/*
#cgo pkg-config: alsa
#include <alsa/asoundlib.h>

static void hostfallQuiet(const char *file, int line, const char *fn, int err, const char *fmt, ...) {}
static void hostfallHushALSA(void) { snd_lib_error_set_handler(hostfallQuiet); }
*/
import "C"

func quietALSA() { C.hostfallHushALSA() }
