package checks

import (
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"strings"
	"testing"
)

func TestPreferredEdits(t *testing.T) {
	doc := []byte("a%zz b%yy HTTP://x/%41")
	diags := []Diagnostic{
		{Code: "bad-escape", SuggestedFixes: []SuggestedFix{{Edits: []TextEdit{{Start: 1, End: 2, NewText: "%25"}}}}},
		{Code: "overlapping", SuggestedFixes: []SuggestedFix{{Edits: []TextEdit{{Start: 1, End: 4, NewText: "X"}}}}},
		{Code: "no-fix"},
		{Code: "scheme-case", SuggestedFixes: []SuggestedFix{{Edits: []TextEdit{{Start: 10, End: 14, NewText: "http"}}}}},
		{Code: "bad-escape", SuggestedFixes: []SuggestedFix{{Edits: []TextEdit{{Start: 6, End: 7, NewText: "%25"}}}, {Edits: []TextEdit{{Start: 0, End: 1}}}}},
	}
	edits, n := PreferredEdits(diags)
	if n != 3 || len(edits) != 3 || edits[0].Start != 1 || edits[1].Start != 6 || edits[2].Start != 10 {
		t.Fatalf("PreferredEdits = %v, %d", edits, n)
	}
	if got := string(ApplyEdits(doc, edits)); got != "a%25zz b%25yy http://x/%41" {
		t.Errorf("ApplyEdits = %q", got)
	}
}

// TestPreferredEditsAgainstPairwise compares PreferredEdits with its
// definition, every fix compared with every edit taken before it, on
// random fixes with many overlaps, insertions and shared starts.
func TestPreferredEditsAgainstPairwise(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for round := range 300 {
		size := 1 + rng.Intn(60)
		var diags []Diagnostic
		for range rng.Intn(40) {
			var d Diagnostic
			for range rng.Intn(3) {
				var fix SuggestedFix
				at := 0
				for range 1 + rng.Intn(3) {
					s := at + rng.Intn(8)
					e := s + rng.Intn(4) - rng.Intn(2) // sometimes an insertion
					if e < s {
						e = s
					}
					if round%50 == 0 && rng.Intn(20) == 0 {
						e = s - 1 // malformed: never taken
					}
					fix.Edits = append(fix.Edits, TextEdit{Start: s % size, End: min(e, size), NewText: "x"})
					at = max(e, s)
				}
				d.SuggestedFixes = append(d.SuggestedFixes, fix)
			}
			diags = append(diags, d)
		}
		got, gotN := PreferredEdits(diags)
		want, wantN := pairwisePreferredEdits(diags)
		if gotN != wantN || !slices.Equal(got, want) {
			t.Fatalf("round %d:\n got %v, %d\nwant %v, %d", round, got, gotN, want, wantN)
		}
	}
}

// pairwisePreferredEdits is PreferredEdits as it was defined, in quadratic
// time.
func pairwisePreferredEdits(diags []Diagnostic) ([]TextEdit, int) {
	var edits []TextEdit
	fixes := 0
	for _, d := range diags {
		if len(d.SuggestedFixes) == 0 {
			continue
		}
		ok := true
		for _, a := range d.SuggestedFixes[0].Edits {
			ok = ok && a.Start >= 0 && a.End >= a.Start
			for _, b := range edits {
				if a.Start < b.End && b.Start < a.End || a.Start == b.Start {
					ok = false
				}
			}
		}
		if !ok {
			continue
		}
		edits = append(edits, d.SuggestedFixes[0].Edits...)
		fixes++
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	return edits, fixes
}

func TestApplyEditsSkipsBadEdits(t *testing.T) {
	doc := []byte("abcdef")
	edits := []TextEdit{{1, 2, "X"}, {0, 1, "early"}, {3, 2, "backwards"}, {4, 99, "past"}, {5, 6, "Y"}}
	if got := string(ApplyEdits(doc, edits)); got != "aXcdeY" {
		t.Errorf("ApplyEdits = %q", got)
	}
}

// BenchmarkFixAll: the fix-all of N bad escapes on one line, each finding
// with its own fix, at 1x and 4x (250k and 1M fixes); linear when the 4x
// ns/op is about 4 times the 1x.
func BenchmarkFixAll(b *testing.B) {
	for _, scale := range []int{1, 4} {
		n := 250_000 * scale
		doc := []byte(strings.Repeat("%zz ", n))
		diags := make([]Diagnostic, n)
		for i := range diags {
			diags[i] = Diagnostic{Start: 4 * i, End: 4*i + 3, Code: "bad-escape",
				SuggestedFixes: []SuggestedFix{{Edits: []TextEdit{{Start: 4 * i, End: 4*i + 1, NewText: "%25"}}}}}
		}
		b.Run(fmt.Sprintf("%dx", scale), func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				edits, _ := PreferredEdits(diags)
				ApplyEdits(doc, edits)
			}
		})
	}
}
