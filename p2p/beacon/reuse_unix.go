//go:build unix

package beacon

import "syscall"

// reuse lets several processes of one machine (a host and a browser) bind
// Port: each gets its own copy of every broadcast.
func reuse(fd uintptr) error {
	return syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_REUSEADDR, 1)
}
