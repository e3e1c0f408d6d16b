package wine

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
)

// templateFormat changes when what makeTemplate puts in a prefix changes
// in a way the key below does not see.
const templateFormat = "1"

var errNoCache = errors.New("no user cache directory")

// cachedTemplate is the template prefix kept in $XDG_CACHE_HOME (or
// ~/.cache)/hostfall/wine/KEY, made there under a lock when missing: test
// binaries running at once (deploy's and p2p/e2e's) wait for one wineboot,
// and every run after the first on a machine makes none. KEY covers what
// a prefix depends on: Wine's version, the shim's source, the account and
// home directory (the prefix links the user's folders to $HOME). Templates
// of other keys (an older Wine) are removed, so the cache holds one
// (about 700 MB, hard-linked into each test's prefixes, not copied).
func cachedTemplate(tools Tools) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil || base == "" {
		return "", errNoCache
	}
	root := filepath.Join(base, "hostfall", "wine")
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", errNoCache
	}
	key, err := templateKey(tools)
	if err != nil {
		return "", err
	}
	unlock, err := lockFile(filepath.Join(root, "lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	dir := filepath.Join(root, key)
	if _, err := os.Stat(filepath.Join(dir, ".complete")); err == nil {
		return dir, nil
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if e.IsDir() {
			os.RemoveAll(filepath.Join(root, e.Name())) // another key's, or a half-made one
		}
	}
	if _, err := makeTemplate(tools, dir); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, ".complete"), nil, 0o644); err != nil {
		return "", err
	}
	return dir, nil
}

// templateKey names a template by what it was made from.
func templateKey(tools Tools) (string, error) {
	version, err := exec.Command(tools.Loader, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", tools.Loader, err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "format %s\nwine %s\nloader %s\n", templateFormat, version, tools.Loader)
	for _, name := range []string{"shim/bcryptprimitives.c", "shim/bcryptprimitives.def"} {
		b, err := shim.ReadFile(name)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %x\n", name, sha256.Sum256(b))
	}
	home, _ := os.UserHomeDir()
	name := "?"
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	fmt.Fprintf(h, "user %s\nhome %s\n", name, home)
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}
