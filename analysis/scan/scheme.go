package scan

import (
	"unicode"
	"unicode/utf8"

	"github.com/urlls/urlls/analysis/schemes"
)

// bareSyntax says what must follow "scheme:" for a word of running text to
// start a URL. Running text is full of words before a colon ("Note:",
// "file:line", "key:value", "SSL_CTX_use_PrivateKey_file:PEM") and many of
// them are registered schemes too (about, content, data, feed, file, info,
// message, news, service, session, shell, tag, …), so the name alone does
// not make a URL: what follows the colon must look like that scheme's
// syntax.
type bareSyntax uint8

const (
	// synSlashes: only "scheme://" (every scheme, see schemeStart); the
	// entries of bareSchemes with it are schemes in use whose other forms
	// are not recognised bare.
	synSlashes bareSyntax = iota
	// synHier: a scheme with an authority or a hierarchical path: ":" then
	// "/" ("http://h", "file:/etc/x", and the typo "http:/h").
	synHier
	// synMailto: an addr-spec, local part "@" domain, or "?" and a header
	// (RFC 6068: "mailto:?to=…").
	synMailto
	// synNews: RFC 1738 newsurl: "*", a newsgroup name with a "." in it
	// ("comp.infosystems.www"), or a message id with "@".
	synNews
	// synURN: RFC 8141: a namespace identifier of 2 to 32 letters, digits
	// and "-", ":" and the namespace-specific string ("urn:isbn:…").
	synURN
	// synData: RFC 2397: a media type type/subtype and its parameters up
	// to the ",", or ";" or "," at once.
	synData
	// synTel: RFC 3966 and kin: "+" or a digit, and at least three digits.
	synTel
	// synAt: something "@" a host (cid:, mid: of RFC 2392, sip:, xmpp:).
	synAt
	// synMagnet: "?" and a parameter ("magnet:?xt=…").
	synMagnet
	// synGeo: RFC 5870 coordinates, "geo:" number "," number.
	synGeo
	// synAbout: a lower-case page name ("about:blank", "about:config").
	synAbout
	// synTag: RFC 4151: an authority, "," and a year ("tag:a.org,2004:x").
	synTag
)

// bareSchemes are the schemes recognised in running text with more than
// "scheme://", by what must follow their colon. They count as in use even
// where the embedded registry lacks them (inUse).
var bareSchemes = map[string]bareSyntax{
	// RFC 1738 §5, https (RFC 2818) and the hierarchical schemes in wide use.
	"http": synHier, "https": synHier, "ftp": synHier, "ftps": synHier, "sftp": synHier,
	"file": synHier, "gopher": synHier, "telnet": synHier, "nntp": synHier, "wais": synHier,
	"prospero": synHier, "ws": synHier, "wss": synHier, "ssh": synHier, "git": synHier,
	"svn": synHier, "irc": synHier, "ircs": synHier, "ldap": synHier, "ldaps": synHier,
	"rtsp": synHier, "rtmp": synHier, "smb": synHier, "rsync": synHier, "imap": synHier,
	"mailto": synMailto, "news": synNews, "urn": synURN, "data": synData,
	"tel": synTel, "sms": synTel, "fax": synTel, "modem": synTel,
	"cid": synAt, "mid": synAt, "sip": synAt, "sips": synAt, "xmpp": synAt,
	"magnet": synMagnet, "geo": synGeo, "about": synAbout, "tag": synTag,
	// RFC 1738 §4: reserved without a syntax; "mailserver:" and "z39.50:"
	// only before "//" like any other.
	"afs": synSlashes, "nfs": synSlashes, "tn3270": synSlashes, "mailserver": synSlashes,
	"z39.50": synSlashes,
}

// typoSchemes are the schemes whose typical typos are candidates, so that
// the checks can report them: the colon left out ("https//host") and the
// colon doubled ("http::host"). Only the schemes people type by hand, and
// whose names are not code words before "::" in the forms accepted.
var typoSchemes = map[string]bool{"http": true, "https": true, "ftp": true}

// lowerName copies the scheme name b in lower case into buf, or returns
// false when it is longer than buf.
func lowerName(b []byte, buf *[32]byte) ([]byte, bool) {
	if len(b) > len(buf) {
		return nil, false
	}
	for i, c := range b {
		buf[i] = lower(c)
	}
	return buf[:len(b)], true
}

