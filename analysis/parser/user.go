package parser

import (
	"strings"

	"github.com/urlls/urlls/analysis/grammar"
)

// User grammars: a configuration may give a scheme urlls has no grammar for
// a grammar of the user's (grammar.LoadUser), as a table from the lower-case
// scheme to the start rule.

// ruleFragment3986 parses the fragment of a URL of a user's scheme: RFC
// 3986 §3.5, whose fragment syntax is the same for every scheme.
var ruleFragment3986 = grammar.MustRule("rfc3986", "fragment")

// UserRule returns the start rule that schemes (by lower-case scheme) gives
// the scheme of input, compared case-insensitively, or nil.
func UserRule(schemes map[string]*grammar.Rule, input string) *grammar.Rule {
	if len(schemes) == 0 {
		return nil
	}
	sch := Scheme(input)
	if sch == "" {
		return nil
	}
	return schemes[strings.ToLower(sch)]
}

// ParseUser parses an absolute URL by start, the start rule of a user's
// grammar for its scheme, with the general matcher: the bytes before the
// first "#" by start, the fragment after it by RFC 3986 §3.5 (a fragment is
// not part of a scheme's syntax: RFC 3986 §3.5 "the fragment identifier is
// separated from the rest of the URI prior to a dereference"). The tree has
// the shape of Parse's: RFC 1808's URL node spanning the input, start's
// derivation, then the fragment's. The error, when there is one, is a
// *grammar.SyntaxError.
func ParseUser(input string, start *grammar.Rule) (grammar.Tree, error) {
	return referenceWith(input, start, ruleFragment3986)
}

// ParseWith parses a URL as p.Parse does (relative set: a relative
// reference is a URL in a link), except that a URL whose scheme schemes
// gives a user's grammar parses by it (ParseUser), under every profile.
func (p Profile) ParseWith(input string, relative bool, schemes map[string]*grammar.Rule) (grammar.Tree, error) {
	if start := UserRule(schemes, input); start != nil {
		return ParseUser(input, start)
	}
	return p.Parse(input, relative)
}
