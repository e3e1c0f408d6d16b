// Package library lists this machine's saved games and replays for the
// browser's Load game and Replays, and opens a replay for the viewer. It
// reads files; the screens only show what it lists.
package library

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"hostfall/client"
	"hostfall/client/playback"
	"hostfall/game"
	"hostfall/match"
	"hostfall/savegame"
	"hostfall/session"
	"hostfall/session/replay"
)

// ReplayExt is the file name extension of replay files.
const ReplayExt = ".hfreplay"

// Library lists the saved games in SaveDir and the replays in ReplayDir
// (the data dir's, in the hostfall binary). A file that cannot be read is
// listed with the reason. Its methods are safe for concurrent use.
type Library struct {
	SaveDir, ReplayDir string
	Log                *slog.Logger // nil: slog.Default()

	mu      sync.Mutex
	replays map[string]replayEntry // replay files read, by path: a list reads only the new or changed
}

// replayEntry is a replay file as last read: its size and time tell
// whether it changed since.
type replayEntry struct {
	size int64
	mod  time.Time
	info client.ReplayInfo
}

// Saves lists the saved games, newest first.
func (l *Library) Saves() []client.SaveInfo {
	es, err := savegame.List(l.SaveDir)
	if err != nil {
		l.log().Warn("cannot list the saved games", "dir", l.SaveDir, "err", err)
	}
	out := make([]client.SaveInfo, 0, len(es))
	for _, e := range es {
		si := client.SaveInfo{Path: e.Path, Name: filepath.Base(e.Path), At: e.At, Time: -1}
		if e.Err != nil {
			si.Problem = problem(e.Err, e.Path)
		} else {
			lb := e.Save.Lobby
			si.Name, si.Turn = lb.Name, e.Save.Turn()
			if t, err := match.SavedTime(e.Save.State.Data); err == nil {
				si.Time = t
			}
			si.Players, si.Solo = savePlayers(lb, e.Save.State.Departed)
		}
		out = append(out, si)
	}
	return out
}

// savePlayers names a saved lobby's players and tells whether the save
// has at most one human player still in it.
func savePlayers(lb session.Lobby, gone uint32) ([]string, bool) {
	var names []string
	humans := 0
	for i, s := range lb.Slots {
		if !s.HoldsPlayer() {
			continue
		}
		names = append(names, s.Name)
		if s.Kind == session.SlotHuman && gone&(1<<i) == 0 {
			humans++
		}
	}
	return names, humans <= 1
}

// Replays lists the replay files, newest first.
func (l *Library) Replays() []client.ReplayInfo {
	des, err := os.ReadDir(l.ReplayDir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		l.log().Warn("cannot list the replays", "dir", l.ReplayDir, "err", err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	seen := map[string]replayEntry{}
	var out []client.ReplayInfo
	for _, de := range des {
		fi, err := de.Info()
		if de.IsDir() || !strings.HasSuffix(de.Name(), ReplayExt) || err != nil {
			continue
		}
		path := filepath.Join(l.ReplayDir, de.Name())
		e, ok := l.replays[path]
		if !ok || e.size != fi.Size() || !e.mod.Equal(fi.ModTime()) {
			e = replayEntry{size: fi.Size(), mod: fi.ModTime(), info: readReplayInfo(path, fi.ModTime())}
		}
		seen[path] = e
		out = append(out, e.info)
	}
	l.replays = seen
	slices.SortStableFunc(out, func(a, b client.ReplayInfo) int { return b.At.Compare(a.At) })
	return out
}

// readReplayInfo reads what the list shows of the replay at path.
func readReplayInfo(path string, mod time.Time) client.ReplayInfo {
	ri := client.ReplayInfo{Path: path, Name: filepath.Base(path), At: mod}
	f, err := os.Open(path)
	if err != nil {
		ri.Problem = problem(err, path)
		return ri
	}
	defer f.Close()
	r, err := replay.Read(f)
	if err != nil {
		ri.Problem = problem(err, path)
		return ri
	}
	ri.Name, ri.Turns = r.Lobby.Name, uint64(len(r.Turns))
	ri.Players, _ = savePlayers(r.Lobby, 0)
	// The length is the game clock at the end, which stood still while
	// the game was paused: what the players saw in the top bar.
	ticks, err := match.ReplayTime(r)
	if err != nil {
		ticks = len(r.Turns) // a start state that cannot be read: the turns played
	}
	ri.Length = time.Duration(ticks) * time.Second / game.ClockRate
	return ri
}

// problem is why a file cannot be used, as a sentence without its path
// (the list shows the file).
func problem(err error, path string) string {
	s := strings.TrimPrefix(err.Error(), path+" cannot be loaded: ")
	s = strings.TrimPrefix(s, path+" cannot be played back: ")
	return strings.TrimPrefix(s, path+": ")
}

// OpenReplay starts playing the replay at path (a client.Replayer); the
// caller closes it.
func (l *Library) OpenReplay(path string) (client.Client, error) {
	r, err := playback.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := playback.New(r, playback.Options{Logger: l.log()})
	if err != nil {
		return nil, fmt.Errorf("%s cannot be played back: %w", filepath.Base(path), err)
	}
	return c, nil
}

func (l *Library) log() *slog.Logger {
	if l.Log != nil {
		return l.Log
	}
	return slog.Default()
}
