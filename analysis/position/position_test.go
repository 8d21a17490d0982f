package position

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPosition(t *testing.T) {
	tests := []struct {
		name string
		text string
		off  int
		want Position
	}{
		{"start", "abc", 0, Position{0, 0, 0, 0}},
		{"end without final newline", "abc", 3, Position{0, 3, 3, 3}},
		{"second line", "ab\ncd", 4, Position{1, 1, 1, 1}},
		{"after final newline", "ab\n", 3, Position{1, 0, 0, 0}},
		{"crlf", "ab\r\ncd", 5, Position{1, 1, 1, 1}},
		{"lone cr", "ab\rcd", 4, Position{1, 1, 1, 1}},
		{"cr only lines", "a\rb\rc\rhttp://x", 9, Position{3, 3, 3, 3}},
		{"cr cr is two breaks", "a\r\rb", 3, Position{2, 0, 0, 0}},
		{"lf cr is two breaks", "a\n\rb", 3, Position{2, 0, 0, 0}},
		{"two-byte utf-8", "é=x", 3, Position{0, 3, 2, 2}},
		{"three-byte CJK", "漢字x", 6, Position{0, 6, 2, 2}},
		{"emoji is a surrogate pair, one code point", "😀x", 4, Position{0, 4, 2, 1}},
		{"after emoji", "😀x", 5, Position{0, 5, 3, 2}},
		{"mixed", "a😀é\r\n漢😀b", 16, Position{1, 7, 3, 2}},
		{"invalid byte counts one", "a\xffb", 2, Position{0, 2, 2, 2}},
		{"inside a character: its start", "a😀b", 3, Position{0, 1, 1, 1}},
		{"inside crlf: the line's end", "ab\r\ncd", 3, Position{0, 2, 2, 2}},
		{"negative", "ab", -4, Position{0, 0, 0, 0}},
		{"past the end", "ab\ncd", 99, Position{1, 2, 2, 2}},
		{"empty", "", 0, Position{0, 0, 0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := New([]byte(tc.text))
			if got := m.Position(tc.off); got != tc.want {
				t.Errorf("Position(%d) = %+v, want %+v", tc.off, got, tc.want)
			}
			if got := naivePosition(tc.text, tc.off); got != tc.want {
				t.Errorf("the reference says %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestOffset(t *testing.T) {
	m := New([]byte("ab\r\n😀c\ré"))
	tests := []struct {
		name      string
		line, col int
		unit      Unit
		want      int
		ok        bool
	}{
		{"utf-16 past the line end", 0, 99, UTF16, 2, true},
		{"utf-16 inside a surrogate pair", 1, 1, UTF16, 4, true},
		{"utf-16 after the pair", 1, 2, UTF16, 8, true},
		{"rune after the emoji", 1, 1, Rune, 8, true},
		{"byte inside the emoji", 1, 2, Byte, 4, true},
		{"byte after the emoji", 1, 4, Byte, 8, true},
		{"after a lone cr", 2, 1, UTF16, 12, true},
		{"negative column", 2, -3, UTF16, 10, true},
		{"line past the end", 3, 0, UTF16, 12, false},
		{"negative line", -1, 0, UTF16, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := m.Offset(tc.line, tc.col, tc.unit)
			if got != tc.want || ok != tc.ok {
				t.Errorf("Offset(%d, %d, %d) = %d, %v; want %d, %v", tc.line, tc.col, tc.unit, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestLines(t *testing.T) {
	m := New([]byte("a\r\nb\rc\n\nd"))
	if got := m.LineCount(); got != 5 {
		t.Errorf("LineCount = %d, want 5", got)
	}
	for l, want := range [][2]int{{0, 1}, {3, 4}, {5, 6}, {7, 7}, {8, 9}} {
		if s, e := m.LineStart(l), m.LineEnd(l); s != want[0] || e != want[1] {
			t.Errorf("line %d: %d-%d, want %d-%d", l, s, e, want[0], want[1])
		}
	}
	if New(nil).LineCount() != 1 {
		t.Error("an empty text has one line")
	}
}

// TestAgainstReference compares every offset and column of random texts,
// with lines much longer than the checkpoint gap, with the definition:
// decode each line from its start.
func TestAgainstReference(t *testing.T) {
	pieces := []string{"a", "b", " ", "é", "漢", "😀", "\xff", "\xe6\x97", "\n", "\r", "\r\n"}
	rng := rand.New(rand.NewSource(1))
	for round := range 40 {
		var b strings.Builder
		n := rng.Intn(4 * checkpointGap)
		breaks := round%4 == 0 // some texts are one long line
		for b.Len() < n {
			p := pieces[rng.Intn(len(pieces))]
			if !breaks && strings.ContainsAny(p, "\r\n") {
				continue
			}
			if round%3 == 0 && rng.Intn(3) > 0 {
				p = "x" // mostly ASCII: the fast path
			}
			b.WriteString(p)
		}
		text := b.String()
		m := New([]byte(text))
		for off := -1; off <= len(text)+1; off++ {
			if got, want := m.Position(off), naivePosition(text, off); got != want {
				t.Fatalf("round %d: Position(%d) = %+v, want %+v", round, off, got, want)
			}
		}
		for l := 0; l < m.LineCount(); l++ {
			length := m.LineEnd(l) - m.LineStart(l)
			for col := 0; col <= length+2; col += 1 + rng.Intn(5) {
				for _, u := range []Unit{UTF16, Rune, Byte} {
					got, _ := m.Offset(l, col, u)
					if want := naiveOffset(text, l, col, u); got != want {
						t.Fatalf("round %d: Offset(%d, %d, %d) = %d, want %d", round, l, col, u, got, want)
					}
				}
			}
		}
	}
}

// naiveLines splits text into [start, contentEnd) spans, by definition.
func naiveLines(text string) [][2]int {
	var spans [][2]int
	start := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			spans = append(spans, [2]int{start, i})
			start = i + 1
		case '\r':
			spans = append(spans, [2]int{start, i})
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	return append(spans, [2]int{start, len(text)})
}

func naivePosition(text string, off int) Position {
	off = max(0, min(off, len(text)))
	lines := naiveLines(text)
	l := 0
	for l+1 < len(lines) && lines[l+1][0] <= off {
		l++
	}
	p := Position{Line: l}
	end := min(off, lines[l][1])
	for i := lines[l][0]; i < end; {
		r, size := utf8.DecodeRuneInString(text[i:])
		if i+size > end {
			break
		}
		p.Byte += size
		p.Rune++
		p.UTF16++
		if r >= 0x10000 {
			p.UTF16++
		}
		i += size
	}
	return p
}

func naiveOffset(text string, l, col int, u Unit) int {
	lines := naiveLines(text)
	if l >= len(lines) {
		return len(text)
	}
	i, c := lines[l][0], 0
	for i < lines[l][1] {
		r, size := utf8.DecodeRuneInString(text[i:])
		w := 1
		switch {
		case u == Byte:
			w = size
		case u == UTF16 && r >= 0x10000:
			w = 2
		}
		if c+w > col {
			break
		}
		c += w
		i += size
	}
	return i
}

func FuzzMapper(f *testing.F) {
	f.Add("a😀é\r\n漢\rb\n", 3, 1, 2)
	f.Add(strings.Repeat("é", checkpointGap/2+8)+"\r"+strings.Repeat("%", checkpointGap+8), 1100, 1, 1030)
	f.Fuzz(func(t *testing.T, text string, off, line, col int) {
		m := New([]byte(text))
		p := m.Position(off)
		if want := naivePosition(text, off); p != want {
			t.Fatalf("Position(%d) = %+v, want %+v", off, p, want)
		}
		for _, u := range []Unit{UTF16, Rune, Byte} {
			o, _ := m.Offset(line, col, u)
			if o < 0 || o > len(text) {
				t.Fatalf("Offset out of the text: %d", o)
			}
			if line >= 0 && col >= 0 && col < 1<<20 {
				if want := naiveOffset(text, line, col, u); o != want {
					t.Fatalf("Offset(%d, %d, %d) = %d, want %d", line, col, u, o, want)
				}
			}
		}
		// A position maps back to the offset it came from, or to the start
		// of the character (or line break) the offset was inside.
		back, ok := m.Offset(p.Line, p.UTF16, UTF16)
		if !ok || back > max(0, min(off, len(text))) {
			t.Fatalf("Position(%d) = %+v maps back to %d", off, p, back)
		}
		if again := m.Position(back); again != p {
			t.Fatalf("%+v -> %d -> %+v", p, back, again)
		}
	})
}