// lookupSyntax returns the bareSyntax of the scheme name b, in any case
// (RFC 1738 §2.1), and whether it is one of bareSchemes.
func lookupSyntax(b []byte) (bareSyntax, bool) {
	var buf [32]byte
	n, ok := lowerName(b, &buf)
	if !ok {
		return synSlashes, false
	}
	if len(n) >= 2 && 'a' <= n[0] && n[0] <= 'z' && n[1] < 0x80 && !bareStarts[n[0]-'a'][n[1]] {
		var none bareSyntax
		return none, false // most words before a ":" are prose: no hashing
	}
	if s := string(n); s == "https" || s == "http" {
		return synHier, true // the most common by far: no hashing
	}
	syn, ok := bareSchemes[string(n)]
	return syn, ok
}

// bareStarts holds the first two characters of the names of bareSchemes
// (letter, then any ASCII byte), so that lookupSyntax rejects most words
// without a map lookup. A name that does not start so would turn the
// filter off (every entry true).
var bareStarts = func() (t [26][0x80]bool) {
	for name := range bareSchemes {
		if len(name) < 2 || name[0] < 'a' || name[0] > 'z' || name[1] >= 0x80 {
			for k := range t {
				for c := range t[k] {
					t[k][c] = true
				}
			}
			return t
		}
		t[name[0]-'a'][name[1]] = true
	}
	return t
}()

// inUse reports whether the scheme name b is in use: one of bareSchemes or
// schemes.InUse (the IANA registry and the widely used unregistered ones).
func inUse(b []byte) bool {
	if _, ok := lookupSyntax(b); ok {
		return true
	}
	if len(b) > 32 {
		return false
	}
	return registryInUse(string(b))
}

// registryInUse is schemes.InUse; tests replace it to be independent of the
// registry's data.
var registryInUse = schemes.InUse

func isTypoScheme(b []byte) bool {
	var buf [32]byte
	n, ok := lowerName(b, &buf)
	return ok && typoSchemes[string(n)]
}

func hasUpper(b []byte) bool {
	for _, c := range b {
		if 'A' <= c && c <= 'Z' {
			return true
		}
	}
	return false
}

// schemeBoundary reports whether a scheme may start at doc[i]: at a word
// boundary, not after a letter, digit, "+", "-" or "." (the characters of
// scheme names: "xhttp" and "1.http" hold no URL at their "http"), nor
// after a "_" inside a word ("SSL_CTX_use_PrivateKey_file:PEM"). A "_" (or
// several) that starts a word is emphasis, as in "_http://a.com_", and
// GFM's autolinks follow it.
//
// Before a non-ASCII character: a cased letter (Latin, Greek, Cyrillic, …,
// with its combining marks) is part of the word, as in "éhttp://", but an
// uncased letter is not: Chinese, Japanese and Thai are written without
// spaces between words, so "詳細はhttp://…" holds a URL.
func schemeBoundary(doc []byte, i int) bool {
	for i > 0 && doc[i-1] == '_' {
		i--
		if i == 0 || !wordByteBefore(doc, i) {
			return true
		}
	}
	return !wordByteBefore(doc, i)
}

// wordByteBefore reports whether the character before doc[i] (i > 0)
// belongs to a word that a scheme would continue: a letter, digit, "+",
// "-", "." or "_", or a cased non-ASCII letter.
func wordByteBefore(doc []byte, i int) bool {
	if i == 0 {
		return false
	}
	if c := doc[i-1]; c < utf8.RuneSelf {
		return isAlnum(c) || c == '+' || c == '-' || c == '.' || c == '_'
	}
	p := i
	for n := 0; n < 8 && p > 0; n++ {
		r, size := utf8.DecodeLastRune(doc[:p])
		if unicode.Is(unicode.M, r) {
			p -= size // a combining mark: look at its base
			continue
		}
		return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r)
	}
	return false
}

