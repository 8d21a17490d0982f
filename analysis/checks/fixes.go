package checks

import (
	"bytes"
	"sort"
)

// PreferredEdits gathers the first (preferred) fix of each diagnostic, in
// order, skipping a fix whose edits overlap one already taken, as a "fix
// all" does. It returns the edits sorted by position and how many fixes
// they come from.
func PreferredEdits(diags []Diagnostic) ([]TextEdit, int) {
	var edits []TextEdit
	fixes := 0
	for _, d := range diags {
		if len(d.SuggestedFixes) == 0 || overlaps(edits, d.SuggestedFixes[0].Edits) {
			continue
		}
		edits = append(edits, d.SuggestedFixes[0].Edits...)
		fixes++
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	return edits, fixes
}

// overlaps reports whether an edit of edits touches an edit of taken; two
// insertions at one offset count as overlapping, since their order would be
// ambiguous.
func overlaps(taken, edits []TextEdit) bool {
	for _, a := range edits {
		for _, b := range taken {
			if a.Start < b.End && b.Start < a.End || a.Start == b.Start {
				return true
			}
		}
	}
	return false
}

// ApplyEdits returns doc with edits applied; the edits must be sorted and
// must not overlap (PreferredEdits's are and do not).
func ApplyEdits(doc []byte, edits []TextEdit) []byte {
	var out bytes.Buffer
	out.Grow(len(doc))
	last := 0
	for _, e := range edits {
		out.Write(doc[last:e.Start])
		out.WriteString(e.NewText)
		last = e.End
	}
	out.Write(doc[last:])
	return out.Bytes()
}
