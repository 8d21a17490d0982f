package parser

import (
	"strings"
	"sync"

	"github.com/urlls/urlls/analysis/grammar"
)

// Syntax errors on the fast path. The general matcher reports a failure at
// the furthest byte any alternative reached, with the production being
// matched there, its chain from the start rule and everything the failed
// alternatives would have accepted (grammar.SyntaxError). Where the fast
// path stops in a part of the URL that holds no choice left to backtrack
// into (the path and search of an http URL, a fragment, the first byte of a
// relative reference), that byte is the furthest one, and what the matcher
// reports there depends only on where the fast path stopped: a shape. The
// fast path reports the offset itself and takes the rest from the shape,
// which asks the general matcher once, on a template input that fails the
// same way. Any other failure goes to the general matcher as before; the
// differential test and the fuzz target hold the errors to the matcher's.

// A shape is the Rule, Chain and Expected of a syntax error the fast path
// recognizes, taken from the general matcher's error on template.
type shape struct {
	template string
	relative bool // parse template as a reference
	whole    bool // the offset is the template's too
	once     sync.Once
	err      *grammar.SyntaxError
}

// at returns the shape's error at offset of input.
func (s *shape) at(input string, offset int) *grammar.SyntaxError {
	var err grammar.SyntaxError
	if !s.into(&err, input, offset) {
		return nil
	}
	return &err
}

// into writes the shape's error at offset of input to err; it reports
// false when the shape has none (a template that parses: a bug the tests
// catch).
func (s *shape) into(err *grammar.SyntaxError, input string, offset int) bool {
	s.once.Do(func() {
		if _, err := general(s.template, s.relative); err != nil {
			s.err, _ = err.(*grammar.SyntaxError)
		}
	})
	e := s.err
	if e == nil {
		return false
	}
	if s.whole {
		offset = e.Offset
	}
	// Full slice expressions: a caller that appends to them copies.
	*err = grammar.SyntaxError{Input: input, Offset: offset, Rule: e.Rule,
		Chain: e.Chain[:len(e.Chain):len(e.Chain)], Expected: e.Expected[:len(e.Expected):len(e.Expected)]}
	return true
}

// httpShapes are the failures in the path and search of an http (or https)
// URL: httpurl = "http://" hostport [ "/" hpath [ "?" search ]] (RFC 1738
// §3.3), hpath = hsegment *[ "/" hsegment ].
type httpShapes struct {
	scheme       string
	search       shape // a byte no search may hold, after some that it may
	emptySearch  shape // a byte no search may start with
	searchEscape shape // "%" without two hex digits in the search
	segment      shape // a byte no hsegment may hold, after some that it may
	segEscape    shape // "%" without two hex digits in an hsegment
	emptySegment shape // a byte no hsegment may start with, after a "/" past the first
	emptyPath    shape // a byte no hpath may start with, after the first "/"
}

func newHTTPShapes(scheme string) *httpShapes {
	t := func(rest string) shape { return shape{template: scheme + "://h/" + rest} }
	return &httpShapes{
		scheme:       scheme,
		search:       t("?a{"),
		emptySearch:  t("?{"),
		searchEscape: t("?%"),
		segment:      t("a{"),
		segEscape:    t("a%"),
		emptySegment: t("a/{"),
		emptyPath:    t("{"),
	}
}

var (
	httpErrs  = newHTTPShapes("http")
	httpsErrs = newHTTPShapes("https")

	// fragment = *( uchar / reserved ) (RFC 1808 §2.2), parsed alone after
	// the first "#" whatever the start rule.
	fragmentErr       = shape{template: "a:#{"}
	fragmentEscapeErr = shape{template: "a:#%"}

	// relativeURL = net_path / abs_path / rel_path: a first byte none of
	// them may start with (rel_path may be empty, so the end of input is
	// expected too).
	relativeStartErr = shape{template: "{", relative: true}
)

// pathShapes are the failures right after the path of an RFC 1808 rel_path
// (rel_path = [ path ] [ ";" params ] [ "?" query ], path = fsegment *( "/"
// segment ), fsegment = 1*pchar, segment = *pchar), in a relative reference
// that is a rel_path or an abs_path ("/" rel_path).
type pathShapes struct {
	fsegment  shape // a byte no fsegment may hold, after some that it may
	fsegEsc   shape // "%" without two hex digits in the first segment
	segment   shape // a byte no segment may hold, after some that it may
	segEsc    shape // "%" without two hex digits in a later segment
	emptySeg  shape // a byte no segment may start with, after a "/"
	emptyPath shape // a byte no path may start with (abs_path only)
}

func newPathShapes(prefix string) pathShapes {
	t := func(rest string) shape { return shape{template: prefix + rest, relative: true} }
	return pathShapes{
		fsegment:  t("a{"),
		fsegEsc:   t("a%"),
		segment:   t("a/b{"),
		segEsc:    t("a/b%"),
		emptySeg:  t("a/{"),
		emptyPath: t("{"),
	}
}

