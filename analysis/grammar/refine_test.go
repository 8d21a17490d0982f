package grammar

import (
	"slices"
	"testing"
)

func TestRefined(t *testing.T) {
	for _, tc := range []struct {
		rule, input string
		offset      int
		expected    []string
	}{
		{"httpurl", "http:foo", 5, []string{`"//"`}},
		{"httpsurl", "https:", 6, []string{`"//"`}},
		{"fileurl", "file:/etc", 6, []string{`"/"`}},
		{"fileurl", "FILE:PEM", 5, []string{`"//"`}},
		{"ftpurl", "ftx://h/", 2, []string{`"p://"`}},
		{"httpurl", "mailto:x", 0, []string{`"http://"`}},                         // nothing of the literal matches
		{"httpurl", "http://h:8x/", 10, []string{"digit", `"/"`, "end of input"}}, // not a literal
	} {
		t.Run(tc.input, func(t *testing.T) {
			_, err := Builtin("rfc1738").Rule(tc.rule).Match(tc.input)
			if err == nil {
				t.Fatal("matched")
			}
			r := err.Refined()
			if r.Offset != tc.offset || !slices.Equal(r.Expected, tc.expected) {
				t.Errorf("refined to offset %d expecting %q, want %d expecting %q (from %v)", r.Offset, r.Expected, tc.offset, tc.expected, err)
			}
			if r.Input != err.Input || r.Rule != err.Rule {
				t.Errorf("refinement changed the input or the production")
			}
		})
	}
	if got := RefinedOffset("ab", 5, []string{`"xyz"`}); got != 5 {
		t.Errorf("RefinedOffset past the end = %d, want 5 unchanged", got)
	}
	if _, ok := LiteralRest("ab", 5, []string{`"xyz"`}); ok {
		t.Error("LiteralRest past the end found a rest")
	}
}
