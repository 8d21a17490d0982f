package checks

import "github.com/urlls/urlls/analysis/parser"

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
	rep := a.standIns()
	se, text, report := a.parseWithStandIns(rep, func(s string) error {
		_, err := parser.ParseUser(s, a.user)
		return err
	})
	if !report {
		return
	}
	a.reportSyntax(text, se)
}
