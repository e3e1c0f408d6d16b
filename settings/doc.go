// Package settings is what Hostfall remembers of a player between runs:
// volumes, the window, the player's name and colour, key bindings and
// whether the how-to was seen. They live in one JSON file under the user's
// config directory (datadir.SettingsFile).
//
// Loading never fails the program: a missing file gives the defaults, a
// corrupt one the defaults and a warning naming the file, a field out of
// range its default; unknown fields are ignored, so an older Hostfall reads
// a newer file. Save writes a temporary file and renames it over the old
// one, so a crash mid-write leaves the old settings whole.
//
// The package knows nothing of the window or the game: key bindings are
// command names to key names, which the window's UI (render/ui) checks.
package settings
