package xvfb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math/bits"
	"os/exec"
)

// Capture grabs the whole screen of display (`xwd -root`, from x11-apps).
func Capture(display string) (*image.RGBA, error) {
	for try := 1; ; try++ {
		var stderr bytes.Buffer
		cmd := exec.Command("xwd", "-root", "-silent", "-display", display)
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err == nil {
			return DecodeXWD(out)
		}
		// A window that closes while xwd reads the screen fails it with
		// BadWindow, or BadDrawable when xwd was reading that window's
		// pixels (a program ending, a window re-made under Wine): the
		// screen itself is fine, so it is read again, five times at most.
		gone := bytes.Contains(stderr.Bytes(), []byte("BadWindow")) || bytes.Contains(stderr.Bytes(), []byte("BadDrawable"))
		if !gone || try == 5 {
			return nil, fmt.Errorf("xwd -root -display %s: %w: %s", display, err, bytes.TrimSpace(stderr.Bytes()))
		}
	}
}

// xwdHeader is X11's XWDFileHeader: 25 big-endian 32-bit words.
type xwdHeader struct {
	HeaderSize, FileVersion, PixmapFormat, PixmapDepth, PixmapWidth, PixmapHeight  uint32
	XOffset, ByteOrder, BitmapUnit, BitmapBitOrder, BitmapPad, BitsPerPixel        uint32
	BytesPerLine, VisualClass, RedMask, GreenMask, BlueMask, BitsPerRGB            uint32
	ColormapEntries, NColors, WindowWidth, WindowHeight, WindowX, WindowY, BorderW uint32
}

const (
	xwdVersion  = 7
	zPixmap     = 2
	xwdColorLen = 12 // an XWDColor: pixel, r, g, b, flags, pad
	maxSide     = 1 << 14
)

// DecodeXWD reads an X window dump of a TrueColor screen with 24 or 32
// bits a pixel in Z format (what xwd writes for Xvfb's 24-bit screen).
func DecodeXWD(data []byte) (*image.RGBA, error) {
	var h xwdHeader
	if err := binary.Read(bytes.NewReader(data), binary.BigEndian, &h); err != nil {
		return nil, errors.New("xwd: the file is shorter than its header")
	}
	switch {
	case h.FileVersion != xwdVersion:
		return nil, fmt.Errorf("xwd: file version %d, want %d", h.FileVersion, xwdVersion)
	case h.PixmapFormat != zPixmap:
		return nil, fmt.Errorf("xwd: pixmap format %d, want ZPixmap (%d)", h.PixmapFormat, zPixmap)
	case h.BitsPerPixel != 32 && h.BitsPerPixel != 24:
		return nil, fmt.Errorf("xwd: %d bits a pixel; only 24 and 32 are read", h.BitsPerPixel)
	case h.PixmapWidth == 0 || h.PixmapHeight == 0 || h.PixmapWidth > maxSide || h.PixmapHeight > maxSide:
		return nil, fmt.Errorf("xwd: a %d×%d image", h.PixmapWidth, h.PixmapHeight)
	case h.RedMask == 0 || h.GreenMask == 0 || h.BlueMask == 0:
		return nil, errors.New("xwd: not a TrueColor image (a colour mask is 0)")
	}
	w, ht := int(h.PixmapWidth), int(h.PixmapHeight)
	bpp := int(h.BitsPerPixel) / 8
	stride := int(h.BytesPerLine)
	start := uint64(h.HeaderSize) + uint64(h.NColors)*xwdColorLen
	if stride < w*bpp || start+uint64(stride)*uint64(ht) > uint64(len(data)) {
		return nil, fmt.Errorf("xwd: %d bytes hold no %d×%d image of %d-byte lines", len(data), w, ht, stride)
	}
	var order binary.ByteOrder = binary.LittleEndian
	if h.ByteOrder == 1 {
		order = binary.BigEndian
	}
	img := image.NewRGBA(image.Rect(0, 0, w, ht))
	var px [4]byte
	for y := range ht {
		line := data[start+uint64(y*stride):]
		for x := range w {
			copy(px[:], line[x*bpp:x*bpp+bpp])
			v := order.Uint32(px[:])
			if bpp == 3 && order == binary.BigEndian {
				v >>= 8
			}
			img.SetRGBA(x, y, color.RGBA{channel(v, h.RedMask), channel(v, h.GreenMask), channel(v, h.BlueMask), 255})
		}
	}
	return img, nil
}

// channel scales the bits of v under mask to 0..255.
func channel(v, mask uint32) uint8 {
	c := (v & mask) >> bits.TrailingZeros32(mask)
	max := mask >> bits.TrailingZeros32(mask)
	return uint8(uint64(c) * 255 / uint64(max))
}
