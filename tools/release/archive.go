package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// entry is one file of an archive.
type entry struct {
	name string // slash-separated, under the archive's top directory
	data []byte
	exec bool
}

func runArchive(args []string) error {
	fl := flag.NewFlagSet("archive", flag.ContinueOnError)
	out := fl.String("o", "", "the archive to write: .zip or .tar.gz")
	mtime := fl.Int64("mtime", 0, "every entry's time, in seconds since 1970 (the commit's time)")
	dir := fl.String("C", ".", "the directory that holds NAME")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *out == "" || fl.NArg() != 1 {
		return errors.New("archive needs -o OUT and one NAME")
	}
	entries, err := readTree(*dir, fl.Arg(0))
	if err != nil {
		return err
	}
	var b bytes.Buffer
	at := time.Unix(*mtime, 0).UTC()
	switch {
	case strings.HasSuffix(*out, ".zip"):
		err = writeZip(&b, entries, at)
	case strings.HasSuffix(*out, ".tar.gz"):
		err = writeTarGz(&b, entries, at)
	default:
		err = fmt.Errorf("%s: the archive's name must end in .zip or .tar.gz", *out)
	}
	if err != nil {
		return err
	}
	return os.WriteFile(*out, b.Bytes(), 0o644)
}

// readTree reads the regular files under dir/name, sorted by name; a file
// any of whose execute bits is set is executable in the archive.
func readTree(dir, name string) ([]entry, error) {
	var entries []entry
	root := filepath.Join(dir, name)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is not a regular file", p)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		entries = append(entries, entry{filepath.ToSlash(rel), data, info.Mode()&0o111 != 0})
		return nil
	})
	slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	return entries, err
}

func (e entry) mode() fs.FileMode {
	if e.exec {
		return 0o755
	}
	return 0o644
}

// dirs are the directories above the entries, parents first, each once.
func dirs(entries []entry) []string {
	var ds []string
	for _, e := range entries {
		for d := path.Dir(e.name); d != "."; d = path.Dir(d) {
			if !slices.Contains(ds, d+"/") {
				ds = append(ds, d+"/")
			}
		}
	}
	slices.Sort(ds)
	return ds
}

func writeZip(w io.Writer, entries []entry, at time.Time) error {
	z := zip.NewWriter(w)
	z.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestCompression)
	})
	for _, d := range dirs(entries) {
		h := &zip.FileHeader{Name: d, Modified: at}
		h.SetMode(fs.ModeDir | 0o755)
		if _, err := z.CreateHeader(h); err != nil {
			return err
		}
	}
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: at}
		h.SetMode(e.mode())
		f, err := z.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := f.Write(e.data); err != nil {
			return err
		}
	}
	return z.Close()
}

func writeTarGz(w io.Writer, entries []entry, at time.Time) error {
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression) // no name, no time in its header
	if err != nil {
		return err
	}
	t := tar.NewWriter(gz)
	for _, d := range dirs(entries) {
		if err := t.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d, Mode: 0o755, ModTime: at, Format: tar.FormatPAX}); err != nil {
			return err
		}
	}
	for _, e := range entries {
		h := &tar.Header{Typeflag: tar.TypeReg, Name: e.name, Mode: int64(e.mode()), Size: int64(len(e.data)), ModTime: at, Format: tar.FormatPAX}
		if err := t.WriteHeader(h); err != nil {
			return err
		}
		if _, err := t.Write(e.data); err != nil {
			return err
		}
	}
	if err := t.Close(); err != nil {
		return err
	}
	return gz.Close()
}