// schemeStart decides whether the scheme-shaped word doc[i:j] (letters,
// digits, "+", "-", "."; doc[i] a letter) starts a URL in running text,
// and returns where its scheme ends: the ":" (or, for the missing-colon
// typo, the first "/"). The rules, in order:
//   - any scheme of two or more characters followed by "://" and a
//     character that may start a host or a path ("foo://bar", "htps://x",
//     "hhttps://x": the checks call an unknown scheme information and a
//     near-miss of a common one an error); for a synHier scheme anything
//     may follow, as the URL's end decides whether there is one; a word
//     with a "." that is not in use is a file, host or key name
//     ("http.https://github.com/.extraheader" in git config);
//   - a typo of http, https or ftp: "https//host" (no colon, then a letter,
//     digit or "[") and "http::host.example" (a doubled colon, then a
//     dotted host name: "http::Request" is a Rust path, not a URL);
//   - a scheme name with an upper-case letter ("Note:", "TODO:", "File:")
//     goes no further, but for "mailto:" with an address and "urn:" with
//     a namespace, whose syntax is unmistakable ("MAILTO:A@B.C",
//     "URN:ISBN:…");
//   - a scheme of bareSchemes followed by ":" and what its syntax needs
//     (bareSyntax): "file:line", "http:" alone, "news: today" and
//     "about: this" are prose.
func schemeStart(doc []byte, i, j, b int) (int, bool) {
	if j >= b {
		return 0, false
	}
	name := doc[i:j]
	if doc[j] == '/' {
		if j+2 < b && doc[j+1] == '/' && isTypoScheme(name) && (isAlnum(doc[j+2]) || doc[j+2] == '[') {
			return j, true
		}
		return 0, false
	}
	if doc[j] != ':' {
		return 0, false
	}
	syn, known := lookupSyntax(name)
	if j+2 < b && doc[j+1] == '/' && doc[j+2] == '/' {
		if j-i < 2 {
			return 0, false // "C://": a drive letter
		}
		if !known && indexByte(name, '.') >= 0 && !inUse(name) {
			return 0, false // a file or host name, a key: "http.https://" in git config
		}
		return j, known && syn == synHier || hostStart(doc, j+3, b)
	}
	if j+1 < b && doc[j+1] == ':' {
		return j, isTypoScheme(name) && !hasUpper(name) && dottedHost(doc, j+2, b)
	}
	if !known || hasUpper(name) && syn != synMailto && syn != synURN {
		return 0, false
	}
	return j, fits(doc, syn, j+1, b)
}

// hostStart reports whether doc[k] may start the authority or path after
// "scheme://": a letter, digit or other non-ASCII character that does not
// end a URL, "[" (an IPv6 literal), "/" (an empty authority), "%", "_",
// or the start of a template or placeholder ("{", "$", "<name>").
func hostStart(doc []byte, k, b int) bool {
	if k >= b {
		return false
	}
	c := doc[k]
	if c >= utf8.RuneSelf {
		r, _ := utf8.DecodeRune(doc[k:b])
		return !endsURL(r)
	}
	switch {
	case isAlnum(c):
		return true
	case c == '[', c == '/', c == '%', c == '_', c == '{', c == '$':
		return true
	case c == '<':
		return k+1 < b && (isAlpha(doc[k+1]) || doc[k+1] == '%')
	}
	return false
}

// dottedHost reports whether a host name with at least one dot starts at
// doc[k]: labels of letters, digits and "-", the last one starting with a
// letter, not followed by another scheme or identifier character.
func dottedHost(doc []byte, k, b int) bool {
	labels, p := 0, k
	for p < b && p-k < 256 {
		s := p
		for p < b && (isAlnum(doc[p]) || doc[p] == '-') {
			p++
		}
		if p == s {
			return false
		}
		labels++
		if p < b && doc[p] == '.' && p+1 < b && isAlnum(doc[p+1]) {
			p++
			continue
		}
		if labels < 2 || !isAlpha(doc[s]) {
			return false
		}
		if p >= b {
			return true
		}
		switch doc[p] {
		case '_', '(':
			return false // an identifier or a call: "http::foo.bar_baz()"
		case ':':
			return p+1 < b && isDigit(doc[p+1]) // a port
		}
		return true
	}
	return false
}

