package position

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestEditMatchesNew: a Mapper edited (Edit) answers every position and
// offset as the Mapper built afresh for the edited text, over random texts
// and edits with every line ending, multi-byte characters, surrogate pairs
// and lines longer than checkpointGap.
func TestEditMatchesNew(t *testing.T) {
	pieces := []string{"a", "bc", "\n", "\r", "\r\n", "é", "😀", "\xff", strings.Repeat("x", 300), strings.Repeat("é", 150), " "}
	random := func(r *rand.Rand, n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	for seed := range uint64(150) {
		r := rand.New(rand.NewPCG(seed, 5))
		text := random(r, r.IntN(40))
		m := New([]byte(text))
		for step := range 10 {
			start := r.IntN(len(text) + 1)
			oldEnd := min(len(text), start+r.IntN(20))
			ins := random(r, r.IntN(4))
			next := text[:start] + ins + text[oldEnd:]
			got := m.Edit([]byte(next), start, oldEnd, start+len(ins))
			sameMapper(t, fmt.Sprintf("seed %d step %d", seed, step), text, next, got, New([]byte(next)))
			text, m = next, got
		}
	}
}

// sameMapper fails t unless got, a Mapper of next made by an edit of
// text, answers every position and offset as want, built afresh, does.
func sameMapper(t *testing.T, name, text, next string, got, want *Mapper) {
	t.Helper()
	if !slices.Equal(got.lines, want.lines) {
		t.Fatalf("%s: %q -> %q: lines %v, want %v", name, text, next, got.lines, want.lines)
	}
	for off := 0; off <= len(next); off++ {
		if g, w := got.Position(off), want.Position(off); g != w {
			t.Fatalf("%s: %q -> %q: Position(%d) = %+v, want %+v", name, text, next, off, g, w)
		}
	}
	for l := range want.LineCount() {
		for col := 0; col <= want.LineEnd(l)-want.LineStart(l)+1; col++ {
			for _, u := range []Unit{UTF16, Rune, Byte} {
				g, _ := got.Offset(l, col, u)
				w, _ := want.Offset(l, col, u)
				if g != w {
					t.Fatalf("%s: %q -> %q: Offset(%d, %d, %d) = %d, want %d", name, text, next, l, col, u, g, w)
				}
			}
		}
	}
	for i := 1; i < len(got.cps); i++ {
		if got.cps[i].off <= got.cps[i-1].off || got.cps[i].off-got.cps[i-1].off > checkpointGap+4 {
			t.Fatalf("%s: checkpoints %d and %d at %d and %d", name, i-1, i, got.cps[i-1].off, got.cps[i].off)
		}
	}
}

// TestEditInLineMatchesNew: an edit inside a long line (editInLine, which
// reads only the bytes between the checkpoints around it) answers as the
// Mapper built afresh, with multi-byte characters, invalid bytes and
// halves of characters typed next to the change, and a "\r" before it.
func TestEditInLineMatchesNew(t *testing.T) {
	pieces := []string{"a", "bc", " ", "é", "😀", "\xff", "\xe2", "\x82", "\xac", "\xf0\x9f", strings.Repeat("x", 100), strings.Repeat("é", 40)}
	random := func(r *rand.Rand, n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	fast := 0
	for seed := range uint64(60) {
		r := rand.New(rand.NewPCG(seed, 7))
		text := random(r, 20+r.IntN(60)) + []string{"\n", "\r\n", "\r"}[r.IntN(3)] + random(r, r.IntN(30))
		m := New([]byte(text))
		for step := range 10 {
			start := r.IntN(len(text) + 1)
			oldEnd := min(len(text), start+r.IntN(6))
			ins := random(r, r.IntN(3))
			if r.IntN(10) == 0 {
				ins = "\n" // not in line: Edit reads the line again
			}
			next := text[:start] + ins + text[oldEnd:]
			if m.editInLine([]byte(next), start, oldEnd, start+len(ins)) != nil {
				fast++
			}
			got := m.Edit([]byte(next), start, oldEnd, start+len(ins))
			sameMapper(t, fmt.Sprintf("seed %d step %d", seed, step), text, next, got, New([]byte(next)))
			text, m = next, got
		}
	}
	if fast < 150 {
		t.Fatalf("editInLine answered %d edits of 600: the test does not test it", fast)
	}
}

// FuzzEdit: an edited Mapper answers as the one built afresh, for any text
// and any edit of it (editInLine's shortcut for edits inside a line, Edit's
// re-read of the lines otherwise). A text is repeated to lines longer than
// checkpointGap, so that the checkpoints around an in-line edit are kept.
func FuzzEdit(f *testing.F) {
	f.Add("a😀é\xff b", 40, 300, 3, "é")
	f.Add("x\xe2\x82", 90, 133, 2, "\xac")
	f.Add("ab\r", 2, 250, 0, "\n")
	f.Add("😀", 64, 10, 4, "")
	f.Fuzz(func(t *testing.T, unit string, repeat, at, del int, insert string) {
		if repeat < 0 || at < 0 || del < 0 || len(unit)*min(repeat, 1<<12) > 1<<12 {
			return
		}
		text := strings.Repeat(unit, repeat)
		start := min(at, len(text))
		oldEnd := min(len(text), start+del)
		next := text[:start] + insert + text[oldEnd:]
		got := New([]byte(text)).Edit([]byte(next), start, oldEnd, start+len(insert))
		sameMapper(t, "edit", text, next, got, New([]byte(next)))
	})
}
