package parser

import "strings"

// An RFC 3986 validator written by hand from the RFC's text, independent of
// the grammar engine and of rfc3986.abnf: the reference the verdict table
// (testdata/rfc3986/verdicts.tsv) and the differential fuzz test compare
// the engine with. It splits a reference into its components as Appendix B
// does (a split by delimiters that every URI-reference obeys) and then
// checks each component against its ABNF of Appendix A, one function per
// production.

// refURIReference reports whether s is an RFC 3986 URI-reference (§4.1);
// refURI whether it is a URI (§3).
func refURIReference(s string) bool { return refValid(s, true) }
func refURI(s string) bool          { return refValid(s, false) }

func refValid(s string, relativeOK bool) bool {
	// Appendix B: ^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?
	rest := s
	scheme, hasScheme := "", false
	if i := strings.IndexAny(rest, ":/?#"); i > 0 && rest[i] == ':' {
		scheme, hasScheme = rest[:i], true
		rest = rest[i+1:]
	}
	if hasScheme && !refScheme(scheme) {
		// Not a scheme, so a relative-ref whose first segment holds ":",
		// which path-noscheme forbids.
		return false
	}
	if !hasScheme && !relativeOK {
		return false
	}
	fragment, hasFragment := "", false
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		fragment, hasFragment = rest[i+1:], true
		rest = rest[:i]
	}
	query, hasQuery := "", false
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		query, hasQuery = rest[i+1:], true
		rest = rest[:i]
	}
	if hasFragment && !refQueryOrFragment(fragment) || hasQuery && !refQueryOrFragment(query) {
		return false
	}
	if strings.HasPrefix(rest, "//") {
		rest = rest[2:]
		end := strings.IndexByte(rest, '/')
		if end < 0 {
			end = len(rest)
		}
		// "//" authority path-abempty
		return refAuthority(rest[:end]) && refPathAbempty(rest[end:])
	}
	switch {
	case rest == "": // path-empty
		return true
	case rest[0] == '/': // path-absolute: "/" [ segment-nz *( "/" segment ) ]
		return refPathAbempty(rest)
	case hasScheme: // path-rootless: segment-nz *( "/" segment )
		return refPathAbempty("/" + rest)
	}
	// path-noscheme: segment-nz-nc *( "/" segment )
	first := rest
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		first = rest[:i]
	}
	return !strings.Contains(first, ":") && refPathAbempty("/"+rest)
}

// refScheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) (§3.1).
func refScheme(s string) bool {
	if s == "" || !refAlpha(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !refAlpha(c) && !refDigit(c) && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

// refAuthority: [ userinfo "@" ] host [ ":" port ] (§3.2). Neither host nor
// port holds "@", and userinfo holds no "@" either, so an "@" ends it.
func refAuthority(s string) bool {
	if i := strings.IndexByte(s, '@'); i >= 0 {
		// userinfo = *( unreserved / pct-encoded / sub-delims / ":" )
		if !refRun(s[:i], func(c byte) bool { return refUnreserved(c) || refSubDelim(c) || c == ':' }) {
			return false
		}
		s = s[i+1:]
	}
	host, port, hasPort := s, "", false
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return false
		}
		host = s[:end+1]
		if after := s[end+1:]; after != "" {
			if after[0] != ':' {
				return false
			}
			port, hasPort = after[1:], true
		}
		if !refIPLiteral(host) {
			return false
		}
	} else {
		if i := strings.IndexByte(s, ':'); i >= 0 {
			host, port, hasPort = s[:i], s[i+1:], true
		}
		// IPv4address is a reg-name too: reg-name = *( unreserved /
		// pct-encoded / sub-delims ) decides.
		if !refRun(host, func(c byte) bool { return refUnreserved(c) || refSubDelim(c) }) {
			return false
		}
	}
	if hasPort {
		for i := 0; i < len(port); i++ { // port = *DIGIT
			if !refDigit(port[i]) {
				return false
			}
		}
	}
	return true
}

