//go:build !cgo

// The server build: without cgo there is no window and no speaker, and what
// needs them answers ErrServerBuild (window.go is the full build's).

package app

import (
	"context"

	"hostfall/client"
)

// CheckWindow is ErrServerBuild: this build opens no window.
func CheckWindow() error { return ErrServerBuild }

// windowPlayer is never asked: CheckWindow refuses first.
func windowPlayer(Window) string { return "" }

// OpenWindow is ErrServerBuild: this build opens no window.
func OpenWindow(context.Context, client.Client, Window) error { return ErrServerBuild }

// Browse is ErrServerBuild: the lobby browser is a window.
func Browse(context.Context, Window, Network) error { return ErrServerBuild }

// Play is ErrServerBuild: a skirmish is played in the window.
func Play(context.Context, Window, Network, Skirmish) error { return ErrServerBuild }

// Sounds is ErrServerBuild: the sound package plays through the speaker.
func Sounds(context.Context, SoundDemo) error { return ErrServerBuild }
