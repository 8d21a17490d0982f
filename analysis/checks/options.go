package checks

import (
	"context"

	"github.com/urlls/urlls/analysis/grammar"
	"github.com/urlls/urlls/analysis/scan"
)

// Options are the settings of a configuration that change what the checks
// find (config.Config.CheckOptions builds them); the zero Options are the
// defaults, those of CheckDocument.
type Options struct {
	// Schemes maps a lower-case scheme to the start rule of the user's
	// grammar for it (the configuration's "schemes", loaded by the front
	// ends with grammar.LoadUser): a URL with that scheme is parsed by
	// that rule (parser.ParseUser) instead of RFC 1738's genericurl, a
	// mismatch is a syntax finding naming the user's productions, and the
	// scheme is known (no unknown-scheme, scheme-typo or reserved-scheme).
	Schemes map[string]*grammar.Rule
}

// CheckDocumentWith is CheckDocument under opts.
func CheckDocumentWith(doc []byte, lang string, opts Options) []Diagnostic {
	return CheckCandidatesWith(doc, scan.Scan(doc, lang), opts)
}

// CheckCandidatesWith is CheckCandidates under opts.
func CheckCandidatesWith(doc []byte, cands []scan.Candidate, opts Options) []Diagnostic {
	out, _ := CheckCandidatesContextWith(context.Background(), doc, cands, opts)
	return out
}

// CheckURLWith is CheckURL under opts.
func CheckURLWith(doc []byte, c scan.Candidate, opts Options) []Diagnostic {
	return checkURL(doc, c, opts)
}
