package xvfb

import (
	"bytes"
	"encoding/binary"
	"image/color"
	"testing"
)

// encodeXWD writes a w×h dump whose pixel (x, y) is px(x, y), 32 bits a
// pixel in byte order order (0 LSB first, 1 MSB first), after a window name
// and ncolors colormap entries, as xwd does.
func encodeXWD(w, h int, order uint32, ncolors int, px func(x, y int) color.RGBA) []byte {
	name := []byte("xwdump\x00")
	hdr := xwdHeader{HeaderSize: uint32(100 + len(name)), FileVersion: xwdVersion, PixmapFormat: zPixmap, PixmapDepth: 24,
		PixmapWidth: uint32(w), PixmapHeight: uint32(h), ByteOrder: order, BitmapUnit: 32, BitmapPad: 32, BitsPerPixel: 32,
		BytesPerLine: uint32(w*4 + 8), VisualClass: 4, RedMask: 0xff0000, GreenMask: 0xff00, BlueMask: 0xff, BitsPerRGB: 8,
		ColormapEntries: 256, NColors: uint32(ncolors), WindowWidth: uint32(w), WindowHeight: uint32(h)}
	var b bytes.Buffer
	_ = binary.Write(&b, binary.BigEndian, hdr)
	b.Write(name)
	b.Write(make([]byte, ncolors*xwdColorLen))
	var bo binary.AppendByteOrder = binary.LittleEndian
	if order == 1 {
		bo = binary.BigEndian
	}
	for y := range h {
		for x := range w {
			c := px(x, y)
			b.Write(bo.AppendUint32(nil, uint32(c.R)<<16|uint32(c.G)<<8|uint32(c.B)))
		}
		b.Write(make([]byte, 8)) // line padding
	}
	return b.Bytes()
}

func gradient(x, y int) color.RGBA { return color.RGBA{uint8(x * 7), uint8(y * 11), uint8(x ^ y), 255} }

func TestDecodeXWD(t *testing.T) {
	for _, tt := range []struct {
		name    string
		order   uint32
		ncolors int
	}{{"LSB first", 0, 256}, {"MSB first", 1, 0}} {
		t.Run(tt.name, func(t *testing.T) {
			img, err := DecodeXWD(encodeXWD(13, 9, tt.order, tt.ncolors, gradient))
			if err != nil {
				t.Fatal(err)
			}
			if b := img.Bounds(); b.Dx() != 13 || b.Dy() != 9 {
				t.Fatalf("bounds %v", b)
			}
			for y := range 9 {
				for x := range 13 {
					if got, want := img.RGBAAt(x, y), gradient(x, y); got != want {
						t.Fatalf("(%d,%d) = %v, want %v", x, y, got, want)
					}
				}
			}
		})
	}
}

func TestDecodeXWDRefuses(t *testing.T) {
	good := encodeXWD(4, 4, 0, 0, gradient)
	bad16 := bytes.Clone(good)
	binary.BigEndian.PutUint32(bad16[11*4:], 16)
	xy := bytes.Clone(good)
	binary.BigEndian.PutUint32(xy[2*4:], 1)
	for _, tt := range []struct {
		name string
		data []byte
	}{{"empty", nil}, {"header only", good[:100]}, {"cut image", good[:len(good)-5]}, {"16 bits", bad16}, {"XYPixmap", xy}} {
		if _, err := DecodeXWD(tt.data); err == nil {
			t.Errorf("%s: decoded", tt.name)
		}
	}
}

func FuzzDecodeXWD(f *testing.F) {
	f.Add(encodeXWD(3, 2, 0, 1, gradient))
	f.Add(encodeXWD(2, 3, 1, 0, gradient))
	f.Fuzz(func(t *testing.T, data []byte) {
		img, err := DecodeXWD(data)
		if err == nil && img.Bounds().Empty() {
			t.Fatal("an empty image without an error")
		}
	})
}

// The real thing: Xvfb starts, xwd captures its screen at its size.
func TestStartAndCapture(t *testing.T) {
	img, err := Capture(startDisplay(t))
	if err != nil {
		t.Skipf("no capture (is x11-apps installed?): %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1024 || b.Dy() != 768 {
		t.Errorf("captured %v, want 1024×768", b)
	}
}
