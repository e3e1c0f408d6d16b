package network

import (
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// loadGeneration reads the host generation an earlier run of this identity
// saw (0 when there is none or the file is unreadable: the only risk is the
// one a first run has).
func loadGeneration(path string, log *slog.Logger) uint64 {
	if path == "" {
		return 0
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	g, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		log.Warn("ignoring an unreadable generation file", "path", path, "err", err)
		return 0
	}
	return g
}

// saveGeneration keeps g beside the identity key (write and rename, so a
// crash never leaves half a number). genKeeper decides when.
func saveGeneration(path string, g uint64, log *slog.Logger) {
	if path == "" {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".generation-*")
	if err == nil {
		_, err = tmp.WriteString(strconv.FormatUint(g, 10) + "\n")
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), path)
		}
		if err != nil {
			os.Remove(tmp.Name())
		}
	}
	if err != nil {
		log.Warn("cannot keep the host generation; a restart may reuse an epoch", "path", path, "err", err)
	}
}

// genKeeper decides when the generation file is written. A generation this
// peer claims (its own new epoch) is written at once: a restart must never
// claim that epoch again. Generations heard from others only make a
// restarted peer's first claim newer, which it also learns from the first
// message it hears, so they are written at most every genSaveEvery: a
// member that raises the generation with each message costs no file write
// per message.
type genKeeper struct {
	path    string
	log     *slog.Logger
	saved   uint64    // the generation the file holds
	pending uint64    // a heard generation not yet written
	at      time.Time // when the file was last written
}

const genSaveEvery = 10 * time.Second

// note takes the node's generation g; claimed says this peer's own epoch
// is in it.
func (k *genKeeper) note(g uint64, claimed bool, now time.Time) {
	if g <= k.saved {
		return
	}
	k.pending = g
	if claimed || now.Sub(k.at) >= genSaveEvery {
		k.write(now)
	}
}

// flush writes a heard generation still pending (the peer stops).
func (k *genKeeper) flush(now time.Time) {
	if k.pending > k.saved {
		k.write(now)
	}
}

func (k *genKeeper) write(now time.Time) {
	saveGeneration(k.path, k.pending, k.log)
	k.saved, k.at = k.pending, now
}
