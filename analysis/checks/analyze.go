package checks

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/urlls/urlls/analysis/grammar"
	"github.com/urlls/urlls/analysis/parser"
	"github.com/urlls/urlls/analysis/scan"
	"github.com/urlls/urlls/analysis/schemes"
)

// finding is a diagnostic in the coordinates of the URL's text: CheckURL maps
// it to document offsets.
type finding struct {
	start, end int
	code, msg  string
	fixes      []fix
}

type fix struct {
	msg   string
	edits []edit // in text order, never overlapping
}

// edit replaces text[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// analyzer holds the state of the checks of one URL.
type analyzer struct {
	text     string
	relative bool
	scheme   string    // as written, "" for none
	auth     authority // of text
	flagged  []bool    // bytes a character-level code reported
	// masked marks the bytes of template and placeholder syntax
	// (scan.Placeholders: "{{ .URL }}", "{id}", "$HOST", "<user>"): not
	// URL text but a stand-in for it, never reported and never fixed; nil
	// when there is none.
	masked   []bool
	findings []finding
	// Facts of the text computed once, so that what the character checks
	// ask per byte costs constant time: the host name span (host), where
	// a fragment directive starts (len(text) when none) and the "}" that
	// closes each "{" (braces, built on first use).
	hostStart, hostEnd int
	hostOK             bool
	directive          int
	braces             map[int]int
	// stop is where the syntax parse stopped for good: the start of the
	// syntax finding, or of the byte no stand-in could repair; len(text)+1
	// when the URL parsed. The parse saw nothing after it.
	stop int
	// user is the start rule of the user's grammar for the scheme
	// (Options.Schemes), nil for none: then userSyntax parses the URL.
	user *grammar.Rule
}

// analyze runs every check on one URL text and returns the findings in text
// order, with their fixes unverified, and where the syntax parse stopped
// (len(text)+1 when it succeeded).
//
// Order matters: the character-level codes come first, then the bytes they
// reported are repaired in a copy of the text before the syntax parse, so
// that one problem is never reported twice (a space in a host name is
// unsafe-char, not also syntax); the forms later RFCs allow are recognised at
// the parse failures they cause and repaired in turn.
//
// Template and placeholder syntax is left alone: the checks see the literal
// parts of the URL only, the syntax parse sees a stand-in letter for each
// masked byte, and a parse failure at a placeholder is not reported (what
// the placeholder stands for decides whether the URL parses). A URL that is
// all placeholder ("{{ .URL }}") has no findings.
func analyze(text string, rd reading) (findings []finding, stop int) {
	a := &analyzer{text: text, relative: rd.relative, scheme: parser.Scheme(text), stop: 0, user: rd.user}
	a.auth = parseAuthority(text, a.scheme)
	if !a.mask(rd) {
		return nil, len(text) + 1
	}
	a.hostStart, a.hostEnd, a.hostOK = a.host()
	a.directive = fragmentDirective(text)
	a.flagged = make([]bool, len(text))
	a.characters()
	a.schemeChecks()
	a.authorityChecks()
	if a.user != nil {
		a.userSyntax() // user.go
	} else if !a.separatorTypos() {
		a.syntax()
	}
	sort.SliceStable(a.findings, func(i, j int) bool {
		if a.findings[i].start != a.findings[j].start {
			return a.findings[i].start < a.findings[j].start
		}
		return a.findings[i].end < a.findings[j].end
	})
	for i := range a.findings {
		f := &a.findings[i]
		kept := f.fixes[:0]
		for _, fx := range f.fixes {
			if !a.touchesPlaceholder(fx.edits) {
				kept = append(kept, fx)
			}
		}
		f.fixes = kept
	}
	return a.findings, a.stop
}

func (a *analyzer) add(f finding) { a.findings = append(a.findings, f) }

// mask marks the placeholders of the text and reports whether any URL text
// is left outside them (white space aside). Besides scan.Placeholders, a
// host name label "*" is a wildcard ("https://*.example.com/", as Content
// Security Policy sources, CORS and certificate names write them), not a
// host, a port of letters ("host:port") is a placeholder, and the spaces of
// a path that may hold them (reading.spacedPath) are no mistake.
func (a *analyzer) mask(rd reading) bool {
	holes := scan.Placeholders(a.text)
	if rd.spacedPath {
		for i := 0; i < len(a.text); i++ {
			if a.text[i] == ' ' {
				holes = append(holes, scan.Span{Start: i, End: i + 1})
			}
		}
	}
	if au := a.auth; au.ok {
		for i := au.hostStart; i < au.hostEnd; {
			j := i
			for j < au.hostEnd && a.text[j] == '*' {
				j++
			}
			if j > i && (i == au.hostStart || a.text[i-1] == '.') && (j == au.hostEnd || a.text[j] == '.') {
				holes = append(holes, scan.Span{Start: i, End: j})
			}
			if k := strings.IndexByte(a.text[j:au.hostEnd], '.'); k >= 0 {
				i = j + k + 1
			} else {
				break
			}
		}
		// A port written as a word ("http://host:port/", "…:PORT") names
		// the number to put there.
		if p := au.portStart; p >= 0 && portWord(a.text[p:au.end]) {
			holes = append(holes, scan.Span{Start: p, End: au.end})
		}
	}
	if len(holes) == 0 {
		return true
	}
	a.masked = make([]bool, len(a.text))
	for _, h := range holes {
		for i := h.Start; i < h.End; i++ {
			a.masked[i] = true
		}
	}
	for i := 0; i < len(a.text); i++ {
		if !a.masked[i] && !isSpace(a.text[i]) {
			return true
		}
	}
	return false
}

// isMasked reports whether text byte i is part of a placeholder.
func (a *analyzer) isMasked(i int) bool {
	return a.masked != nil && i >= 0 && i < len(a.masked) && a.masked[i]
}

// atPlaceholder reports whether a parse failure at text offset t is the
// placeholder's doing: t is in one, or right after one (the parse stops at
// the first byte a stand-in made wrong, or at the end of the input).
func (a *analyzer) atPlaceholder(t int) bool {
	return a.isMasked(t) || a.isMasked(t-1)
}

