package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// An archive of the same files has the same bytes whenever it is made:
// entries in name order under their directory, dated at the given time,
// executables 0755 and the rest 0644, whatever the files' own times and
// modes.
func TestArchivesAreReproducible(t *testing.T) {
	at := time.Unix(1764230400, 0).UTC()
	for _, ext := range []string{"zip", "tar.gz"} {
		t.Run(ext, func(t *testing.T) {
			var outs [][]byte
			for i := range 2 {
				dir := t.TempDir()
				files := map[string]os.FileMode{"pkg/b.txt": 0o600, "pkg/a": 0o700, "pkg/sub/c.txt": 0o664}
				for name, mode := range files {
					p := filepath.Join(dir, name)
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, []byte(name), mode); err != nil {
						t.Fatal(err)
					}
					os.Chtimes(p, time.Now(), time.Now().Add(time.Duration(i)*time.Hour))
				}
				out := filepath.Join(dir, "out."+ext)
				if err := runArchive([]string{"-o", out, "-mtime", "1764230400", "-C", dir, "pkg"}); err != nil {
					t.Fatal(err)
				}
				b, err := os.ReadFile(out)
				if err != nil {
					t.Fatal(err)
				}
				outs = append(outs, b)
			}
			if !bytes.Equal(outs[0], outs[1]) {
				t.Fatal("two archives of the same files differ")
			}
			want := []string{"pkg/ 755", "pkg/sub/ 755", "pkg/a 755", "pkg/b.txt 644", "pkg/sub/c.txt 644"}
			if got := listing(t, ext, outs[0], at); !slices.Equal(got, want) {
				t.Errorf("entries %q, want %q", got, want)
			}
		})
	}
}

// listing reads an archive's entries as "NAME MODE", checking each one's time.
func listing(t *testing.T, ext string, b []byte, at time.Time) []string {
	t.Helper()
	var got []string
	add := func(name string, mode os.FileMode, mt time.Time) {
		if !mt.Equal(at) {
			t.Errorf("%s dated %v, want %v", name, mt, at)
		}
		got = append(got, fmt.Sprintf("%s %o", name, mode.Perm()))
	}
	if ext == "zip" {
		z, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range z.File {
			add(f.Name, f.Mode(), f.Modified)
		}
		return got
	}
	gz, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Gname != "" {
			t.Errorf("%s owned by %d:%d %q:%q, want nobody in particular", h.Name, h.Uid, h.Gid, h.Uname, h.Gname)
		}
		add(h.Name, h.FileInfo().Mode(), h.ModTime)
	}
}
