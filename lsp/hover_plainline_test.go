package lsp

import (
	"strings"
	"testing"

	"github.com/urlls/urlls/analysis/scan"
)

// TestHoverPlainLineUnbuilt: a hover right after a keystroke inside a long
// line of URLs in Markdown rescans the runs around the edit from the
// scratch copy of the bytes near it, without building the text: the
// line's first byte, which the copy does not hold, is not read unless the
// edit is there.
func TestHoverPlainLineUnbuilt(t *testing.T) {
	line := "a " + strings.Repeat("http://x.org/a%zz ", 40000)
	text := "# T\n\n" + line + "\n\nafter\n"
	_, o := scan.ScanOutline([]byte(text), "markdown")
	at := len(text) / 2
	next := text[:at] + "q" + text[at:]
	ch := diffTexts([]byte(text), []byte(next))
	dt := editedText(builtText([]byte(text)), ch.start, ch.oldEnd, next[ch.start:ch.newEnd])
	want, ok := o.Rescan([]byte(next), ch.start, ch.oldEnd, ch.newEnd)
	if !ok {
		t.Fatal("Rescan declined")
	}
	got, unbuilt, ok := rescanWindow(o, dt, ch, &scratchText{})
	if !ok || !unbuilt {
		t.Fatalf("rescanWindow: ok %v, unbuilt %v: the hover built the %d-byte text for a one-byte edit", ok, unbuilt, len(next))
	}
	if got.Start != want.Start || got.End != want.End || len(got.Candidates) != len(want.Candidates) {
		t.Errorf("window %d..%d with %d candidates, want %d..%d with %d", got.Start, got.End, len(got.Candidates), want.Start, want.End, len(want.Candidates))
	}
}