// touchesPlaceholder reports whether any of the edits changes a masked byte
// or inserts text inside a placeholder.
func (a *analyzer) touchesPlaceholder(edits []edit) bool {
	if a.masked == nil {
		return false
	}
	for _, e := range edits {
		for i := e.start; i < e.end; i++ {
			if a.isMasked(i) {
				return true
			}
		}
		if e.start == e.end && a.isMasked(e.start) && a.isMasked(e.start-1) {
			return true
		}
	}
	return false
}

func (a *analyzer) flag(i, j int) {
	for ; i < j; i++ {
		a.flagged[i] = true
	}
}

// unsafeByte reports the characters RFC 1738 §2.2 calls unsafe that no URL
// grammar admits (RFC 3986 neither): the controls, space, <"> "<" ">" "\" "^"
// "{" "}" "|" and "`". "~" is unsafe in RFC 1738 only (rfc1738-unsafe), "#"
// delimits the fragment and "%" is bad-escape's.
func unsafeByte(b byte) bool {
	switch b {
	case ' ', '"', '<', '>', '\\', '^', '{', '}', '|', '`':
		return true
	}
	return b < 0x20 || b == 0x7f
}

func isHex(b byte) bool {
	return '0' <= b && b <= '9' || 'a' <= b && b <= 'f' || 'A' <= b && b <= 'F'
}

func unhex(b byte) byte {
	switch {
	case b <= '9':
		return b - '0'
	case b >= 'a':
		return b - 'a' + 10
	}
	return b - 'A' + 10
}

