package checks

import (
	"strings"

	"github.com/urlls/urlls/analysis/parser"
)

// authority locates the parts of an IP-based URL's "//" part (RFC 1738 §3.1
// "//<user>:<password>@<host>:<port>/<url-path>", RFC 1808 net_loc, RFC 3986
// §3.2) by its delimiters alone, as RFC 3986 Appendix B splits a reference
// into its components, whether or not the URL matches a grammar: what must
// be found in URLs that do not parse needs it (a wildcard host or a port
// word to mask before the parse, the host name of a non-ASCII label, the
// port-range, host-range and credentials checks, which report whether or not
// the URL parses, and escapeAllowed). It judges nothing: the grammars do.
type authority struct {
	ok         bool
	start, end int // the authority: after "//", up to the first "/", "?", "#" or the end
	at         int // the last "@" in it, or -1
	hostStart  int
	hostEnd    int
	portStart  int // after the ":" that starts the port, or -1
}

// parseAuthority finds the authority of s, a URL whose scheme (possibly "")
// is scheme.
func parseAuthority(s, scheme string) authority {
	a := authority{at: -1, portStart: -1}
	p := 0
	if scheme != "" {
		p = len(scheme) + 1
	}
	if !strings.HasPrefix(s[p:], "//") {
		return a
	}
	a.ok = true
	a.start = p + 2
	a.end = len(s)
	// The first "/", "?" or "#": a loop, as strings.IndexAny builds a
	// set of its characters on every call, a tenth of the cost of this
	// function on the short URLs of most documents.
	for i := a.start; i < len(s); i++ {
		if c := s[i]; c == '/' || c == '?' || c == '#' {
			a.end = i
			break
		}
	}
	a.hostStart = a.start
	if i := strings.LastIndexByte(s[a.start:a.end], '@'); i >= 0 {
		a.at = a.start + i
		a.hostStart = a.at + 1
	}
	a.hostEnd = a.end
	if a.hostStart < a.end && s[a.hostStart] == '[' {
		if i := strings.IndexByte(s[a.hostStart:a.end], ']'); i >= 0 {
			a.hostEnd = a.hostStart + i + 1
		}
		if a.hostEnd < a.end && s[a.hostEnd] == ':' {
			a.portStart = a.hostEnd + 1
		}
		return a
	}
	if i := strings.IndexByte(s[a.hostStart:a.end], ':'); i >= 0 {
		a.hostEnd = a.hostStart + i
		a.portStart = a.hostEnd + 1
	}
	return a
}

// password returns the span of the password in the authority's userinfo, or
// ok false when there is none or it is empty.
func (a authority) password(s string) (start, end int, ok bool) {
	if !a.ok || a.at < 0 {
		return 0, 0, false
	}
	i := strings.IndexByte(s[a.start:a.at], ':')
	if i < 0 || a.start+i+1 == a.at {
		return 0, 0, false
	}
	return a.start + i + 1, a.at, true
}

// escapeAllowed reports whether RFC 1738 §5 (or RFC 1808 §2.2 for a
// relative reference) admits an escape at byte p of the URL s, judging by
// delimiters alone. verify asks it about a fix that the syntax parse cannot
// judge, one behind a syntax error: the places that admit no escape are the
// scheme, a host and a port, a news group name and a news article's host,
// what follows an nntp or telnet host, and an ftp type.
func escapeAllowed(s string, p int) bool {
	scheme := parser.Scheme(s)
	if p <= len(scheme) && scheme != "" {
		return false
	}
	if h := strings.IndexByte(s, '#'); h >= 0 && h < p {
		return true // RFC 1808 fragment = *( uchar | reserved )
	}
	lower := strings.ToLower(scheme)
	if au := parseAuthority(s, scheme); au.ok {
		switch {
		case p < au.start:
			return false
		case p < au.end:
			return au.at >= 0 && p < au.at // user and password are *uchar
		case lower == "nntp" || lower == "telnet":
			return false // group, digits; telnet has no path
		case lower == "ftp":
			t := strings.LastIndex(s[:p], ";type=")
			return t < 0 || p < t+len(";type=")
		}
		return true
	}
	if lower == "news" {
		at := strings.LastIndexByte(s, '@')
		return at >= 0 && p < at // an article's local part is uchar …
	}
	return true
}
