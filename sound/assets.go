package sound

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"hostfall/assets"
)

// Suffixes of the two groups that make a unit's selection sound: NAME.selected
// and NAME.annoyed become NAME.select.
const (
	firstGroupSuffix  = ".selected"
	secondGroupSuffix = ".annoyed"
	twoGroupsSuffix   = ".select"
)

// Embedded makes a bank at DefaultRate holding the game's embedded sounds and
// the music and ambience package compose writes, and returns it with their
// names.
func Embedded() (*Bank, Names, error) {
	b := NewBank(DefaultRate)
	names, err := RegisterAssets(b, assets.Sounds)
	if err != nil {
		return nil, nil, err
	}
	if err := registerMusic(b, names); err != nil {
		return nil, nil, err
	}
	return b, names, nil
}

// RegisterAssets registers every sounds/*.wav of fsys in b and returns the table
// of the names it registered. NAME.wav is a simple sound; NAME.1.wav, NAME.2.wav …
// form the group NAME, in that order (the order annoyed lines are said in); and
// for every pair of groups NAME.selected and NAME.annoyed, the two-groups sound
// NAME.select is registered too. Each sound's volume category is
// CategoryOf its name.
func RegisterAssets(b *Bank, fsys fs.FS) (Names, error) {
	files, err := fs.Glob(fsys, "sounds/*.wav")
	if err != nil {
		return nil, err
	}
	samples, err := decodeAll(b, fsys, files)
	if err != nil {
		return nil, err
	}
	groups := map[string][]member{}
	for i, f := range files {
		name, index := splitAssetName(strings.TrimSuffix(path.Base(f), ".wav"))
		groups[name] = append(groups[name], member{index: index, sample: samples[i]})
	}
	names := Names{}
	for _, name := range sortedKeys(groups) {
		ms := groups[name]
		slices.SortFunc(ms, func(x, y member) int { return x.index - y.index })
		group := make([]*Sample, len(ms))
		for i, m := range ms {
			group[i] = m.sample
		}
		if names[name], err = b.Add(name, group...); err != nil {
			return nil, err
		}
	}
	for _, name := range sortedKeys(groups) {
		unit, ok := strings.CutSuffix(name, firstGroupSuffix)
		if !ok {
			continue
		}
		second, ok := names[unit+secondGroupSuffix]
		if !ok {
			return nil, fmt.Errorf("sound %q has no %q group to make %q", name, unit+secondGroupSuffix, unit+twoGroupsSuffix)
		}
		id, err := b.AddTwoGroups(unit+twoGroupsSuffix, names[name], second)
		if err != nil {
			return nil, err
		}
		names[unit+twoGroupsSuffix] = id
	}
	for name, id := range names {
		if err := b.SetCategory(id, CategoryOf(name)); err != nil {
			return nil, err
		}
	}
	return names, nil
}

// decodeAll decodes files on every core: resampling is most of the start-up time.
func decodeAll(b *Bank, fsys fs.FS, files []string) ([]*Sample, error) {
	samples := make([]*Sample, len(files))
	errs := make([]error, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				samples[i], errs[i] = decodeFile(b, fsys, files[i])
			}
		})
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	return samples, errors.Join(errs...)
}

type member struct {
	index  int
	sample *Sample
}

// splitAssetName splits "worker.annoyed.2" into ("worker.annoyed", 2); a name
// without a numeric last part has index 0.
func splitAssetName(base string) (string, int) {
	i := strings.LastIndexByte(base, '.')
	if i < 0 {
		return base, 0
	}
	n, err := strconv.Atoi(base[i+1:])
	if err != nil || n < 1 {
		return base, 0
	}
	return base[:i], n
}

func decodeFile(b *Bank, fsys fs.FS, file string) (*Sample, error) {
	f, err := fsys.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return b.DecodeWAV(path.Base(file), f)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
