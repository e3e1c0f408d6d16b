// Package logging sets up the process's log/slog logging, one way for
// every command: text lines on stderr, warnings and errors only unless -v
// (Verbose) asks for detail, and go-libp2p's own logs through the same
// writer one level quieter. The game window logs quieter still (Window).
package logging
