// Package parser is the scheme-aware URL parser. The scheme picks the start
// rule of RFC 1738 §5 (http -> httpurl, ftp -> ftpurl, …; https -> httpsurl,
// the http syntax per RFC 2818 §2.4; any other scheme -> genericurl), a
// fragment follows RFC 1808 §2.2 (URL = ( absoluteURL | relativeURL ) [ "#"
// fragment ]), and a relative reference parses by RFC 1808 relativeURL.
//
// The result is a grammar.Tree whose root is RFC 1808's URL node spanning the
// whole input, with the start rule's derivation and the fragment's as its
// children: the same trees the general matcher of package grammar builds,
// which Reference computes and the tests compare against on every input.
//
// ParseRFC3986 parses by the modern syntax (RFC 3986, with the current
// definitions of http, https and file) the URLs RFC 1738 rejects, with a
// fast path of its own (modernfast.go) checked against the general matcher
// the same way.
package parser

import (
	"strings"

	"github.com/urlls/urlls/analysis/grammar"
)

var (
	ruleURL         = grammar.MustRule("rfc1808", "URL")
	ruleFragment    = grammar.MustRule("rfc1808", "fragment")
	ruleRelativeURL = grammar.MustRule("rfc1808", "relativeURL")
	ruleGenericURL  = grammar.MustRule("rfc1738", "genericurl")
)

// startRules maps a lower-case scheme to its RFC 1738 §5 production.
var startRules = map[string]*grammar.Rule{
	"http":     grammar.MustRule("rfc1738", "httpurl"),
	"https":    grammar.MustRule("rfc1738", "httpsurl"),
	"ftp":      grammar.MustRule("rfc1738", "ftpurl"),
	"news":     grammar.MustRule("rfc1738", "newsurl"),
	"nntp":     grammar.MustRule("rfc1738", "nntpurl"),
	"telnet":   grammar.MustRule("rfc1738", "telneturl"),
	"gopher":   grammar.MustRule("rfc1738", "gopherurl"),
	"wais":     grammar.MustRule("rfc1738", "waisurl"),
	"mailto":   grammar.MustRule("rfc1738", "mailtourl"),
	"file":     grammar.MustRule("rfc1738", "fileurl"),
	"prospero": grammar.MustRule("rfc1738", "prosperourl"),
}

// KnownScheme reports whether RFC 1738 §5 (or RFC 2818 for https) gives the
// lower-case scheme a syntax of its own.
func KnownScheme(scheme string) bool {
	_, ok := startRules[scheme]
	return ok
}

// StartRule returns the production an absolute URL with this scheme must
// match; the scheme is compared case-insensitively (RFC 1738 §2.1).
func StartRule(scheme string) *grammar.Rule {
	if r, ok := startRules[strings.ToLower(scheme)]; ok {
		return r
	}
	return ruleGenericURL
}

// Scheme returns the scheme of input: the bytes before the first ":" when they
// are a non-empty run of RFC 1808 scheme characters (alpha, digit, "+", "-",
// "."), else "".
func Scheme(input string) string {
	for i := 0; i < len(input); i++ {
		c := input[i]
		switch {
		case c == ':':
			return input[:i]
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '+', c == '-', c == '.':
		default:
			return ""
		}
	}
	return ""
}

// LowerScheme returns input with its scheme in lower case, the rest as it
// is. RFC 1738 §2.1 writes the scheme in lower case ("scheme = 1*[
// lowalpha | digit | …]") and asks interpreters to ignore its case, as
// urlls check does (an upper-case scheme is a scheme-case hint, no syntax
// error): parse the result to judge an input as an interpreter would. The
// offsets of the two are the same.
func LowerScheme(input string) string {
	sc := Scheme(input)
	if sc == "" || strings.ToLower(sc) == sc {
		return input
	}
	return strings.ToLower(sc) + input[len(sc):]
}

// splitFragment returns the index of the "#" that starts the fragment, or -1.
// No RFC 1738 or RFC 1808 production other than fragment admits "#"
// (punctuation, RFC 1738 §2.2), so the first one starts it.
func splitFragment(input string) int {
	return strings.IndexByte(input, '#')
}

// Parse parses an absolute URL with the production of its scheme. The error,
// when there is one, is a *grammar.SyntaxError. The tree is a value: the
// header of its node slice, which is its only allocation (Parser.Parse
// reuses a tree and allocates nothing).
func Parse(input string) (grammar.Tree, error) {
	return parseOnce(input, false)
}

// ParseReference parses a URL reference as found in a link: an absolute URL
// when it starts with a scheme, else an RFC 1808 relativeURL.
func ParseReference(input string) (grammar.Tree, error) {
	return parseOnce(input, true)
}

// Validate returns the error Parse returns for input, without building a
// tree to keep: a valid URL costs no allocation.
func Validate(input string) error {
	return validate(input, false)
}

// ValidateReference returns the error ParseReference returns for input, as
// Validate does.
func ValidateReference(input string) error {
	return validate(input, true)
}

func validate(input string, relative bool) error {
	_, err := parsePooled(input, relative, false)
	return err
}

