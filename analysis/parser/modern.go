package parser

import (
	"strings"

	"github.com/urlls/urlls/analysis/grammar"
)

// The rules of the modern syntax: RFC 3986 and the current definitions of
// the schemes that have one in grammar rfc3986.
var (
	rule3986URI         = grammar.MustRule("rfc3986", "URI")
	rule3986RelativeRef = grammar.MustRule("rfc3986", "relative-ref")
	rule3986Fragment    = grammar.MustRule("rfc3986", "fragment")
	rule3986Host        = grammar.MustRule("rfc3986", "host")
	modernStartRules    = map[string]*grammar.Rule{
		"http":  grammar.MustRule("rfc3986", "http-URI"),  // RFC 9110 §4.2.1
		"https": grammar.MustRule("rfc3986", "https-URI"), // RFC 9110 §4.2.2
		"file":  grammar.MustRule("rfc3986", "file-URI"),  // RFC 8089 §2
	}
)

// ParseRFC3986 parses input by the modern syntax: an http, https or file URL
// by its scheme's current definition (RFC 9110 §4.2, RFC 8089 §2), any other
// absolute URI by RFC 3986 §3 URI, and, when relative is set, a reference
// without a scheme by RFC 3986 §4.2 relative-ref. A fragment follows RFC 3986
// §3.5. The error, when there is one, is a *grammar.SyntaxError.
//
// The checks call it for the URLs RFC 1738 rejects, to tell what only RFC
// 1738 forbids from what every grammar does. A fast path (modernfast.go)
// parses the common ones; the general matcher the rest, and words every
// error but the empty host of an http or https URL (webHostMissing).
func ParseRFC3986(input string, relative bool) (*grammar.Tree, error) {
	t := new(grammar.Tree)
	if err := ParseRFC3986Into(input, relative, t); err != nil {
		return nil, err
	}
	return t, nil
}

// ParseRFC3986Into is ParseRFC3986 into t, whose nodes it reuses: a URL
// the fast path parses costs no allocation once t has room. When the parse
// fails, t holds nothing of use.
func ParseRFC3986Into(input string, relative bool, t *grammar.Tree) error {
	scheme := strings.ToLower(Scheme(input))
	if nodes, fast := parseModernFast(input, scheme, t.Nodes[:0]); fast {
		t.Input, t.Nodes = input, nodes
		if err := webHostMissing(input, scheme, modernStartRules[scheme], t); err != nil {
			return err
		}
		return nil
	}
	return matchRFC3986(input, relative, scheme, t)
}

// matchRFC3986 is ParseRFC3986Into with the general matcher, for input
// whose scheme in lower case is scheme.
func matchRFC3986(input string, relative bool, scheme string, t *grammar.Tree) error {
	start, ok := modernStartRules[scheme]
	if !ok {
		start = rule3986URI
		if scheme == "" && relative {
			start = rule3986RelativeRef
		}
		m, err := start.Match(input)
		if err != nil {
			return err
		}
		*t = *m
		return nil
	}
	body := input
	hash := strings.IndexByte(input, '#')
	if hash >= 0 {
		body = input[:hash]
	}
	m, err := start.Match(body)
	if err != nil {
		err.Input = input
		return err
	}
	if err := webHostMissing(input, scheme, start, m); err != nil {
		return err
	}
	if hash >= 0 {
		if _, err := rule3986Fragment.Match(input[hash+1:]); err != nil {
			err.Input = input
			err.Offset += hash + 1
			return err
		}
	}
	*t = *m
	return nil
}

// webHostMissing is the error of an http or https URL whose tree t (by
// start) has an empty host. RFC 9110 §4.2.1: "A sender MUST NOT generate
// an "http" URI with an empty host identifier."
func webHostMissing(input, scheme string, start *grammar.Rule, t *grammar.Tree) *grammar.SyntaxError {
	if scheme != "http" && scheme != "https" {
		return nil
	}
	if h, ok := nodeOf(t, rule3986Host); ok && h.Start == h.End {
		return &grammar.SyntaxError{Input: input, Offset: int(h.Start), Rule: rule3986Host,
			Chain: []*grammar.Rule{start, rule3986Host}, Expected: []string{"host"}}
	}
	return nil
}

// nodeOf returns the first node of t for rule r.
func nodeOf(t *grammar.Tree, r *grammar.Rule) (grammar.Node, bool) {
	for _, n := range t.Nodes {
		if n.ID == r.ID {
			return n, true
		}
	}
	return grammar.Node{}, false
}
