package grammar

import (
	"math/rand/v2"
	"testing"
)

// The guards of opSplit and the runs of loops (compile.go splitGuards) let
// the machine skip branches that cannot match. They must change nothing but
// the time: these tests compare Rule.Match with the plain machine, which
// tries every branch, on the same inputs as the memo tests, and on fuzzed
// input for RFC 3986.

// plainMatch is Rule.Match with the plain machine (no guards, no runs).
func plainMatch(r *Rule, input string) (*Tree, *SyntaxError, bool) {
	p := r.grammar.prog
	m := &machine{plain: true}
	m.reset(p, input, false)
	if m.run(p.root[r.index]) {
		return m.tree(r.grammar), nil, false
	}
	if m.steps > m.budget {
		return nil, nil, true
	}
	m.reset(p, input, true)
	m.run(p.root[r.index])
	return nil, m.syntaxError(r, false), false
}

// agreeWithPlain reports how Rule.Match and the plain machine differ on
// input, or "" (also when the plain machine runs out of steps: Match then
// answers by the memo matcher, which the memo tests compare).
func agreeWithPlain(r *Rule, input string) string {
	pt, pe, gaveUp := plainMatch(r, input)
	if gaveUp {
		return ""
	}
	gt, ge := r.Match(input)
	return sameResult(gt, ge, pt, pe)
}

func TestGuardsChangeNothing(t *testing.T) {
	for _, name := range BuiltinNames() {
		t.Run(name, func(t *testing.T) {
			g := Builtin(name)
			s := newSampler(g, 3986)
			rnd := rand.New(rand.NewPCG(3986, 1738))
			n := 0
			for _, r := range g.Rules {
				for _, input := range agreementInputs(r, s, rnd) {
					if d := agreeWithPlain(r, input); d != "" {
						t.Errorf("%s %q: guarded and plain machine disagree: %s", r.Name, input, d)
					}
					n++
				}
			}
			t.Logf("%d inputs", n)
		})
	}
}

// FuzzGuardsRFC3986: on any input, the guarded machine answers as the plain
// one for RFC 3986's start rules.
func FuzzGuardsRFC3986(f *testing.F) {
	for _, s := range []string{"http://u@h:8/p?q#f", "//[::1]:/a", "a:b", "g;x?y#s", "http://[v1.x]/%7e", "mailto:a@b", "%zz", ""} {
		f.Add(s)
	}
	g := Builtin("rfc3986")
	rules := []*Rule{g.Rule("URI-reference"), g.Rule("URI"), g.Rule("http-URI"), g.Rule("authority"), g.Rule("IPv6address")}
	f.Fuzz(func(t *testing.T, input string) {
		for _, r := range rules {
			if d := agreeWithPlain(r, input); d != "" {
				t.Errorf("%s %q: guarded and plain machine disagree: %s", r.Name, input, d)
			}
		}
	})
}
