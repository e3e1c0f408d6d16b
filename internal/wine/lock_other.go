//go:build !unix

package wine

// lockFile: Wine runs on Unix; elsewhere there is no cached template.
func lockFile(string) (func(), error) { return nil, errNoCache }
