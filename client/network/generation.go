package network

import (
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
// crash never leaves half a number). It runs only when the generation grows:
// once per host change.
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
