package xvfb

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
)

// WritePNG saves a screenshot as a PNG file, making its directory first:
// how the screenshot tests keep what they checked for a person to look at.
func WritePNG(path string, img image.Image) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
