//go:build !windows

package beacon

import (
	"errors"
	"syscall"
)

func reuse(fd uintptr) error {
	return syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_REUSEADDR, 1)
}

// useRaw: the net package's UDP sockets work everywhere but on Windows.
func useRaw(error) bool { return false }

func openRaw(int, bool) (conn, error) { return nil, errors.New("beacon: no raw sockets here") }
