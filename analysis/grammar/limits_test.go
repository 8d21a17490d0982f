package grammar

import (
	"strings"
	"testing"
)

// TestLongAmbiguousInputs: past memoLimit, an input that makes the machine
// run out of steps still gets a located error, marked GaveUp, at the byte a
// reader would point at; below it the answer is exact.
func TestLongAmbiguousInputs(t *testing.T) {
	for _, tc := range []struct {
		name, rule, input string
		grammar           string
		gaveUp            bool
	}{
		{"gopher escapes, short", "gopherurl", "gopher://h/" + strings.Repeat("%09", 300) + " ", "rfc1738", false},
		{"gopher escapes, long", "gopherurl", "gopher://h/" + strings.Repeat("%09", 3000) + " ", "rfc1738", true},
		{"xbnf search, long", "httpaddress", "http://h/p?" + strings.Repeat("a+", 3000) + " ", "xbnf", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Builtin(tc.grammar).Rule(tc.rule).Match(tc.input)
			if err == nil {
				t.Fatal("matched")
			}
			if err.Offset != len(tc.input)-1 || err.GaveUp != tc.gaveUp {
				t.Errorf("error at %d (gave up: %v), want %d (gave up: %v): %v", err.Offset, err.GaveUp, len(tc.input)-1, tc.gaveUp, err)
			}
		})
	}
	// A long valid input is accepted on the greedy path, budget or not.
	long := "gopher://h/1" + strings.Repeat("%09", 30000)
	if _, err := Builtin("rfc1738").Rule("gopherurl").Match(long); err != nil {
		t.Errorf("long valid gopher URL: %v", err)
	}
}