// parseOnce is Parse (ParseReference when relative) with a pooled fast
// path, whose nodes the tree copies in one exact allocation.
func parseOnce(input string, relative bool) (grammar.Tree, error) {
	return parsePooled(input, relative, true)
}

// parsePooled parses input with a pooled fast path, falling back to the
// general matcher only for a failure whose error the fast path does not
// know; a valid URL's tree is kept (its nodes copied) only when keep is
// set.
func parsePooled(input string, relative, keep bool) (grammar.Tree, error) {
	p := fastPool.Get().(*fast)
	defer fastPool.Put(p)
	p.nodes = p.nodes[:0]
	if p.parse(input, relative) {
		if !keep {
			return grammar.Tree{}, nil
		}
		return grammar.Tree{Input: input, Nodes: append([]grammar.Node(nil), p.nodes...)}, nil
	}
	if err, ok := p.syntaxError(input); ok {
		return grammar.Tree{}, err
	}
	return general(input, relative)
}

// general parses input with the general matcher: Reference, or
// ReferenceRelative when relative.
func general(input string, relative bool) (grammar.Tree, error) {
	if relative {
		return ReferenceRelative(input)
	}
	return Reference(input)
}

// A Parser parses URLs as Parse and ParseReference do into a tree the
// caller keeps and reuses: once its node slice has grown to the size of the
// URLs parsed, a valid URL costs no allocation, and neither does an invalid
// one whose error the fast path knows: the *grammar.SyntaxError it returns
// is the Parser's own, overwritten by the next call (copy it to keep it).
// The zero Parser is ready to use; it is not safe for concurrent use.
type Parser struct {
	fast fast
	err  grammar.SyntaxError
}

// Parse parses an absolute URL as the function Parse does, into t, whose
// nodes it overwrites (t.Nodes keeps its array). On an error t is empty.
func (p *Parser) Parse(input string, t *grammar.Tree) error {
	return p.parse(input, false, t)
}

// ParseReference parses a URL reference as the function ParseReference
// does, into t.
func (p *Parser) ParseReference(input string, t *grammar.Tree) error {
	return p.parse(input, true, t)
}

func (p *Parser) parse(input string, relative bool, t *grammar.Tree) error {
	p.fast.nodes = t.Nodes[:0]
	ok := p.fast.parse(input, relative)
	t.Input, t.Nodes = input, p.fast.nodes
	p.fast.nodes = nil // t owns the array
	if ok {
		return nil
	}
	if p.fast.failShape != nil && p.fast.failShape.into(&p.err, input, p.fast.failAt) {
		t.Input, t.Nodes = "", t.Nodes[:0]
		return &p.err
	}
	rt, err := general(input, relative)
	t.Nodes = append(t.Nodes[:0], rt.Nodes...)
	if err != nil {
		t.Input = ""
	}
	return err
}

// Reference parses input as Parse does, with the general matcher: the
// definition the fast parser is tested against.
func Reference(input string) (grammar.Tree, error) {
	return reference(input, StartRule(Scheme(input)))
}

// ReferenceRelative parses input as ParseReference does, with the general matcher.
func ReferenceRelative(input string) (grammar.Tree, error) {
	if Scheme(input) != "" {
		return Reference(input)
	}
	return reference(input, ruleRelativeURL)
}

func reference(input string, start *grammar.Rule) (grammar.Tree, error) {
	return referenceWith(input, start, ruleFragment)
}

// referenceWith parses input by start up to the first "#", and the rest by
// fragment, under RFC 1808's URL node.
func referenceWith(input string, start, fragment *grammar.Rule) (grammar.Tree, error) {
	body, frag, err := matchAroundFragment(input, start, fragment)
	if err != nil {
		return grammar.Tree{}, err
	}
	nodes := make([]grammar.Node, 0, len(body)+len(frag)+2)
	nodes = append(nodes, grammar.Node{ID: ruleURL.ID, Start: 0, End: int32(len(input))})
	nodes = append(nodes, refine(body, input[:bodyEnd(input)])...)
	nodes = append(nodes, frag...)
	nodes[0].Size = int32(len(nodes))
	return grammar.Tree{Input: input, Nodes: nodes}, nil
}

// bodyEnd returns where the part of input before its fragment ends.
func bodyEnd(input string) int {
	if hash := splitFragment(input); hash >= 0 {
		return hash
	}
	return len(input)
}

// matchAroundFragment matches input up to its first "#" by start and the
// rest by fragment (none without a "#"): the nodes of each, the
// fragment's moved to their place in input, or the failure located in
// input.
func matchAroundFragment(input string, start, fragment *grammar.Rule) (body, frag []grammar.Node, err *grammar.SyntaxError) {
	end := bodyEnd(input)
	t, err := start.Match(input[:end])
	if err != nil {
		err.Input = input
		return nil, nil, err
	}
	if end == len(input) {
		return t.Nodes, nil, nil
	}
	ft, err := fragment.Match(input[end+1:])
	if err != nil {
		err.Input = input
		err.Offset += end + 1
		return nil, nil, err
	}
	return t.Nodes, shift(ft.Nodes, end+1), nil
}
