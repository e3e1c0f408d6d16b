// Package version is what a build of hostfall says it is: the release
// version and commit that the build recipe (scripts/build.sh, make release)
// stamps with -ldflags -X. A plain `go build` leaves them unset: Version
// is then "dev" and Commit the VCS revision Go recorded, if any.
package version

import "runtime/debug"

// Set by scripts/build.sh: -X hostfall/version.Version=… -X hostfall/version.Commit=….
var (
	Version = ""
	Commit  = ""
)

// String is the release version, "dev" for a build outside the recipe.
func String() string {
	if Version == "" {
		return "dev"
	}
	return Version
}

// Revision is the commit the binary was built from ("unknown" when
// neither the recipe nor Go recorded one), with "-dirty" when Go saw
// uncommitted changes.
func Revision() string {
	if Commit != "" {
		return Commit
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "unknown"
	}
	if dirty {
		rev += "-dirty"
	}
	return rev
}
