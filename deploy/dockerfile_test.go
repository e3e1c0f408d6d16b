package deploy

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// image is what the relay's Dockerfile puts into its final image, as the
// chroot test needs it.
type image struct {
	Entrypoint []string          // exec form
	User       string            // uid:gid
	Volumes    []string          // directories
	Expose     []string          // port/proto
	Copies     map[string]string // destination → source, of the COPYs of one source
}

// readImage reads the final stage of a Dockerfile: the instructions the
// recipe uses, one a line (# comments, no line continuations).
func readImage(path string) (image, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return image{}, err
	}
	im := image{Copies: map[string]string{}}
	for n, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		op, arg, _ := strings.Cut(line, " ")
		args := strings.Fields(arg)
		switch strings.ToUpper(op) {
		case "FROM":
			im = image{Copies: map[string]string{}} // a new stage: only the last one is the image
		case "ENTRYPOINT":
			if err := json.Unmarshal([]byte(arg), &im.Entrypoint); err != nil {
				return im, fmt.Errorf("%s:%d: ENTRYPOINT is not in exec form: %v", path, n+1, err)
			}
		case "USER":
			im.User = arg
		case "VOLUME":
			im.Volumes = append(im.Volumes, args...)
		case "EXPOSE":
			im.Expose = append(im.Expose, args...)
		case "COPY":
			var paths []string
			for _, a := range args {
				if !strings.HasPrefix(a, "--") {
					paths = append(paths, a)
				}
			}
			if len(paths) == 2 { // one source: the final stage copies each file apart
				im.Copies[paths[1]] = paths[0]
			}
		}
	}
	if len(im.Entrypoint) == 0 {
		return im, fmt.Errorf("%s: no ENTRYPOINT in the final stage", path)
	}
	return im, nil
}