// fits reports whether doc[k:b], after the colon, looks like the syntax.
// Every search is bounded by a short limit, so that a document of repeated
// "mailto:" stays linear.
func fits(doc []byte, syn bareSyntax, k, b int) bool {
	at := func(p int) byte {
		if p < b {
			return doc[p]
		}
		return 0
	}
	switch syn {
	case synHier:
		if at(k) != '/' {
			return false
		}
		return at(k+1) == '/' || hostStart(doc, k+1, b)
	case synMailto:
		if at(k) == '?' {
			return isAlpha(at(k + 1))
		}
		return addrSpec(doc, k, b, false)
	case synAt:
		return addrSpec(doc, k, b, true)
	case synNews:
		if at(k) == '*' {
			return true
		}
		p, dot := k, false
		for p < b && p-k < 128 && (isAlnum(doc[p]) || doc[p] == '.' || doc[p] == '+' || doc[p] == '-' || doc[p] == '_' || doc[p] == '$' || doc[p] == '%') {
			if doc[p] == '.' && p > k && isAlpha(at(p+1)) {
				dot = true
			}
			p++
		}
		return p > k && (dot && isAlpha(doc[k]) || at(p) == '@' && isAlnum(at(p+1)))
	case synURN:
		p := k
		for p < b && p-k < 32 && (isAlnum(doc[p]) || doc[p] == '-' && p > k) {
			p++
		}
		return p-k >= 2 && at(p) == ':' && (isAlnum(at(p+1)) || at(p+1) == '%')
	case synData:
		if c := at(k); c == ',' || c == ';' {
			return true
		}
		p := k
		for p < b && p-k < 128 && isTokenChar(doc[p]) {
			p++
		}
		if p == k || at(p) != '/' {
			return false
		}
		s := p + 1
		for p = s; p < b && p-s < 128 && isTokenChar(doc[p]); p++ {
		}
		if p == s {
			return false
		}
		// Parameters (";charset=utf-8", ";base64") up to the ",".
		for s = p; p < b && p-s < 128 && (isTokenChar(doc[p]) || doc[p] == ';' || doc[p] == '='); p++ {
		}
		return at(p) == ','
	case synTel:
		p := k
		if at(p) == '+' {
			p++
		}
		if !isDigit(at(p)) {
			return false
		}
		digits := 0
		for ; p < b && p-k < 32; p++ {
			c := doc[p]
			if isDigit(c) {
				digits++
			} else if c != '-' && c != '.' && c != '(' && c != ')' {
				break
			}
		}
		return digits >= 3
	case synMagnet:
		return at(k) == '?' && isAlpha(at(k+1))
	case synGeo:
		p := k
		if at(p) == '-' {
			p++
		}
		if !isDigit(at(p)) {
			return false
		}
		for p < b && p-k < 32 && (isDigit(doc[p]) || doc[p] == '.') {
			p++
		}
		return at(p) == ',' && (isDigit(at(p+1)) || at(p+1) == '-' && isDigit(at(p+2)))
	case synAbout:
		p := k
		if c := at(p); c < 'a' || c > 'z' {
			return false
		}
		for p < b && p-k < 64 && ('a' <= doc[p] && doc[p] <= 'z' || isDigit(doc[p]) || doc[p] == '-') {
			p++
		}
		c := at(p)
		return !(isAlnum(c) || c == '_' || c == ':' || c == '/' || c == '(' || c == '.' && isAlnum(at(p+1)))
	case synTag:
		p := k
		for p < b && p-k < 128 && (isAlnum(doc[p]) || doc[p] == '.' || doc[p] == '-' || doc[p] == '@' || doc[p] == '_') {
			p++
		}
		return p > k && at(p) == ',' && isDigit(at(p+1)) && isDigit(at(p+2)) && isDigit(at(p+3)) && isDigit(at(p+4))
	}
	return false
}

// addrSpec reports whether an address local "@" domain starts at doc[k]:
// a local part of RFC 5322 atext, "." and escapes (and ":" when colon is
// set, for the user:password of sip), at most 256 bytes, then "@" and a
// letter, digit, "[" or non-ASCII character.
func addrSpec(doc []byte, k, b int, colon bool) bool {
	for p := k; p < b && p-k < 256; p++ {
		c := doc[p]
		switch {
		case c == '@':
			return p > k && p+1 < b && (isAlnum(doc[p+1]) || doc[p+1] == '[' || doc[p+1] >= utf8.RuneSelf)
		case isAlnum(c) || c >= utf8.RuneSelf:
		case c == ':' && colon:
		case c < utf8.RuneSelf && isAtext(c):
		default:
			return false
		}
	}
	return false
}

// isAtext reports the ASCII punctuation of RFC 5322 atext, and ".".
func isAtext(c byte) bool {
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '/', '=', '?', '^', '_', '`', '{', '|', '}', '~', '.':
		return true
	}
	return false
}

// isTokenChar reports the characters of an RFC 2045 media type token that
// urlls accepts in a data: URL's type and subtype.
func isTokenChar(c byte) bool {
	return isAlnum(c) || c == '!' || c == '#' || c == '$' || c == '&' || c == '^' || c == '_' || c == '.' || c == '+' || c == '-'
}
