package checks

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/urlls/urlls/analysis/parser"
)

// TestBracketFixesRandom is TestRealworldFixes on random URLs full of
// brackets (bracketFix) beside placeholders, escapes and the parts of
// every scheme, under each grammar: every edit stays inside its finding,
// and the fixed text shows none of the fixed findings and no error or
// warning that was not there before. It fails if no bracket fix is made.
func TestBracketFixesRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	prefixes := []string{"http://x.org", "https://x.org", "ftp://x.org", "http://[::1]", "http://[fe80]", "http://[name]",
		"file://", "//x.org", "", "gopher://x.org/1", "news:", "mailto:", "wais://x.org", "http://u@x.org", "http://x.org:80",
		"telnet://x.org", "nntp://x.org", "prospero://x.org"}
	parts := []string{"/", "a", "[", "]", "[1]", "[name]", "[a-z]", "{id}", "${x}", "%zz", "%41", "?", "#", "=", "&", ":",
		";type=a", "|", " ", "~", "ü", "[[", "]]", "@", ".", "[..slug]", "[x.y]", "<b>", "%s", "//"}
	bracketFixes := 0
	for range 30000 {
		var b strings.Builder
		b.WriteString(prefixes[rng.Intn(len(prefixes))])
		for range rng.Intn(8) {
			b.WriteString(parts[rng.Intn(len(parts))])
		}
		u := b.String()
		if !strings.ContainsAny(u, "[]") {
			continue
		}
		doc := []byte(u + "\n")
		o := Options{Grammar: parser.Profile(rng.Intn(3))}
		before := o.CheckDocument(doc, "plaintext")
		for _, d := range before {
			for _, fx := range d.SuggestedFixes {
				if strings.Contains(fx.Message, "%5B") {
					bracketFixes++
				}
				for _, e := range fx.Edits {
					if e.Start < d.Start || e.End > d.End {
						t.Errorf("%q (%v): %s fix edits [%d,%d), outside the finding [%d,%d)", u, o.Grammar, d.Code, e.Start, e.End, d.Start, d.End)
					}
				}
			}
		}
		edits, n := PreferredEdits(before)
		if n == 0 {
			continue
		}
		fixed := ApplyEdits(doc, edits)
		for _, g := range o.CheckDocument(fixed, "plaintext") {
			start, end := mapDocBack(g.Start, edits), mapDocBack(g.End, edits)
			for _, d := range before {
				if len(d.SuggestedFixes) > 0 && d.Code == g.Code && start < d.End && d.Start < end {
					t.Errorf("%q (%v) → %q: %s is still there after its fix: %s", u, o.Grammar, fixed, d.Code, g.Message)
				}
			}
			if c, _ := Lookup(g.Code); c.Severity > Warning {
				continue
			}
			if !existed(before, g, edits) {
				t.Errorf("%q (%v) → %q: the fixes made a new %s: %s", u, o.Grammar, fixed, g.Code, g.Message)
			}
		}
	}
	if bracketFixes == 0 {
		t.Fatal("no bracket fix was made: the test tests nothing")
	}
}
