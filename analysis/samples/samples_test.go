package samples

import (
	"bytes"
	"testing"
)

// TestProse: the document has the size asked for, a URL a line, and one
// line in ten with a bad escape.
func TestProse(t *testing.T) {
	for _, size := range []int{0, 1, 100, 1 << 20} {
		if got := len(Prose(size)); got != size {
			t.Errorf("len(Prose(%d)) = %d", size, got)
		}
	}
	doc := Prose(1 << 20)
	lines := bytes.Count(doc, []byte("links to "))
	bad := bytes.Count(doc, []byte("%zz"))
	if lines < 8_000 || bad < lines/10-1 || bad > lines/10+1 {
		t.Errorf("Prose(1 MiB): %d URLs, %d with a bad escape; want about 8.7k, one in ten", lines, bad)
	}
}
