// Package datadir says where Hostfall keeps what it writes for the player:
// replays, desync reports, saved games and the record of the game being
// played (to rejoin it after a restart), under one data directory; and the
// player's settings, under the user's config directory.
package datadir
