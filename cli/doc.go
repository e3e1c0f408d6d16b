// Package cli is what hostfall's commands share on the command line:
// parsing a command's flags into usage errors (ErrUsage, exit code 2),
// repeatable flags, -v, and the flags of the window, of its network and of
// a network peer, filled into app's options. Package main declares each
// command's own flags with them and dispatches; cli runs nothing.
package cli