func isAlnum(b byte) bool {
	return '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// isEscape reports whether s[i:] starts with "%" hex hex (RFC 1738 §2.2).
func isEscape(s string, i int) bool {
	return i+2 < len(s) && s[i] == '%' && isHex(s[i+1]) && isHex(s[i+2])
}

// characters runs the character-level codes over the text, byte by byte.
func (a *analyzer) characters() {
	s := a.text
	labelDone := -1 // end of the host label whose non-ascii finding is made
	for i := 0; i < len(s); {
		b := s[i]
		j := i + 1
		if a.isMasked(i) {
			i = j
			continue
		}
		switch {
		case b >= 0x80:
			for j < len(s) && s[j] >= 0x80 && !a.isMasked(j) {
				j++
			}
			a.flag(i, j)
			if i < labelDone {
				break
			}
			if l0, l1, ok := a.hostLabel(i); ok {
				a.nonASCIILabel(l0, l1)
				labelDone = l1
				break
			}
			a.nonASCII(i, j)
		case unsafeByte(b):
			for j < len(s) && unsafeByte(s[j]) && !a.isMasked(j) {
				j++
			}
			a.flag(i, j)
			a.unsafeChars(i, j)
		case b == '~':
			for j < len(s) && s[j] == '~' && !a.isMasked(j) {
				j++
			}
			a.flag(i, j)
			a.tildes(i, j)
		case b == '%':
			if !isEscape(s, i) {
				a.flag(i, j)
				a.badEscape(i)
				break
			}
			j = i
			for isEscape(s, j) && !a.isMasked(j) && a.redundantEscape(j) {
				j += 3
			}
			if j > i {
				a.redundantEscapes(i, j)
			} else {
				j = i + 3
			}
		}
		i = j
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// unsafeChars reports the run text[i:j] of unsafe characters; the fix
// percent-encodes each byte. It also encodes the "}" that closes a "{" of
// the run: in running text a URL ends at a "}" without its "{" (as at a ")"
// that closes a parenthesis the URL stands in), so encoding the "{" alone
// would cut the rest of the URL off.
func (a *analyzer) unsafeChars(i, j int) {
	run := a.text[i:j]
	var enc strings.Builder
	var edits []edit
	for k := i; k < j; k++ {
		e := fmt.Sprintf("%%%02X", a.text[k])
		enc.WriteString(e)
		edits = append(edits, edit{k, k + 1, e})
	}
	msg := "percent-encode as " + cut(enc.String())
	var partners []edit
	for k := i; k < j; k++ {
		if a.text[k] != '{' {
			continue
		}
		if p := a.closingBrace(k); p >= j && !a.isMasked(p) {
			partners = append(partners, edit{p, p + 1, "%7D"})
		}
	}
	if len(partners) > 0 {
		edits = append(edits, partners...)
		sort.Slice(edits, func(x, y int) bool { return edits[x].start < edits[y].start })
		msg += `, and the matching "}" as %7D`
	}
	a.add(finding{
		start: i, end: j, code: codeUnsafeChar,
		msg:   fmt.Sprintf("unsafe %s %s: no URL grammar allows %s unencoded", plural(j-i, "character", "characters"), quote(run), plural(j-i, "it", "them")),
		fixes: []fix{{msg: msg, edits: edits}},
	})
}

// closingBrace returns the index of the "}" that closes the "{" at i, or -1.
// The braces of the text are matched once, with a stack, on first use.
func (a *analyzer) closingBrace(i int) int {
	if a.braces == nil {
		a.braces = map[int]int{}
		var open []int
		for k := 0; k < len(a.text); k++ {
			switch a.text[k] {
			case '{':
				open = append(open, k)
			case '}':
				if n := len(open); n > 0 {
					a.braces[open[n-1]] = k
					open = open[:n-1]
				}
			}
		}
	}
	if p, ok := a.braces[i]; ok {
		return p
	}
	return -1
}

func (a *analyzer) tildes(i, j int) {
	f := finding{
		start: i, end: j, code: codeRFC1738Unsafe,
		msg: `"~" is unsafe in RFC 1738 (RFC 3986 made it unreserved)`,
	}
	if a.inFragmentDirective(i) {
		// A text fragment's ":~:" (WICG Scroll to Text Fragment) is the
		// directive's delimiter: encoded, it is no directive.
		f.msg += `; here it delimits a fragment directive (":~:"), which must stay as written`
	} else {
		var edits []edit
		for k := i; k < j; k++ {
			edits = append(edits, edit{k, k + 1, "%7E"})
		}
		f.fixes = []fix{{msg: "encode ~ as %7E", edits: edits}}
	}
	a.add(f)
}

// inFragmentDirective reports whether text byte i is in the fragment
// directive of the URL (fragmentDirective).
func (a *analyzer) inFragmentDirective(i int) bool { return i >= a.directive }

// fragmentDirective returns where the fragment directive of s starts: the
// part of its fragment from ":~:" on (the delimiter of text fragments,
// "#:~:text=…"), or len(s) when it has none.
func fragmentDirective(s string) int {
	h := strings.IndexByte(s, '#')
	if h < 0 {
		return len(s)
	}
	if d := strings.Index(s[h:], ":~:"); d >= 0 {
		return h + d
	}
	return len(s)
}

// badEscape reports the "%" at i. The span covers the "%" and the letters or
// digits after it that an escape would have taken ("%zz", "%4g"), so that
// the message shows what was written; the fix encodes the "%" alone.
func (a *analyzer) badEscape(i int) {
	k := i + 1
	for k < len(a.text) && k < i+3 && isAlnum(a.text[k]) {
		k++
	}
	a.add(finding{
		start: i, end: k, code: codeBadEscape,
		msg:   fmt.Sprintf(`%s is not an escape: "%%" must be followed by two hex digits`, strconv.Quote(a.text[i:k])),
		fixes: []fix{{msg: "encode % as %25", edits: []edit{{i, i + 1, "%25"}}}},
	})
}

// redundantEscape reports whether the escape at i encodes a character that
// is unreserved in every URL grammar: a letter, a digit, "-", "." or "_"
// (RFC 1738 §2.2, RFC 3986 §2.3). Not "~": RFC 1738 calls it unsafe. Not a
// "." of a path segment that would decode to "." or "..", which RFC 1808 §4
// resolution treats differently from its escaped form, nor a "." that ends
// the URL: in running text a trailing "." ends the sentence, not the URL
// (RFC 1738 appendix), so decoding it would cut it off the link.
func (a *analyzer) redundantEscape(i int) bool {
	d := unhex(a.text[i+1])<<4 | unhex(a.text[i+2])
	if !(isAlnum(d) || d == '-' || d == '.' || d == '_') {
		return false
	}
	return d != '.' || i+3 < len(a.text) && !a.dotSegment(i)
}

// dotSegment reports whether the segment around the escape at i decodes to
// "." or "..". Such a segment is at most six bytes long ("%2E%2E").
func (a *analyzer) dotSegment(i int) bool {
	s := a.text
	delim := func(b byte) bool { return b == '/' || b == '?' || b == '#' || b == ';' }
	lo := i
	for lo > 0 && !delim(s[lo-1]) {
		if lo--; i-lo > 3 {
			return false
		}
	}
	hi := i
	for hi < len(s) && !delim(s[hi]) {
		if hi++; hi-lo > 6 {
			return false
		}
	}
	seg := strings.NewReplacer("%2E", ".", "%2e", ".").Replace(s[lo:hi])
	return seg == "." || seg == ".."
}

func (a *analyzer) redundantEscapes(i, j int) {
	var dec strings.Builder
	var edits []edit
	for k := i; k < j; k += 3 {
		c := string(unhex(a.text[k+1])<<4 | unhex(a.text[k+2]))
		dec.WriteString(c)
		edits = append(edits, edit{k, k + 3, c})
	}
	raw, d := quote(a.text[i:j]), quote(dec.String())
	a.add(finding{
		start: i, end: j, code: codeRedundantEscape,
		msg:   fmt.Sprintf("%s needlessly escapes %s", raw, d),
		fixes: []fix{{msg: fmt.Sprintf("decode %s to %s", raw, d), edits: edits}},
	})
}

// host returns the span of the text's host name: the host of its authority
// (not an IP literal), or a news article's host (RFC 1738 §3.6 "news:"
// <message-id>, article = … "@" host).
func (a *analyzer) host() (hs, he int, ok bool) {
	if au := a.auth; au.ok {
		return au.hostStart, au.hostEnd, au.hostStart < au.hostEnd && a.text[au.hostStart] != '['
	}
	if !strings.EqualFold(a.scheme, "news") {
		return 0, 0, false
	}
	he = len(a.text)
	if k := strings.IndexByte(a.text, '#'); k >= 0 {
		he = k
	}
	at := strings.LastIndexByte(a.text[:he], '@')
	return at + 1, he, at > len(a.scheme)
}

// hostLabel returns the host name label around byte i, when i is in the
// text's host name.
func (a *analyzer) hostLabel(i int) (l0, l1 int, ok bool) {
	hs, he := a.hostStart, a.hostEnd
	if !a.hostOK || i < hs || i >= he {
		return 0, 0, false
	}
	l0 = hs
	if k := strings.LastIndexByte(a.text[hs:i], '.'); k >= 0 {
		l0 = hs + k + 1
	}
	l1 = he
	if k := strings.IndexByte(a.text[i:he], '.'); k >= 0 {
		l1 = i + k
	}
	return l0, l1, true
}

// nonASCII reports a run of non-ASCII bytes outside a host name; the fix
// percent-encodes their UTF-8 bytes (RFC 3987 §3.1), one edit per character.
func (a *analyzer) nonASCII(i, j int) {
	run := a.text[i:j]
	var msg string
	if utf8.ValidString(run) {
		n := utf8.RuneCountInString(run)
		msg = fmt.Sprintf("non-ascii %s %s: URLs are US-ASCII (RFC 1738 §2.2)", plural(n, "character", "characters"), quote(run))
	} else {
		msg = fmt.Sprintf("non-ascii bytes %s, not even UTF-8: URLs are US-ASCII (RFC 1738 §2.2)", quote(run))
	}
	var enc strings.Builder
	var edits []edit
	for k := i; k < j; {
		_, size := utf8.DecodeRuneInString(a.text[k:j])
		var e strings.Builder
		for _, b := range []byte(a.text[k : k+size]) {
			fmt.Fprintf(&e, "%%%02X", b)
		}
		enc.WriteString(e.String())
		edits = append(edits, edit{k, k + size, e.String()})
		k += size
	}
	a.add(finding{start: i, end: j, code: codeNonASCII, msg: msg,
		fixes: []fix{{msg: "percent-encode as " + cut(enc.String()), edits: edits}}})
}

// nonASCIILabel reports the non-ASCII characters of the host name label
// text[l0:l1] as one finding. A host name admits no escapes (RFC 1738 §3.1),
// so the fix is the label's IDNA form (RFC 3490, Punycode RFC 3492).
func (a *analyzer) nonASCIILabel(l0, l1 int) {
	label := a.text[l0:l1]
	// The finding spans the whole label, which its fix rewrites.
	f := finding{start: l0, end: l1, code: codeNonASCII,
		msg: fmt.Sprintf("non-ascii host name label %s: host names are US-ASCII (RFC 1738 §3.1)", quote(label))}
	// Only a label that is a host name label but for its non-ASCII
	// characters gets a fix: its ASCII form is then letters, digits and
	// "-", safe to write in any document context.
	ldh := true
	for k := 0; k < len(label); k++ {
		ldh = ldh && (label[k] >= 0x80 || isAlnum(label[k]) || label[k] == '-')
	}
	if ascii, ok := idnaLabel(label); ok && ldh {
		f.fixes = []fix{{msg: "convert the label to punycode " + quote(ascii), edits: []edit{{l0, l1, ascii}}}}
	}
	a.add(f)
}

// schemeChecks runs scheme-case, scheme-typo, unknown-scheme and
// reserved-scheme. They look at the scheme alone, so they report whether or
// not the rest parses: unknown-scheme explains why a syntax error names
// genericurl. A scheme in use (the IANA registry or wide use, package
// schemes) is not unknown, whether or not urlls has a grammar for it.
func (a *analyzer) schemeChecks() {
	sch := a.scheme
	if sch == "" {
		return
	}
	lower := strings.ToLower(sch)
	known := parser.KnownScheme(lower) || reservedSchemes[lower] || schemes.InUse(lower) || a.user != nil
	if !known {
		if word, glued := gluedScheme(lower); glued {
			// "baseada emhttps://…": a space went missing before the URL.
			// The fix would be a space in the text, not in the URL: none.
			a.add(finding{start: 0, end: len(sch), code: codeSchemeTypo,
				msg: fmt.Sprintf("unknown scheme %s: the word %s run into %s?", quote(sch), quote(sch[:len(word)]), strconv.Quote(sch[len(word):]+":"))})
			return
		}
		if likely, ok := schemes.NearMiss(lower); ok {
			a.add(finding{start: 0, end: len(sch), code: codeSchemeTypo,
				msg:   fmt.Sprintf("unknown scheme %s: a misspelt %s?", quote(sch), strconv.Quote(likely)),
				fixes: []fix{{msg: "replace the scheme with " + strconv.Quote(likely), edits: []edit{{0, len(sch), likely}}}}})
			return
		}
	}
	if lower != sch {
		a.add(finding{start: 0, end: len(sch), code: codeSchemeCase,
			msg:   fmt.Sprintf("scheme %s is not lower case", quote(sch)),
			fixes: []fix{{msg: "lower-case the scheme", edits: []edit{{0, len(sch), lower}}}}})
	}
	switch {
	case reservedSchemes[lower] && a.user == nil: // a user's grammar gives it a syntax
		a.add(finding{start: 0, end: len(sch), code: codeReservedScheme,
			msg: fmt.Sprintf("scheme %s is reserved by RFC 1738 §4 without a syntax; checked as genericurl", quote(lower))})
	case !known:
		a.add(finding{start: 0, end: len(sch), code: codeUnknownScheme,
			msg: fmt.Sprintf("unregistered scheme %s; checked as genericurl", quote(lower))})
	}
}

// gluedScheme reports whether scheme, in lower case, is a word of two or
// more letters run into a common scheme ("emhttps", "seehttp"), and returns
// the word.
func gluedScheme(scheme string) (string, bool) {
	for _, common := range []string{"https", "http", "mailto", "ftp"} {
		word, ok := strings.CutSuffix(scheme, common)
		if ok && len(word) >= 2 && allLetters(word) {
			return word, true
		}
	}
	return "", false
}

// authoritySchemes are the schemes whose URLs start "scheme://" and a host:
// RFC 1738 §3 (ftp, http, gopher, nntp, telnet, wais, prospero), RFC 9110
// (https) and the WebSocket schemes (RFC 6455 §3). file is not one: RFC 8089
// §2 allows "file:/path".
var authoritySchemes = map[string]bool{
	"http": true, "https": true, "ftp": true, "ftps": true, "ws": true, "wss": true,
	"gopher": true, "nntp": true, "telnet": true, "wais": true, "prospero": true,
}

// separatorTypos recognises a misspelt "://" between the scheme and the host
// of a URL whose scheme needs one: "http::host", "http:/host",
// "http:host.example", "http:///host.example", the scheme written twice
// ("https://https://host"), and "https//host" without
// the ":" (which, in a link, is a relative path "https//host" and resolves
// to nonsense). It reports one syntax finding with the fix that writes "://"
// and returns true; the syntax parse is then skipped, since it would only
// report the same mistake again, less clearly.
func (a *analyzer) separatorTypos() bool {
	s := a.text
	if a.scheme == "" {
		// "https//host": a scheme that needs "//", then "//" and a host.
		for name := range authoritySchemes {
			if len(s) > len(name)+2 && strings.EqualFold(s[:len(name)], name) && s[len(name):len(name)+2] == "//" && hostAt(s, len(name)+2) {
				a.add(finding{start: 0, end: len(name) + 2, code: codeSyntax,
					msg:   fmt.Sprintf(`missing ":" after %s: %s is a relative path, not a url`, strconv.Quote(s[:len(name)]), strconv.Quote(s[:len(name)+2]+"…")),
					fixes: []fix{{msg: `insert ":" after the scheme`, edits: []edit{{len(name), len(name), ":"}}}}})
				a.stop = 0
				return true
			}
		}
		return false
	}
	if !authoritySchemes[strings.ToLower(a.scheme)] {
		return false
	}
	p := len(a.scheme)
	// "https://https://host": the scheme written twice, the second one
	// taken for a host name with an empty port.
	if strings.HasPrefix(s[p:], "://") {
		rest := s[p+3:]
		if second := parser.Scheme(rest); authoritySchemes[strings.ToLower(second)] && strings.HasPrefix(rest[len(second):], "://") {
			end := p + 3 + len(second) + 3
			a.add(finding{start: 0, end: end, code: codeSyntax,
				msg:   fmt.Sprintf("the scheme is written twice: %s", quote(s[:end])),
				fixes: []fix{{msg: "remove " + quote(s[:p+3]), edits: []edit{{0, p + 3, ""}}}}})
			a.stop = 0
			return true
		}
	}
	if strings.HasPrefix(s[p:], "://") && !strings.HasPrefix(s[p:], ":///") {
		return false // written right; an empty host ("http://:8080/") is the parse's
	}
	q := p
	for q < len(s) && (s[q] == ':' || s[q] == '/') {
		q++
	}
	sep := s[p:q]
	if sep == "://" || !hostAt(s, q) {
		return false
	}
	// "http:host" and "http:///host" are typos only before what is
	// clearly a host name; "http::" and "http:/" always are.
	if (sep == ":" || sep == ":///") && !hostLike(s, q) {
		return false
	}
	a.add(finding{start: p, end: q, code: codeSyntax,
		msg:   fmt.Sprintf("%s after %s: the host must follow %s", quote(sep), quote(a.scheme), quote(a.scheme+"://")),
		fixes: []fix{{msg: fmt.Sprintf(`replace %s with "://"`, quote(sep)), edits: []edit{{p, q, "://"}}}}})
	a.stop = p
	return true
}

// hostAt reports whether a host can start at s[i]: a letter, a digit or "[".
func hostAt(s string, i int) bool {
	return i < len(s) && (isAlnum(s[i]) || s[i] == '[')
}

// hostLike reports whether the text from s[i] to the next "/", "?" or "#"
// is clearly a host: it holds a "." or is "localhost", with or without a port.
func hostLike(s string, i int) bool {
	end := len(s)
	if k := strings.IndexAny(s[i:], "/?#"); k >= 0 {
		end = i + k
	}
	h := s[i:end]
	if k := strings.LastIndexByte(h, ':'); k >= 0 && allDigits(h[k+1:]) {
		h = h[:k]
	}
	return strings.EqualFold(h, "localhost") || strings.Contains(h, ".") && !strings.HasSuffix(h, ".")
}

// placeholderPasswords are the words documentation writes where a password
// goes ("ftp://user:password@host/"): an example of the form, not a secret.
var placeholderPasswords = map[string]bool{
	"password": true, "passwd": true, "pass": true, "pwd": true, "pw": true, "secret": true,
	"mypassword": true, "yourpassword": true, "your-password": true, "your_password": true,
	"changeme": true, "xxx": true, "xxxx": true, "xxxxxx": true, "xxxxxxxx": true,
	"***": true, "****": true, "******": true, "********": true, "...": true, "…": true,
	"pass123": true, "password123": true, "secret123": true,
}

// examplePassword reports whether the password text[p0:p1] of a URL whose
// host is host is an example, not a secret to warn about: a placeholder (a
// template, "<password>", "$PASSWORD"), a placeholder word ("password",
// "xxxx"), or any password of a URL to a host reserved for examples and
// tests (RFC 2606, RFC 6761: example.com, .example, .test, .invalid,
// localhost).
func (a *analyzer) examplePassword(p0, p1 int, host string) bool {
	for i := p0; i < p1; i++ {
		if a.isMasked(i) {
			return true
		}
	}
	if placeholderPasswords[strings.ToLower(a.text[p0:p1])] {
		return true
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	for _, d := range []string{"example.com", "example.net", "example.org", "example", "test", "invalid", "localhost"} {
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return host == "127.0.0.1" || host == "[::1]"
}

// allLetters reports whether s is ASCII letters, and not empty.
func allLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if !('a' <= s[i]|0x20 && s[i]|0x20 <= 'z') {
			return false
		}
	}
	return s != ""
}

// portWord reports whether a port is written as a word ("port", "PORT",
// "port_number"): a placeholder for the number.
func portWord(s string) bool {
	return len(s) >= 2 && allLetters(strings.ReplaceAll(s, "_", ""))
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// above reports whether the decimal digits s are a number above max.
func above(s string, max int) bool {
	s = strings.TrimLeft(s, "0")
	if len(s) > 6 {
		return true
	}
	n, _ := strconv.Atoi(s)
	return n > max
}

// authorityChecks runs credentials, port-range and host-range on the parts of
// the authority found by their delimiters, so that they report whether or not
// the URL parses: fixing a syntax error elsewhere never reveals them.
func (a *analyzer) authorityChecks() {
	au, s := a.auth, a.text
	if !au.ok {
		return
	}
	if p0, p1, ok := au.password(s); ok && !a.examplePassword(p0, p1, s[au.hostStart:au.hostEnd]) {
		a.add(finding{start: p0, end: p1, code: codeCredentials,
			msg: "password in the url: whoever sees the url can read it"})
	}
	if au.portStart >= 0 {
		if port := s[au.portStart:au.end]; allDigits(port) && above(port, 65535) {
			a.add(finding{start: au.portStart, end: au.end, code: codePortRange,
				msg: fmt.Sprintf("port %s is above 65535", cut(port))})
		}
	}
	host := s[au.hostStart:au.hostEnd]
	parts := strings.Split(host, ".")
	if len(parts) != 4 {
		return
	}
	for _, p := range parts {
		if !allDigits(p) {
			return
		}
	}
	off := au.hostStart
	for _, p := range parts {
		if above(p, 255) {
			a.add(finding{start: off, end: off + len(p), code: codeHostRange,
				msg: fmt.Sprintf("host number part %s is above 255", cut(p))})
		}
		off += len(p) + 1
	}
}

// maxParses bounds the parse-classify-repair loop of one URL.
const maxParses = 32

// repairBytes replace a byte a character-level code reported, in turn: a
// letter is valid nearly everywhere, a digit in a port or a host number.
var repairBytes = [...]byte{'a', '0'}

// repaired is a copy of the text being repaired for the syntax parse, with
// the text offset of each of its bytes (origin[len(rep)] == len(text)).
type repaired struct {
	rep    []byte
	origin []int
}

// insert puts b before rep[i]; it maps to the text byte rep[i] came from.
func (r *repaired) insert(i int, b byte) {
	r.rep = append(r.rep[:i], append([]byte{b}, r.rep[i:]...)...)
	r.origin = append(r.origin[:i], append([]int{r.origin[i]}, r.origin[i:]...)...)
}

func (r *repaired) remove(i, j int) {
	r.rep = append(r.rep[:i], r.rep[j:]...)
	r.origin = append(r.origin[:i], r.origin[j:]...)
}

// span maps rep[i:j] (j > i) to a text span.
func (r *repaired) span(i, j int) (int, int) {
	return r.origin[i], r.origin[j-1] + 1
}

// syntax parses the repaired text with its scheme's production, turns the
// failures that the forms later RFCs allow cause into rfc1738-unsafe
// findings, repairing them and parsing again, and reports any other failure
// as one syntax finding.
func (a *analyzer) syntax() {
	s := a.text
	r := &repaired{rep: []byte(s), origin: make([]int, len(s)+1)}
	for i := range r.origin {
		r.origin[i] = i
	}
	for i := range r.rep {
		if a.flagged[i] || a.isMasked(i) {
			r.rep[i] = repairBytes[0]
		}
	}
	// A fragment that is a client-side route ("#/room/#urlls:matrix.org",
	// "#!/a#b", as matrix.to and the hash routers of web applications
	// write them) may hold "#": browsers keep it, and the application reads
	// it. Neither grammar allows it; the URL works as written.
	if h := strings.IndexByte(s, '#'); h >= 0 && (strings.HasPrefix(s[h+1:], "/") || strings.HasPrefix(s[h+1:], "!/")) {
		for i := h + 1; i < len(s); i++ {
			if s[i] == '#' {
				r.rep[i] = '/'
			}
		}
	}
	for i := 0; i < len(a.scheme); i++ {
		if c := r.rep[i]; 'A' <= c && c <= 'Z' {
			r.rep[i] = c + 'a' - 'A'
		}
	}
	attempts := map[int]int{}
	for range maxParses {
		in := string(r.rep)
		var err error
		if a.relative {
			_, err = parser.ParseReference(in)
		} else {
			_, err = parser.Parse(in)
		}
		if err == nil {
			a.stop = len(s) + 1
			return
		}
		var se *grammar.SyntaxError
		if !errors.As(err, &se) || se == nil {
			return
		}
		o := min(max(se.Offset, 0), len(r.rep))
		if t := r.origin[o]; a.atPlaceholder(t) {
			a.stop = t // what the placeholder stands for decides
			return
		}
		if a.laterForm(r, se, o) {
			continue
		}
		if o < len(r.rep) {
			if t := r.origin[o]; t < len(s) && a.flagged[t] {
				// Already reported: try another stand-in, else give up
				// rather than report the byte twice.
				if attempts[t]++; attempts[t] < len(repairBytes) {
					r.rep[o] = repairBytes[attempts[t]]
					continue
				}
				a.stop = t
				return
			}
		}
		a.syntaxFinding(r, se, o)
		return
	}
}

// userinfoByte reports the bytes RFC 1738 §3.1 allows in user and password
// (uchar, ";", "?", "&", "=") and the ":" between them; escapes are checked
// already.
func userinfoByte(b byte) bool {
	return isAlnum(b) || strings.IndexByte("$-_.+!*'(),;?&=:%", b) >= 0
}

func ipv6Literal(s string) bool {
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' || !strings.Contains(s, ":") {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if b := s[i]; !isHex(b) && b != ':' && b != '.' {
			return false
		}
	}
	return true
}

func chainHas(se *grammar.SyntaxError, name string) bool {
	for _, r := range se.Chain {
		if r != nil && r.Name == name {
			return true
		}
	}
	return se.Rule != nil && se.Rule.Name == name
}

// laterForm recognises a parse failure at o caused by a form RFC 1738
// forbids and later RFCs allow, reports it and repairs it in r.
func (a *analyzer) laterForm(r *repaired, se *grammar.SyntaxError, o int) bool {
	rs := string(r.rep)
	sch := parser.Scheme(rs)
	if au := parseAuthority(rs, sch); au.ok {
		// RFC 1738 §3.3: "http://<host>:<port>/<path>?<searchpart>", no
		// user or password (RFC 3986 §3.2.1 allows and deprecates them).
		if (sch == "http" || sch == "https") && au.at >= 0 && o >= au.start && o <= au.at {
			ok := true
			for i := au.start; i < au.at; i++ {
				ok = ok && userinfoByte(rs[i])
			}
			if ok {
				t0, t1 := r.span(au.start, au.at+1)
				a.add(finding{start: t0, end: t1, code: codeRFC1738Unsafe,
					msg: fmt.Sprintf("userinfo %s in an %s url: RFC 1738 §3.3 has none (RFC 3986 allows and deprecates it)", quote(a.text[t0:t1]), sch)})
				r.remove(au.start, au.at+1)
				return true
			}
		}
		// RFC 2732, RFC 3986 §3.2.2: an IP literal host.
		if hs, he := au.hostStart, au.hostEnd; o >= hs && o < he && (he == au.end || rs[he] == ':') && ipv6Literal(rs[hs:he]) {
			t0, t1 := r.span(hs, he)
			a.add(finding{start: t0, end: t1, code: codeRFC1738Unsafe,
				msg: fmt.Sprintf("ipv6 literal host %s: RFC 1738 has no IP literals (RFC 2732 added them)", quote(a.text[t0:t1]))})
			r.rep[hs] = 'a'
			r.remove(hs+1, he)
			return true
		}
		// RFC 1738 §3.3: "http://<host>:<port>/<path>?<searchpart>": a
		// search part follows a "/"; RFC 3986 §3.3 allows an empty path.
		if (sch == "http" || sch == "https") && o == au.end && o < len(rs) && rs[o] == '?' {
			t0, t1 := r.span(o, o+1)
			a.add(finding{start: t0, end: t1, code: codeRFC1738Unsafe,
				msg: `"?" right after the host: RFC 1738 §3.3 puts a search part after "/" (RFC 3986 allows an empty path)`})
			r.insert(o, '/')
			return true
		}
		// RFC 3986 §3.2.2: a registered name may end in "." (a fully
		// qualified domain name); RFC 1738 §3.1's hostname may not.
		if hs, he := au.hostStart, au.hostEnd; he-hs > 1 && rs[he-1] == '.' && rs[he-2] != '.' && o >= hs && o <= he && rs[hs] != '[' {
			t0, t1 := r.span(he-1, he)
			a.add(finding{start: t0, end: t1, code: codeRFC1738Unsafe,
				msg: fmt.Sprintf(`trailing "." in host name %s: RFC 1738 §3.1 has none (RFC 3986 allows a fully qualified name)`, quote(a.text[r.origin[hs]:t1]))})
			r.remove(he-1, he)
			return true
		}
		// RFC 3986 §3.2.2: a registered name may hold "_"; RFC 1738 §3.1's
		// hostname is letters, digits and "-" (and so is DNS's preferred
		// name syntax, RFC 1034 §3.5, but names with "_" resolve).
		if hs, he := au.hostStart, au.hostEnd; o >= hs && o <= he && hs < he && rs[hs] != '[' && strings.IndexByte(rs[hs:he], '_') >= 0 {
			first, last := -1, 0
			for k := hs; k < he; k++ {
				if rs[k] == '_' {
					r.rep[k] = 'a' // not "-": a label may not start or end with it
					if first < 0 {
						first = k
					}
					last = k
				}
			}
			t0, _ := r.span(first, first+1)
			_, t1 := r.span(last, last+1)
			a.add(finding{start: t0, end: t1, code: codeRFC1738Unsafe,
				msg: fmt.Sprintf(`"_" in host name %s: RFC 1738 §3.1 allows letters, digits and "-" (RFC 3986 allows it)`, quote(a.text[r.origin[hs]:r.origin[he-1]+1]))})
			return true
		}
		// RFC 3986 §3.2.3: "URI producers and normalizers should omit the
		// port component and its ":" delimiter if port is empty".
		if p := au.portStart; p >= 0 && p == au.end && (o == p || o == p-1) {
			t0, t1 := r.span(p-1, p)
			a.add(finding{start: t0, end: t1, code: codeRFC1738Unsafe,
				msg: `empty port: RFC 1738 requires digits after ":" (RFC 3986 allows none)`})
			r.remove(p-1, p)
			return true
		}
	}
	// RFC 1738 §3.3: "Within the <path> and <searchpart> components, "/",
	// ";", "?" are reserved"; RFC 3986 §3.4 allows "/" and "?" in a query.
	if o < len(rs) && (rs[o] == '/' || rs[o] == '?') && chainHas(se, "search") {
		end := len(rs)
		if k := strings.IndexByte(rs[o:], '#'); k >= 0 {
			end = o + k
		}
		last, slash, question := o, false, false
		for k := o; k < end; k++ {
			switch rs[k] {
			case '/':
				slash = true
			case '?':
				question = true
			default:
				continue
			}
			r.rep[k] = '='
			last = k
		}
		what := `"/" and "?"`
		if !question {
			what = `"/"`
		} else if !slash {
			what = `"?"`
		}
		t0, t1 := r.span(o, last+1)
		a.add(finding{start: t0, end: t1, code: codeRFC1738Unsafe,
			msg: what + ` in a search part: RFC 1738 §3.3 reserves "/" and "?" there (RFC 3986 allows them)`})
		return true
	}
	return false
}

// legacySchemes are the schemes whose current definition is still RFC 1738's
// (RFC 4266 for gopher, RFC 4248 for telnet, RFC 4156 for wais, RFC 4157 for
// prospero restate it; RFC 5538 keeps news and nntp's forms): their paths
// follow its productions. Their authorities follow RFC 3986 §3.2, which
// replaced RFC 1738 §3.1's common Internet scheme syntax for every scheme.
var legacySchemes = map[string]bool{
	"ftp": true, "gopher": true, "news": true, "nntp": true, "telnet": true, "wais": true, "prospero": true,
}

// modernVerdict judges the repaired text, which RFC 1738 rejects at o, by the
// modern syntax (parser.ParseRFC3986). It returns whether that accepts it,
// and, when it does not, where it fails (nil when the failure at o is a rule
// of the scheme's own production that still holds, as for an ftp type).
func (a *analyzer) modernVerdict(rep string, o int) (bool, *grammar.SyntaxError) {
	_, err := parser.ParseRFC3986(rep, a.relative)
	if err != nil {
		var se *grammar.SyntaxError
		if errors.As(err, &se) {
			return false, se
		}
		return false, nil
	}
	sch := strings.ToLower(parser.Scheme(rep))
	au := parseAuthority(rep, sch)
	if legacySchemes[sch] && (!au.ok || o < au.start || o >= au.end) {
		return false, nil
	}
	if au.ok && (authoritySchemes[sch] || sch == "") && o >= au.hostStart && o <= au.hostEnd && !dnsName(rep[au.hostStart:au.hostEnd]) {
		// RFC 3986 §3.2.2: "A registered name intended for lookup in the
		// DNS uses the syntax defined in Section 3.5 of [RFC1034] and
		// Section 2.1 of [RFC1123]"; reg-name alone admits far more.
		return false, nil
	}
	return true, nil
}

// dnsName reports whether host, a registered name (not an IP literal),
// follows the DNS's preferred name syntax as RFC 1123 §2.1 relaxed it
// (labels of letters, digits and "-", not starting or ending with "-", at
// most 63 bytes), with the two liberties names in use take: "_" (service
// names, RFC 2782, and hosts that resolve with it) and a final "." (a fully
// qualified name). An IPv4 address is one too.
func dnsName(host string) bool {
	if host == "" || host[0] == '[' {
		return true // an empty host is the grammar's business; IP literals too
	}
	host = strings.TrimSuffix(host, ".")
	labels := strings.Split(host, ".")
	if top := labels[len(labels)-1]; allDigits(top) && !(len(labels) == 4 && allDigits(strings.Join(labels, ""))) {
		// RFC 1123 §2.1: "the highest-level component label will be
		// alphabetic"; all digits, the name is a broken IPv4 address.
		return false
	}
	for _, label := range labels {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			if b := label[i]; !isAlnum(b) && b != '-' && b != '_' {
				return false
			}
		}
	}
	return true
}

// syntaxFinding reports the parse failure at o of the repaired text, as RFC
// 1738 sees it: the byte where the parse stopped, the production chain it
// was in and what it expected there. It is an error where the modern syntax
// rejects the URL too (modernVerdict), at the failure the later of the two
// parses found; what only RFC 1738 rejects is rfc1738-unsafe.
func (a *analyzer) syntaxFinding(r *repaired, se *grammar.SyntaxError, o int) {
	rep := string(r.rep)
	o = refinedOffset(rep, o, se.Expected)
	t0, t1, msg := a.describeFailure(r, se, o)
	a.stop = t0
	accepted, mse := a.modernVerdict(rep, o)
	if au := parseAuthority(rep, parser.Scheme(rep)); mse != nil && chainHas(mse, "userinfo") && au.at < 0 {
		// RFC 3986's authority = [ userinfo "@" ] host …: without an "@",
		// the furthest failure the matcher finds is in the userinfo it
		// tried first ("h:80a/" fails at "/" for want of an "@"), not where
		// the URL goes wrong; RFC 1738's failure says that better.
		mse = nil
	}
	if mse != nil {
		mse.Offset = refinedOffset(rep, min(max(mse.Offset, 0), len(rep)), mse.Expected)
	}
	if accepted || mse != nil && mse.Offset > o {
		a.add(finding{start: t0, end: t1, code: codeRFC1738Unsafe,
			msg: msg + " (RFC 1738; RFC 3986 allows it)"})
		if accepted {
			return
		}
		m := min(max(mse.Offset, 0), len(r.rep))
		if a.atPlaceholder(r.origin[m]) {
			return
		}
		t0, t1, msg = a.describeFailure(r, mse, m)
	}
	a.add(finding{start: t0, end: t1, code: codeSyntax, msg: msg})
}

// describeFailure words the parse failure se at o of the repaired text: the
// text span of the byte where the parse stopped (the last character at the
// end of the input) and the message naming it, the production chain and what
// was expected there.
func (a *analyzer) describeFailure(r *repaired, se *grammar.SyntaxError, o int) (t0, t1 int, msg string) {
	expected := grammar.JoinExpected(se.Expected)
	if rest, ok := literalRest(string(r.rep), o, se.Expected); ok {
		expected = rest
	}
	found := "end of input"
	if o < len(r.rep) {
		t0 = r.origin[o]
		_, size := utf8.DecodeRuneInString(a.text[t0:])
		t1 = t0 + size
		found = strconv.Quote(a.text[t0:t1])
	} else if len(a.text) > 0 {
		t0, t1 = len(a.text)-1, len(a.text)
		for t0 > 0 && !utf8.RuneStart(a.text[t0]) && t1-t0 < utf8.UTFMax {
			t0--
		}
	}
	var chain []string
	for _, rule := range se.Chain {
		if rule != nil {
			chain = append(chain, rule.Name)
		}
	}
	if len(chain) == 0 && se.Rule != nil {
		chain = []string{se.Rule.Name}
	}
	where := strings.Join(chain, " › ")
	if where == "" {
		where = "url"
	}
	return t0, t1, fmt.Sprintf("unexpected %s in %s: expected %s", found, where, expected)
}

// refinedOffset moves a failure at o where the only thing expected is a
// literal (the "file://" and "http://" that start RFC 1738's productions) to
// where the URL stops matching the literal: "file:PEM" goes wrong at "P",
// not at "f".
func refinedOffset(rep string, o int, exp []string) int {
	lit, ok := onlyLiteral(exp)
	if !ok {
		return o
	}
	k := 0
	for k < len(lit) && o+k < len(rep) && lower(rep[o+k]) == lower(lit[k]) {
		k++
	}
	if k == len(lit) {
		return o
	}
	return o + k
}

// literalRest returns what is still expected at o of a literal the parse
// expected at an earlier offset (refinedOffset): "//" of "file://".
func literalRest(rep string, o int, exp []string) (string, bool) {
	lit, ok := onlyLiteral(exp)
	if !ok {
		return "", false
	}
	for k := 1; k < len(lit) && k <= o; k++ {
		if strings.EqualFold(rep[o-k:o], lit[:k]) {
			return strconv.Quote(lit[k:]), true
		}
	}
	return "", false
}

// onlyLiteral returns the literal when exp expects exactly one.
func onlyLiteral(exp []string) (string, bool) {
	if len(exp) != 1 || len(exp[0]) < 3 || exp[0][0] != '"' {
		return "", false
	}
	lit, err := strconv.Unquote(exp[0])
	return lit, err == nil
}

func lower(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}
