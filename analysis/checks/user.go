package checks

import (
	"errors"

	"github.com/urlls/urlls/analysis/grammar"
	"github.com/urlls/urlls/analysis/parser"
)

// userSyntax is the syntax check of a URL whose scheme has a grammar of the
// user's (Options.Schemes): the user's start rule, with the fragment by RFC
// 3986 (parser.ParseUser), is the one judge. RFC 1738 and RFC 3986 have no
// say on the scheme's syntax, so nothing is rfc1738-unsafe here: a mismatch
// is a syntax finding, worded as any other (describeFailure), naming the
// user's productions.
//
// As in syntax, the bytes a character-level code reported (a bad escape, an
// unsafe character) and the placeholders are replaced by a stand-in before
// the parse, so that one problem is never reported twice; a failure at such
// a byte tries the next stand-in, and one at a placeholder is not reported.
func (a *analyzer) userSyntax() {
	s := a.text
	r := &repaired{rep: []byte(s), origin: make([]int, len(s)+1)}
	for i := range r.origin {
		r.origin[i] = i
	}
	for i := range r.rep {
		if a.flagged[i] || a.isMasked(i) {
			r.rep[i] = repairBytes[0]
		}
	}
	// scheme-case reports an upper-case scheme; RFC 3986 §3.1 compares
	// schemes case-insensitively whatever the grammar's literal says.
	for i := 0; i < len(a.scheme); i++ {
		r.rep[i] = lower(r.rep[i])
	}
	attempts := map[int]int{}
	for range maxParses {
		_, err := parser.ParseUser(string(r.rep), a.user)
		if err == nil {
			a.stop = len(s) + 1
			return
		}
		var se *grammar.SyntaxError
		if !errors.As(err, &se) || se == nil {
			return
		}
		o := min(max(se.Offset, 0), len(r.rep))
		if a.atPlaceholder(o) {
			a.stop = o
			return
		}
		if o < len(s) && a.flagged[o] {
			if attempts[o]++; attempts[o] < len(repairBytes) {
				r.rep[o] = repairBytes[attempts[o]]
				continue
			}
			a.stop = o
			return
		}
		o = refinedOffset(string(r.rep), o, se.Expected)
		t0, t1, msg := a.describeFailure(r, se, o)
		a.stop = t0
		a.add(finding{start: t0, end: t1, code: codeSyntax, msg: msg})
		return
	}
}
