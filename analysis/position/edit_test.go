package position

import (
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
			want := New([]byte(next))
			if !slices.Equal(got.lines, want.lines) {
				t.Fatalf("seed %d step %d: %q -> %q: lines %v, want %v", seed, step, text, next, got.lines, want.lines)
			}
			for off := 0; off <= len(next); off++ {
				if g, w := got.Position(off), want.Position(off); g != w {
					t.Fatalf("seed %d step %d: %q -> %q: Position(%d) = %+v, want %+v", seed, step, text, next, off, g, w)
				}
			}
			for l := range want.LineCount() {
				for col := 0; col <= want.LineEnd(l)-want.LineStart(l)+1; col++ {
					for _, u := range []Unit{UTF16, Rune, Byte} {
						g, _ := got.Offset(l, col, u)
						w, _ := want.Offset(l, col, u)
						if g != w {
							t.Fatalf("seed %d step %d: %q -> %q: Offset(%d, %d, %d) = %d, want %d", seed, step, text, next, l, col, u, g, w)
						}
					}
				}
			}
			for i := 1; i < len(got.cps); i++ {
				if got.cps[i].off <= got.cps[i-1].off || got.cps[i].off-got.cps[i-1].off > checkpointGap+4 {
					t.Fatalf("seed %d step %d: checkpoints %d and %d at %d and %d", seed, step, i-1, i, got.cps[i-1].off, got.cps[i].off)
				}
			}
			text, m = next, got
		}
	}
}
