package parser

import (
	"strings"

	"github.com/urlls/urlls/analysis/grammar"
)

// Profile is the grammar URLs are checked by (the "grammar" setting, urlls
// check --grammar): its productions are the ones hovers name and its
// rejections are syntax errors.
type Profile uint8

const (
	// RFC1738 is the default: RFC 1738 §5's production of the URL's scheme
	// (https per RFC 2818 §2.4, other schemes genericurl), RFC 1808 §2.2 for
	// fragments and relative references. What it rejects and RFC 3986 (with
	// the scheme's current definition) accepts is rfc1738-unsafe, not a
	// syntax error.
	RFC1738 Profile = iota
	// RFC3986 is RFC 3986 Appendix A: URI for an absolute URI, URI-reference
	// where a relative reference may stand (ParseURI).
	RFC3986
	// XBNF is the W3C "Uniform Resource Locators in XBNF" (1993/94): the
	// scheme picks its address production (ParseXBNF).
	XBNF
)

var profileNames = [...]string{RFC1738: "rfc1738", RFC3986: "rfc3986", XBNF: "xbnf"}

// ProfileNames lists the profiles' names, the default first.
func ProfileNames() []string { return profileNames[:] }

// ProfileNamed returns the profile called name ("rfc1738", "rfc3986",
// "xbnf"); "" is the default.
func ProfileNamed(name string) (Profile, bool) {
	if name == "" {
		return RFC1738, true
	}
	for i, n := range profileNames {
		if n == name {
			return Profile(i), true
		}
	}
	return RFC1738, false
}

func (p Profile) String() string {
	if int(p) < len(profileNames) {
		return profileNames[p]
	}
	return "rfc1738"
}

// Parse parses input by the profile's grammar; relative says whether a
// reference without a scheme may be relative (a link), else it must be an
// absolute URL. The tree's root spans the whole input and stands above the
// production the scheme picked (RFC 1808 URL, RFC 3986 URI-reference, RFC
// 1630 fragmentaddress), so a hover's chain starts below it. The error, when
// there is one, is a *grammar.SyntaxError.
func (p Profile) Parse(input string, relative bool) (grammar.Tree, error) {
	switch p {
	case RFC3986:
		return ParseURI(input, relative)
	case XBNF:
		return ParseXBNF(input, relative)
	}
	if relative {
		return ParseReference(input)
	}
	return Parse(input)
}

var (
	rule3986Reference = grammar.MustRule("rfc3986", "URI-reference")
	ruleXBNFFragAddr  = grammar.MustRule("xbnf", "fragmentaddress")
	ruleXBNFFragID    = grammar.MustRule("xbnf", "fragmentid")
	ruleXBNFURL       = grammar.MustRule("xbnf", "url")
)

// ParseURI parses input by RFC 3986 Appendix A alone: an absolute URI by
// URI (§3), and, when relative is set, a reference without a scheme by
// relative-ref (§4.2), as URI-reference (§4.1) does. No scheme's own rules
// apply: RFC 3986 is the grammar the "rfc3986" profile names (the rules of
// RFC 9110 for http and RFC 8089 for file, which the rfc1738 profile's
// comparison uses, are ParseRFC3986's). The root is a URI-reference node.
func ParseURI(input string, relative bool) (grammar.Tree, error) {
	if relative {
		t, err := rule3986Reference.Match(input)
		if err != nil {
			return grammar.Tree{}, err
		}
		return *t, nil
	}
	t, err := rule3986URI.Match(input)
	if err != nil {
		return grammar.Tree{}, err
	}
	return wrap(rule3986Reference, input, t.Nodes), nil
}

// xbnfStartRules maps a lower-case scheme to its XBNF production: the url
// alternatives of the W3C XBNF, and https by RFC 2818 §2.4.
var xbnfStartRules = map[string]*grammar.Rule{
	"http":     grammar.MustRule("xbnf", "httpaddress"),
	"https":    grammar.MustRule("xbnf", "httpsaddress"),
	"ftp":      grammar.MustRule("xbnf", "ftpaddress"),
	"news":     grammar.MustRule("xbnf", "newsaddress"),
	"nntp":     grammar.MustRule("xbnf", "nntpaddress"),
	"prospero": grammar.MustRule("xbnf", "prosperoaddress"),
	"telnet":   grammar.MustRule("xbnf", "telnetaddress"),
	"gopher":   grammar.MustRule("xbnf", "gopheraddress"),
	"wais":     grammar.MustRule("xbnf", "waisaddress"),
	"mailto":   grammar.MustRule("xbnf", "mailtoaddress"),
	"mid":      grammar.MustRule("xbnf", "midaddress"),
	"cid":      grammar.MustRule("xbnf", "cidaddress"),
}

// XBNFScheme reports whether the W3C XBNF (or RFC 2818 for https) has a
// production for the scheme, compared case-insensitively.
func XBNFScheme(scheme string) bool {
	_, ok := xbnfStartRules[strings.ToLower(scheme)]
	return ok
}

// ParseXBNF parses input by the W3C XBNF: the scheme picks its address
// production (XBNFScheme); a URL of another scheme is matched against url,
// all of whose alternatives reject it. A fragment follows RFC 1630's
// fragmentaddress = url [ "#" fragmentid ], the XBNF's fragmentid. The XBNF
// has no relative URLs: when relative is set, a reference without a scheme
// parses by RFC 1808 relativeURL, as under the rfc1738 profile. The root is
// a fragmentaddress node (RFC 1808's URL for a relative reference).
func ParseXBNF(input string, relative bool) (grammar.Tree, error) {
	scheme := Scheme(input)
	if scheme == "" && relative {
		return ReferenceRelative(input)
	}
	start, ok := xbnfStartRules[strings.ToLower(scheme)]
	if !ok {
		start = ruleXBNFURL
	}
	body, frag, err := matchAroundFragment(input, start, ruleXBNFFragID)
	if err != nil {
		return grammar.Tree{}, err
	}
	nodes := append(body[:len(body):len(body)], frag...)
	return wrap(ruleXBNFFragAddr, input, nodes), nil
}

// wrap returns the tree of input whose root is a node of rule spanning it,
// above nodes.
func wrap(rule *grammar.Rule, input string, nodes []grammar.Node) grammar.Tree {
	out := make([]grammar.Node, 0, len(nodes)+1)
	out = append(out, grammar.Node{ID: rule.ID, Start: 0, End: int32(len(input)), Size: int32(len(nodes) + 1)})
	out = append(out, nodes...)
	return grammar.Tree{Input: input, Nodes: out}
}

// shift moves nodes by off bytes.
func shift(nodes []grammar.Node, off int) []grammar.Node {
	out := make([]grammar.Node, len(nodes))
	for i, n := range nodes {
		n.Start += int32(off)
		n.End += int32(off)
		out[i] = n
	}
	return out
}
