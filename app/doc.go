// Package app runs what a hostfall command asked for, once package main has
// read the command line: the network peer of host and join (it creates,
// resumes or joins a session and plays it headless or in the window,
// printing the contract's status lines), and the window on the lobby
// browser or a skirmish, with sound. It puts client, render, sound and
// status together with the player's directories and loggers; it reads no
// flags and decides no exit codes.
package app
