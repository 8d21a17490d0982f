package checks

import (
	"github.com/urlls/urlls/analysis/grammar"
	"github.com/urlls/urlls/analysis/parser"
)

// Options are the settings of a configuration that change what the checks
// find (config.Config.CheckOptions builds them); the zero Options are the
// defaults, those of CheckDocument.
type Options struct {
	// Grammar is the grammar of the syntax phase (the "grammar" setting):
	// parser.RFC1738 (the default) reports what RFC 1738 rejects and RFC
	// 3986 accepts as rfc1738-unsafe; under parser.RFC3986 and parser.XBNF
	// that grammar alone decides, its rejections are syntax errors and
	// rfc1738-unsafe is not reported. "~" follows the grammar too: unsafe
	// under RFC 1738 (rfc1738-unsafe), unreserved under RFC 3986 (and so
	// "%7E" a needless escape), a national character the XBNF forbids (a
	// syntax error).
	Grammar parser.Profile
	// Schemes maps a lower-case scheme to the start rule of the user's
	// grammar for it (the configuration's "schemes", loaded by the front
	// ends with grammar.LoadUser): a URL with that scheme is parsed by
	// that rule (parser.ParseUser) instead of the grammar's, a mismatch is
	// a syntax finding naming the user's productions, and the scheme is
	// known (no unknown-scheme, scheme-typo or reserved-scheme). A user's
	// grammar decides under every Grammar.
	Schemes map[string]*grammar.Rule
	// Brief makes diagnostics for a front end that only counts them (the
	// command line, past the findings it prints): each has the Code, the
	// Start and the URL it would have otherwise, and no Message and no
	// SuggestedFixes, and its End may be short of the full one's (a fix
	// kept widens a span, merge). What a brief check saves is the
	// verification of fixes and the wording of messages.
	Brief bool
}
