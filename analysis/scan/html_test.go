package scan

import (
	"html"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCodeScope runs random start and end tags through codeScope and
// through the plain stack of names it stands for, searched from the top
// at every end tag: the counts that keep codeScope linear must never
// change what is open.
func TestCodeScope(t *testing.T) {
	names := []string{"pre", "code", "kbd", "div", "p", "li", "span"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		var s codeScope
		var model []string
		for range 200 {
			n := names[r.IntN(len(names))]
			switch {
			case r.IntN(2) == 0:
				if codeElements[n] || len(model) > 0 && blockEnds[n] {
					s.open(n)
					model = append(model, n)
				}
			case s.inCode():
				s.close(n)
				if j := lastIndex(model, n); j >= 0 {
					model = model[:j]
				} else if blockEnds[n] {
					model = model[:0]
				}
			}
			got := make([]string, len(s.stack))
			for k, id := range s.stack {
				got[k] = codeScopeNames[id]
			}
			if !slices.Equal(got, model) {
				t.Fatalf("open %v, want %v", got, model)
			}
		}
	}
}

func lastIndex(s []string, v string) int {
	for j := len(s) - 1; j >= 0; j-- {
		if s[j] == v {
			return j
		}
	}
	return -1
}

// TestCommonEntity: the references charRef decodes without asking the html
// package decode as the package would, and no other name is taken for one.
func TestCommonEntity(t *testing.T) {
	for _, name := range []string{"amp", "lt", "gt", "quot", "apos", "nbsp", "AMP", "ampx", "am", ""} {
		r := commonEntity([]byte(name))
		if r < 0 {
			if name == "amp" || name == "lt" || name == "gt" || name == "quot" {
				t.Errorf("commonEntity(%q) = none", name)
			}
			continue
		}
		if want := html.UnescapeString("&" + name + ";"); string(r) != want {
			t.Errorf("commonEntity(%q) = %q, html.UnescapeString says %q", name, r, want)
		}
		if er, er2, ok := entity(name, true); !ok || er != r || er2 != -1 {
			t.Errorf("commonEntity(%q) = %q, entity says %q %q %v", name, r, er, er2, ok)
		}
	}
}
