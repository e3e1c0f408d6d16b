package network

// What a peer keeps of its games for the player: the replay file of every
// game it plays and the desync reports. The directories are the caller's
// (package datadir's, in the hostfall binary).

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"hostfall/match"
	"hostfall/savegame"
)

// ReplayFile is a replay's file: it is created on the first write (when the
// game loads and the session's name is known), named by time, session and
// peer, so peers on one machine write one file each.
type ReplayFile struct {
	dir  string
	name func() string
	peer string

	mu   sync.Mutex
	f    *os.File
	path string
	err  error
}

var _ io.Writer = (*ReplayFile)(nil)

// NewReplayFile returns a replay file in dir for the peer with this ID;
// name, if set, gives the session's name when the file is created.
func NewReplayFile(dir, peerID string, name func() string) *ReplayFile {
	return &ReplayFile{dir: dir, peer: peerID, name: name}
}

func (l *ReplayFile) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil && l.err == nil && l.path == "" {
		l.open()
	}
	if l.err != nil {
		return 0, l.err
	}
	if l.f == nil {
		return 0, errors.New("network: the replay file is closed")
	}
	return l.f.Write(p)
}

func (l *ReplayFile) open() {
	if l.err = os.MkdirAll(l.dir, 0o755); l.err != nil {
		return
	}
	name := "session"
	if l.name != nil {
		if n := savegame.CleanName(l.name()); n != "" {
			name = n
		}
	}
	id := l.peer[max(0, len(l.peer)-6):]
	base := filepath.Join(l.dir, fmt.Sprintf("%s-%s-%s", time.Now().Format("20060102-150405"), name, id))
	l.path = base + ".hfreplay"
	// A game's next replay (Next) may start within the same second.
	for n := 2; ; n++ {
		l.f, l.err = os.OpenFile(l.path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if !errors.Is(l.err, os.ErrExist) || n > 100 {
			return
		}
		l.path = fmt.Sprintf("%s-%d.hfreplay", base, n)
	}
}

// Next closes the current file and returns its path ("" if nothing was
// written); the next write starts another file. For a game whose replay
// goes on in a new one (match.Options.NextReplay).
func (l *ReplayFile) Next() (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		err := l.err
		l.path, l.err = "", nil
		return "", err
	}
	err := l.f.Close()
	path := l.path
	l.f, l.path = nil, ""
	return path, err
}

// Close closes the file and returns its path ("" if nothing was written).
// Closing again returns "" and nil.
func (l *ReplayFile) Close() (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return "", l.err
	}
	err := l.f.Close()
	l.f = nil
	return l.path, err
}

// WriteReport writes a desync report to a new file in dir and returns its path.
func WriteReport(dir string, r *match.Report) (string, error) {
	if r == nil {
		return "", errors.New("network: empty desync report")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, fmt.Sprintf("%s-turn%d.txt", time.Now().Format("20060102-150405.000"), r.Desync.Turn))
	return path, os.WriteFile(path, []byte(r.String()), 0o644)
}
