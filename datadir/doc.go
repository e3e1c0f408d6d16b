// Package datadir says where Hostfall keeps what it writes for the player:
// replays, desync reports and saved games, under one data directory.
package datadir
