package cli

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"hostfall/logging"
)

// ErrUsage marks a command line the user must correct; it exits with code 2.
var ErrUsage = errors.New("usage")

// Usagef is a usage error: a sentence saying what to correct.
func Usagef(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrUsage}, a...)...)
}

// ParseOperands parses fs from args, leaving the operands after the flags
// in fs.Args(); -h is flag.ErrHelp, a bad flag a usage error.
func ParseOperands(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return Usagef("%v", err)
	}
	return nil
}

// Parse parses a command's flags; anything but flags is a usage error.
func Parse(fs *flag.FlagSet, args []string) error {
	if err := ParseOperands(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return Usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// Given lists the flags given on the command line fs parsed.
func Given(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// AddVerbose registers -v on a command's flags: every command takes it.
func AddVerbose(fs *flag.FlagSet) {
	fs.Var(&logging.Verbose{}, "v", "log details (debug) to stderr; without it only warnings and errors")
}

// Strings is a flag that may be given several times.
type Strings []string

func (l *Strings) String() string     { return strings.Join(*l, ",") }
func (l *Strings) Set(s string) error { *l = append(*l, s); return nil }

// Has reports whether args give --name or --name=…, before parsing: a
// flag that picks which flags the others are.
func Has(args []string, name string) bool {
	for _, a := range args {
		if isFlag(a, name) {
			return true
		}
	}
	return false
}

// Drop removes every --name and --name=… from args.
func Drop(args []string, name string) []string {
	var out []string
	for _, a := range args {
		if !isFlag(a, name) {
			out = append(out, a)
		}
	}
	return out
}

func isFlag(arg, name string) bool {
	t := strings.TrimLeft(arg, "-")
	return t == name || strings.HasPrefix(t, name+"=")
}
