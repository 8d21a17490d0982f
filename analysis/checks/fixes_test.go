package checks

import "testing"

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
