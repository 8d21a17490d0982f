// Package standards says, at a glance, what each URL standard makes of a
// URL: RFC 1738 (RFC 1808 for a relative reference), the grammar urlls
// checks by; RFC 3986, the modern syntax; and the WHATWG URL Standard, what
// browsers do, through github.com/nlnwa/whatwg-url, a Go implementation that
// passes the web-platform-tests URL suite. Each verdict is "accepted" or the
// first reason it is not; the WHATWG verdict also gives the URL a browser
// follows after its normalisation (lower-case scheme and host, default port
// dropped, dot segments removed, characters percent-encoded), which is what
// a docs author needs to know of a link.
package standards

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	werrors "github.com/nlnwa/whatwg-url/errors"
	whatwg "github.com/nlnwa/whatwg-url/url"

	"github.com/urlls/urlls/analysis/grammar"
	"github.com/urlls/urlls/analysis/parser"
)

// The names of the standards, as the verdicts give them.
const (
	RFC1738 = "RFC 1738"
	RFC1808 = "RFC 1808"
	RFC3986 = "RFC 3986"
	WHATWG  = "WHATWG URL"
)

// Verdict is what one standard makes of a URL.
type Verdict struct {
	// Standard is RFC1738 (RFC1808 for a relative reference), RFC3986 or WHATWG.
	Standard string `json:"standard"`
	// Accepted is set when the standard's syntax accepts the URL (for the
	// WHATWG URL Standard: when it is a valid URL string, with no
	// validation error).
	Accepted bool `json:"accepted"`
	// Reason is the first reason it is not accepted, "" when it is.
	Reason string `json:"reason,omitempty"`
	// Offset is the byte of the URL the reason is about; -1 when the
	// reason names none (the WHATWG parser reports no positions).
	Offset int `json:"offset"`
	// Follows is, for the WHATWG URL Standard, the URL a browser follows:
	// the parsed URL, serialised. It is "" when the parser fails (a
	// browser follows no URL) and for a relative reference judged without
	// a base.
	Follows string `json:"follows,omitempty"`
	// Relative is set when the URL is a relative reference and no base was
	// given: a browser resolves it against the page's URL.
	Relative bool `json:"relative,omitempty"`
}

// String renders the verdict on one line, without the standard's name:
// "accepted", "not accepted: offset 12: unexpected …", and for the WHATWG
// URL Standard what a browser does with it.
func (v Verdict) String() string {
	var b strings.Builder
	if v.Accepted {
		b.WriteString("accepted")
		if v.Relative {
			b.WriteString(" as a relative reference")
		}
	} else {
		b.WriteString("not accepted: ")
		if v.Offset >= 0 {
			fmt.Fprintf(&b, "offset %d: ", v.Offset)
		}
		b.WriteString(v.Reason)
	}
	if v.Standard != WHATWG {
		return b.String()
	}
	switch {
	case v.Relative:
		b.WriteString("; a browser resolves it against the page's URL")
	case v.Follows != "":
		b.WriteString("; a browser follows " + v.Follows)
	default:
		b.WriteString("; a browser follows no URL")
	}
	return b.String()
}

// placeholderBase is what a relative reference is parsed against when no
// base is given, to find its validation errors; what it resolves to is not
// reported.
const placeholderBase = "https://example.invalid/"

// Judge returns the verdicts of RFC 1738 (or RFC 1808), RFC 3986 and the
// WHATWG URL Standard on input, in that order. A relative reference (input
// without a scheme) is resolved against base by the WHATWG URL Standard;
// with no base, the verdict says it is relative.
func Judge(input, base string) []Verdict {
	return []Verdict{rfc1738(input), rfc3986(input), browsers(input, base)}
}

// rfc1738 is the verdict of urlls's scheme-aware parser: RFC 1738 §5 by
// the scheme (RFC 2818 for https), the scheme's case ignored as RFC 1738
// §2.1 asks of interpreters, and RFC 1808 for a relative reference.
func rfc1738(input string) Verdict {
	v := Verdict{Standard: RFC1738, Offset: -1}
	var err error
	if parser.Scheme(input) == "" {
		v.Standard = RFC1808
		err = parser.ValidateReference(input)
	} else {
		err = parser.Validate(parser.LowerScheme(input))
	}
	return grammarVerdict(v, input, err)
}

