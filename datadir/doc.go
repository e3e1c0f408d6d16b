// Package datadir says where Hostfall keeps what it writes for the player:
// replays, desync reports, saved games and the record of the game being
// played (to rejoin it after a restart), under one data directory; and the
// player's settings, identity key and relay key, under the user's config
// directory. Every path the program writes for the player comes from here;
// on Windows they follow its conventions (%LOCALAPPDATA%\Hostfall for data,
// %APPDATA%\Hostfall for settings and identity).
package datadir
