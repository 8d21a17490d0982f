package lsp

import (
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

func pos(l, c uint32) protocol.Position { return protocol.Position{Line: l, Character: c} }

func TestMapperRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		text string
		off  int
		pos  protocol.Position
	}{
		{"start", "abc", 0, pos(0, 0)},
		{"end without final newline", "abc", 3, pos(0, 3)},
		{"second line", "ab\ncd", 4, pos(1, 1)},
		{"after final newline", "ab\n", 3, pos(1, 0)},
		{"crlf", "ab\r\ncd", 5, pos(1, 1)},
		{"lone cr", "ab\rcd", 4, pos(1, 1)},
		{"two-byte utf-8 is one unit", "é=x", 3, pos(0, 2)},
		{"three-byte CJK is one unit", "漢字x", 6, pos(0, 2)},
		{"emoji is a surrogate pair", "😀x", 4, pos(0, 2)},
		{"after emoji", "😀x", 5, pos(0, 3)},
		{"mixed", "a😀é\r\n漢😀b", 16, pos(1, 3)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := NewMapper([]byte(tc.text))
			if got := m.OffsetPosition(tc.off); got != tc.pos {
				t.Errorf("OffsetPosition(%d) = %v, want %v", tc.off, got, tc.pos)
			}
			if got := m.PositionOffset(tc.pos); got != tc.off {
				t.Errorf("PositionOffset(%v) = %d, want %d", tc.pos, got, tc.off)
			}
		})
	}
}

func TestMapperClamps(t *testing.T) {
	m := NewMapper([]byte("ab\r\n😀c"))
	tests := []struct {
		name string
		pos  protocol.Position
		want int
	}{
		{"character past the line end", pos(0, 99), 2},
		{"line past the end", pos(7, 0), 9},
		{"inside a surrogate pair", pos(1, 1), 4},
		{"huge values", pos(^uint32(0), ^uint32(0)), 9},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := m.PositionOffset(tc.pos); got != tc.want {
				t.Errorf("PositionOffset(%v) = %d, want %d", tc.pos, got, tc.want)
			}
		})
	}
	if _, err := m.StrictOffset(pos(2, 0)); err == nil {
		t.Error("StrictOffset accepted a line past the end")
	}
	if off, err := m.StrictOffset(pos(1, 50)); err != nil || off != 9 {
		t.Errorf("StrictOffset(1:50) = %d, %v; want the line end", off, err)
	}
	for _, off := range []int{-5, 3, 5, 100} { // negative, inside CRLF, inside the emoji, past the end
		p := m.OffsetPosition(off)
		if p.Line > 1 {
			t.Errorf("OffsetPosition(%d) = %v", off, p)
		}
	}
	if got := m.OffsetPosition(3); got != pos(0, 2) {
		t.Errorf("offset inside CRLF maps to %v, want the end of line 0", got)
	}
}

func FuzzMapper(f *testing.F) {
	f.Add("a😀é\r\n漢\rb\n", 3, uint32(1), uint32(2))
	f.Fuzz(func(t *testing.T, text string, off int, line, char uint32) {
		m := NewMapper([]byte(text))
		p := m.OffsetPosition(off)
		back := m.PositionOffset(p)
		if back < 0 || back > len(text) {
			t.Fatalf("offset %d out of the text", back)
		}
		if back > max(0, min(off, len(text))) {
			t.Fatalf("OffsetPosition(%d) = %v maps back to the later %d", off, p, back)
		}
		// A position built from an offset maps back to the same position.
		if again := m.OffsetPosition(back); again != p {
			t.Fatalf("%v -> %d -> %v", p, back, again)
		}
		o := m.PositionOffset(protocol.Position{Line: line, Character: char})
		if o < 0 || o > len(text) {
			t.Fatalf("PositionOffset out of the text: %d", o)
		}
	})
}

// BenchmarkMapper maps every offset of one line of 100k "%" (the URL of the
// issue that took 13.8 s) to a position and back, at 1x and 4x the size:
// the time per offset must not grow with the line (compare the ns/op of
// the two, which are per document, 4x apart when linear). The non-ASCII
// variant decodes from checkpoints instead of the ASCII shortcut.
func BenchmarkMapper(b *testing.B) {
	for _, tc := range []struct{ name, unit string }{{"ascii", "%"}, {"nonascii", "é%"}} {
		for _, scale := range []int{1, 4} {
			text := []byte("http://x.org/" + strings.Repeat(tc.unit, 100_000*scale) + "\n")
			b.Run(fmt.Sprintf("%s/%dx", tc.name, scale), func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					m := NewMapper(text)
					for off := 0; off <= len(text); off++ {
						m.PositionOffset(m.OffsetPosition(off))
					}
				}
			})
		}
	}
}