// rfc3986 is the verdict of RFC 3986 (RFC 9110 for http and https, RFC
// 8089 for file), RFC 3986 §4.2 relative-ref for a relative reference.
func rfc3986(input string) Verdict {
	relative := parser.Scheme(input) == ""
	_, err := parser.ParseRFC3986(input, relative)
	if serr, ok := err.(*grammar.SyntaxError); ok && inUserinfo(serr) {
		// authority = [ userinfo "@" ] host [ ":" port ]: without an "@",
		// the furthest failure is in the userinfo tried first ("host:8x/"
		// fails at "/" for want of an "@"), not where the URL goes wrong.
		// An empty userinfo puts the failure in the host or the port.
		if at, ok := authorityWithoutAt(input); ok {
			_, err2 := parser.ParseRFC3986(input[:at]+"@"+input[at:], relative)
			if serr2, ok := err2.(*grammar.SyntaxError); ok && serr2.Offset > at {
				serr2.Offset--
				serr2.Input = input
				err = serr2
			}
		}
	}
	return grammarVerdict(Verdict{Standard: RFC3986, Offset: -1}, input, err)
}

func inUserinfo(e *grammar.SyntaxError) bool {
	for _, r := range e.Chain {
		if r != nil && r.Name == "userinfo" {
			return true
		}
	}
	return false
}

// authorityWithoutAt returns where the authority of input starts, after
// "//", when it holds no "@".
func authorityWithoutAt(input string) (int, bool) {
	i := strings.Index(input, "//")
	if i < 0 || strings.ContainsAny(input[:i], "/?#") {
		return 0, false
	}
	start := i + 2
	end := start + strings.IndexAny(input[start:], "/?#")
	if end < start {
		end = len(input)
	}
	return start, !strings.Contains(input[start:end], "@")
}

func grammarVerdict(v Verdict, input string, err error) Verdict {
	if err == nil {
		v.Accepted = true
		return v
	}
	serr, ok := err.(*grammar.SyntaxError)
	if !ok {
		v.Reason = err.Error()
		return v
	}
	serr = serr.Refined()
	serr.Input = input
	v.Offset = serr.Offset
	v.Reason = Reason(serr)
	return v
}

// Reason words a syntax error without its offset: what was found, the
// production it was found in and what was expected there.
func Reason(e *grammar.SyntaxError) string {
	found := "end of input"
	if e.Offset >= 0 && e.Offset < len(e.Input) {
		r, size := utf8.DecodeRuneInString(e.Input[e.Offset:])
		if r == utf8.RuneError && size <= 1 {
			found = fmt.Sprintf("%q", e.Input[e.Offset:e.Offset+1])
		} else {
			found = fmt.Sprintf("%q", string(r))
		}
	}
	name := "url"
	if e.Rule != nil {
		name = e.Rule.Name
	}
	return fmt.Sprintf("unexpected %s in %s, expected %s", found, name, grammar.JoinExpected(e.Expected))
}

// browsers is the verdict of the WHATWG URL Standard.
func browsers(input, base string) (v Verdict) {
	v = Verdict{Standard: WHATWG, Offset: -1}
	defer func() {
		// The parser is third-party code: no input from a document may
		// take the server down with it.
		if recover() != nil {
			v = Verdict{Standard: WHATWG, Offset: -1, Reason: "the WHATWG URL parser failed on this input"}
		}
	}()
	p := whatwg.NewParser(whatwg.WithReportValidationErrors())
	relative := parser.Scheme(input) == ""
	var u *whatwg.Url
	var err error
	switch {
	case !relative:
		u, err = p.Parse(input)
	case base == "":
		v.Relative = true
		u, err = p.ParseRef(placeholderBase, input)
	default:
		u, err = p.ParseRef(base, input)
	}
	if err != nil {
		v.Reason = whatwgReason(err)
		return v
	}
	if errs := u.ValidationErrors(); len(errs) > 0 {
		v.Reason = whatwgReason(errs[0])
	} else {
		v.Accepted = true
	}
	if !v.Relative {
		v.Follows = u.Href(false)
	}
	return v
}

// whatwgReason words a validation error of the WHATWG parser: its type (a
// sentence of the standard's table of validation errors), lower case, and
// the part it is about when the parser names one.
func whatwgReason(err error) string {
	msg := string(werrors.Type(err))
	if msg == "" {
		msg = err.Error()
	}
	msg = strings.TrimSuffix(strings.TrimSpace(msg), ".")
	msg = strings.ReplaceAll(msg, "’", "'") // the parser spells "input's" both ways
	if r, size := utf8.DecodeRuneInString(msg); size > 0 && !(len(msg) > size && unicode.IsUpper(rune(msg[size]))) {
		msg = string(unicode.ToLower(r)) + msg[size:]
	}
	if d := werrors.Description(err); d != "" {
		msg += fmt.Sprintf(" (%q)", d)
	}
	return msg
}
