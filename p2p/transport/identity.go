package transport

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/libp2p/go-libp2p/core/crypto"

	"hostfall/datadir"
)

// IdentityEnv names the environment variable that overrides the identity key
// file, so several peers can run on one machine each as a player of its own.
const IdentityEnv = datadir.IdentityEnv

// DefaultIdentityPath is where the identity key lives: datadir.Identity
// ($HOSTFALL_IDENTITY if set, else identity.key beside the settings).
func DefaultIdentityPath() (string, error) { return datadir.Identity(), nil }

// LoadIdentity reads the Ed25519 key at path, creating it (mode 0600) when
// the file does not exist. The same key is the same peer ID, which is what
// makes a restarted peer the same player.
func LoadIdentity(path string) (crypto.PrivKey, error) {
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		k, err := crypto.UnmarshalPrivateKey(b)
		if err != nil {
			return nil, fmt.Errorf("transport: %s is not a libp2p private key (move it away to start with a new identity): %w", path, err)
		}
		return k, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("transport: read identity: %w", err)
	}
	k, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		return nil, fmt.Errorf("transport: generate identity: %w", err)
	}
	b, err = crypto.MarshalPrivateKey(k)
	if err != nil {
		return nil, fmt.Errorf("transport: encode identity: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("transport: identity directory: %w", err)
	}
	// Write to a temporary file and rename, so two processes that start at
	// once never leave half a key behind; the first rename wins for both.
	tmp, err := os.CreateTemp(filepath.Dir(path), ".identity-*")
	if err != nil {
		return nil, fmt.Errorf("transport: write identity: %w", err)
	}
	defer os.Remove(tmp.Name())
	// The outer err (nil here): a failed Chmod or Write must reach the
	// check below, or a short key file would be linked into place.
	if err = tmp.Chmod(0o600); err == nil {
		_, err = tmp.Write(b)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("transport: write identity: %w", err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return LoadIdentity(path) // another process created it first
		}
		return nil, fmt.Errorf("transport: write identity: %w", err)
	}
	return k, nil
}
