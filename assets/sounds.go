// Package assets embeds the game's files that are made by scripts in this
// folder, so the binary needs nothing beside it.
package assets

import "embed"

// Sounds holds sounds/*.wav, made by gen-sounds.sh: mono, 22,050 Hz, 16-bit.
// sound.RegisterAssets turns them into named sounds; sound/doc.go lists the names.
//
//go:embed sounds/*.wav
var Sounds embed.FS