// refIPLiteral: "[" ( IPv6address / IPvFuture ) "]" (§3.2.2).
func refIPLiteral(s string) bool {
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return false
	}
	s = s[1 : len(s)-1]
	if len(s) > 0 && (s[0] == 'v' || s[0] == 'V') {
		// IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
		dot := strings.IndexByte(s, '.')
		if dot < 2 || dot == len(s)-1 {
			return false
		}
		for i := 1; i < dot; i++ {
			if !refHex(s[i]) {
				return false
			}
		}
		for i := dot + 1; i < len(s); i++ {
			if c := s[i]; !refUnreserved(c) && !refSubDelim(c) && c != ':' {
				return false
			}
		}
		return true
	}
	return refIPv6(s)
}

// refIPv6 is IPv6address (§3.2.2): eight 16-bit pieces, the last two of
// which may be an IPv4address, and one "::" standing for one or more zero
// pieces.
func refIPv6(s string) bool {
	pieces := func(part string) (n int, ok bool) {
		if part == "" {
			return 0, true
		}
		groups := strings.Split(part, ":")
		for i, g := range groups {
			if i == len(groups)-1 && strings.Contains(g, ".") {
				if !refIPv4(g) {
					return 0, false
				}
				n += 2
				continue
			}
			if len(g) < 1 || len(g) > 4 {
				return 0, false
			}
			for j := 0; j < len(g); j++ {
				if !refHex(g[j]) {
					return 0, false
				}
			}
			n++
		}
		return n, true
	}
	if i := strings.Index(s, "::"); i >= 0 {
		left, right := s[:i], s[i+2:]
		if strings.Contains(right, "::") {
			return false
		}
		if strings.Contains(left, ".") {
			return false // an IPv4 address ends the address
		}
		nl, ok1 := pieces(left)
		nr, ok2 := pieces(right)
		return ok1 && ok2 && nl+nr <= 7
	}
	n, ok := pieces(s)
	return ok && n == 8
}

// refIPv4: dec-octet "." dec-octet "." dec-octet "." dec-octet, where a
// dec-octet is 0 to 255 written without a leading zero.
func refIPv4(s string) bool {
	octets := strings.Split(s, ".")
	if len(octets) != 4 {
		return false
	}
	for _, o := range octets {
		if o == "" || len(o) > 3 || len(o) > 1 && o[0] == '0' {
			return false
		}
		v := 0
		for i := 0; i < len(o); i++ {
			if !refDigit(o[i]) {
				return false
			}
			v = v*10 + int(o[i]-'0')
		}
		if v > 255 {
			return false
		}
	}
	return true
}

// refPathAbempty: *( "/" segment ), segment = *pchar. It also checks
// path-absolute and path-rootless, given a leading "/", since the split
// has already excluded a "//" there.
func refPathAbempty(s string) bool {
	if s != "" && s[0] != '/' {
		return false
	}
	return refRun(s, func(c byte) bool { return refPchar(c) || c == '/' })
}

// refQueryOrFragment: *( pchar / "/" / "?" ) (§3.4, §3.5).
func refQueryOrFragment(s string) bool {
	return refRun(s, func(c byte) bool { return refPchar(c) || c == '/' || c == '?' })
}

// refRun reports whether s is a run of bytes ok allows and pct-encoded
// triplets ("%" HEXDIG HEXDIG).
func refRun(s string, ok func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '%' {
			if i+2 >= len(s) || !refHex(s[i+1]) || !refHex(s[i+2]) {
				return false
			}
			i += 2
			continue
		}
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

// pchar = unreserved / pct-encoded / sub-delims / ":" / "@" (the escape is
// refRun's).
func refPchar(c byte) bool { return refUnreserved(c) || refSubDelim(c) || c == ':' || c == '@' }

func refUnreserved(c byte) bool {
	return refAlpha(c) || refDigit(c) || c == '-' || c == '.' || c == '_' || c == '~'
}

func refSubDelim(c byte) bool { return strings.IndexByte("!$&'()*+,;=", c) >= 0 }
func refAlpha(c byte) bool    { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func refDigit(c byte) bool    { return '0' <= c && c <= '9' }
func refHex(c byte) bool      { return refDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
