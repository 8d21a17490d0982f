package lsp

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/zap"
)

// TestContinuedReuse: whether a string's URL is Continued depends on the
// bytes after the literal (" + host"), past the candidate's end: an edit
// there must not keep the diagnostics of the candidate as it was.
func TestContinuedReuse(t *testing.T) {
	s := newServer(nopClient{}, Options{Logger: zap.NewNop(), Debounce: time.Hour})
	for _, tt := range []struct{ name, a, b string }{
		{"concatenation added", "const u = \"http://user@\";\n", "const u = \"http://user@\" + host;\n"},
		{"concatenation removed", "const u = \"http://user@\" + host;\n", "const u = \"http://user@\";\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			u := "file:///tmp/continued.js"
			base := analyzeFrom(t, s, u, "javascript", 1, []byte(tt.a), nil)
			inc := analyzeFrom(t, s, u, "javascript", 2, []byte(tt.b), base)
			full := analyzeFrom(t, s, u, "javascript", 2, []byte(tt.b), nil)
			if len(full.findings) == len(base.findings) {
				t.Fatalf("the concatenation changes no finding (%d): the test tests nothing", len(full.findings))
			}
			if d := cmp.Diff(published(t, s, full), published(t, s, inc)); d != "" {
				t.Errorf("(-full +edit):\n%s", d)
			}
		})
	}
}
