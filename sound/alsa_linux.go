//go:build linux && cgo

package sound

// ALSA prints a dozen lines to stderr when the machine has no sound card. The
// server already logs one warning for that, so the library is told to be quiet.
//
// ALSA's plugins print too, through no handler of ALSA's: where the JACK
// plugin is installed, listing the sound devices (which oto does before it
// opens one) makes libjack try its server and write "Cannot connect to
// server socket" lines to the player's terminal. Only starting the speaker
// does that, so stderr points at /dev/null while it starts.

/*
#cgo pkg-config: alsa
#include <alsa/asoundlib.h>
#include <fcntl.h>
#include <unistd.h>

static void hostfallQuiet(const char *file, int line, const char *fn, int err, const char *fmt, ...) {}
static void hostfallHushALSA(void) { snd_lib_error_set_handler(hostfallQuiet); }

static int hostfallMute(int fd) {
	int saved = dup(fd);
	int null = open("/dev/null", O_WRONLY);
	if (saved < 0 || null < 0) {
		if (saved >= 0) close(saved);
		if (null >= 0) close(null);
		return -1;
	}
	dup2(null, fd);
	close(null);
	return saved;
}

static void hostfallRestore(int saved, int fd) {
	if (saved < 0) return;
	dup2(saved, fd);
	close(saved);
}
*/
import "C"

import "os"

func quietALSA() {
	C.hostfallHushALSA()
	if _, set := os.LookupEnv("JACK_NO_START_SERVER"); !set {
		os.Setenv("JACK_NO_START_SERVER", "1") // nor may libjack start a server of its own
	}
}

// hushStderr points the process's stderr at /dev/null until the returned
// function puts it back. What anything else writes there meanwhile (the
// speaker starts in well under a second) is lost too.
func hushStderr() (restore func()) { return hush(2) }

// hush points the file descriptor fd at /dev/null until the returned
// function puts it back.
func hush(fd int) (restore func()) {
	saved := C.hostfallMute(C.int(fd))
	return func() { C.hostfallRestore(saved, C.int(fd)) }
}