var (
	relPathErrs = newPathShapes("")
	absPathErrs = newPathShapes("/")
)

// pathFailure records why a rel_path whose path started at pathStart
// stopped at end, before the end of input, with no params or query after
// the path.
func (p *fast) pathFailure(s *pathShapes, end, pathStart int) {
	in := p.in
	seg := lastSegment(in, pathStart, end)
	switch {
	case in[end] == '%' && end == pathStart:
		// No path: what an escape that fails at the start reports is
		// left to the general matcher.
	case in[end] == '%' && seg == pathStart:
		p.fail(&s.fsegEsc, escapeEnd(in, end))
	case in[end] == '%':
		p.fail(&s.segEsc, escapeEnd(in, end))
	case end == pathStart:
		if s == &absPathErrs {
			p.fail(&s.emptyPath, end)
		}
		// In a rel_path, relativeURL reports it (relativeStartErr).
	case end > seg && seg == pathStart:
		p.fail(&s.fsegment, end)
	case end > seg:
		p.fail(&s.segment, end)
	default:
		p.fail(&s.emptySeg, end)
	}
}

// Failures in the host and port of an http URL (hostport = host [ ":" port
// ], host = hostname / hostnumber, RFC 1738 §3.1) depend on the labels of
// the host, so their shapes are many: the fast path writes the hostport
// part of the input as a template of the same length, each letter an "a"
// and each digit a "1" ("-", "." and ":" as they are), followed by a "{"
// that nothing in a hostport accepts, and takes the whole error, offset
// included, from the general matcher's error on it. Nothing after the byte
// that ends the hostport part can change that error: no alternative gets
// past it. The templates are kept, up to a bound, since real documents
// repeat the same few forms of host.

// hostShapes holds the shapes of host failures by template.
var hostShapes struct {
	sync.Mutex
	m map[string]*shape
}

// maxHostShapes bounds hostShapes, maxHostTemplate the template's length:
// beyond, the general matcher parses the input itself.
const (
	maxHostShapes   = 4096
	maxHostTemplate = 96
)

// hostFailure records the error of an http URL whose hostport part
// in[prefix:end] is followed by a byte that makes it fail (end < len(in)),
// scheme being "http" or "https".
func (p *fast) hostFailure(scheme string, prefix, end int) {
	in := p.in
	if len(scheme)+end+1 > maxHostTemplate {
		return
	}
	var buf [maxHostTemplate]byte
	t := append(buf[:0], scheme...)
	t = append(t, in[len(scheme):prefix]...) // "://"
	for i := prefix; i < end; i++ {
		switch c := in[i]; {
		case class[c]&cAlpha != 0:
			t = append(t, 'a')
		case class[c]&cDigit != 0:
			t = append(t, '1')
		case c == '-' || c == '.' || c == ':':
			t = append(t, c)
		default:
			return // not a hostport byte: no template
		}
	}
	t = append(t, '{')
	hostShapes.Lock()
	s, ok := hostShapes.m[string(t)]
	if !ok && len(hostShapes.m) < maxHostShapes {
		if hostShapes.m == nil {
			hostShapes.m = map[string]*shape{}
		}
		s = &shape{template: string(t), whole: true}
		hostShapes.m[s.template] = s
	}
	hostShapes.Unlock()
	if s != nil {
		p.fail(s, 0)
	}
}

// escapeEnd returns where an escape that starts at i ("%" hex hex, RFC
// 1738 §2.2) fails in in, which has no escape there: at the first byte
// after the "%" that is not a hex digit.
func escapeEnd(in string, i int) int {
	if i+1 < len(in) && isHex(in[i+1]) {
		return i + 2
	}
	return i + 1
}

// httpFailure records why an http URL's path or search stopped at end,
// before the end of input; segStart is where the last hsegment started,
// pathStart where hpath did and searchStart where the search did (-1 for
// none).
func (p *fast) httpFailure(s *httpShapes, end, segStart, pathStart, searchStart int) {
	in := p.in
	switch {
	case searchStart >= 0 && in[end] == '%':
		p.fail(&s.searchEscape, escapeEnd(in, end))
	case searchStart >= 0 && end > searchStart:
		p.fail(&s.search, end)
	case searchStart >= 0:
		p.fail(&s.emptySearch, end)
	case in[end] == '%':
		p.fail(&s.segEscape, escapeEnd(in, end))
	case end > segStart:
		p.fail(&s.segment, end)
	case segStart > pathStart:
		p.fail(&s.emptySegment, end)
	default:
		p.fail(&s.emptyPath, end)
	}
}

// lastSegment returns where the last "/"-separated segment of in[start:end]
// starts.
func lastSegment(in string, start, end int) int {
	return start + strings.LastIndexByte(in[start:end], '/') + 1
}
