package scan

import (
	"bytes"
	"slices"
	"sort"
	"unicode/utf8"
)

// scanner holds the state of one Scan call.
type scanner struct {
	doc   []byte
	cands []Candidate

	// comments are the comments that may hold a suppression directive,
	// collected when wantComments is set (in plain text, textComments
	// finds them instead).
	wantComments bool
	comments     []comment

	decs  []unit // scratch for bareURL
	attrs []attr // scratch for parseTag
	text  []byte // scratch for emit

	// misses remembers failed searches, so that a search that failed from
	// offset from to lim is not repeated from a later offset: without it, a
	// document of 10 MB of `<a href="` would take quadratic time.
	misses map[string]span
	next   map[string]found // see nextIndex

	brace, braceLim int // the next "{" of HTML text, see actionBefore

	// partFrom and partTo are the part of doc that a scan of a part
	// covers (ScanPlainTextRange), whose candidates growCands predicts;
	// partTo is 0 when the scan covers all of doc. partOpen is set when
	// the scan finds where its part ends (Outline.Rescan): growCands has
	// nothing to predict for then.
	partFrom, partTo int
	partOpen         bool

	rawText int // the length of the texts sorted fills in, at most

	// cut: the last bareURL stopped at a template placeholder of a string
	// literal, or a backslash that ends its line (Candidate.Continued).
	cut bool

	// cr is the first "\r" at or after crFrom (len(doc) if none), once
	// crKnown: see lineEnd.
	crFrom, cr int
	crKnown    bool
}

// lineEnd is the function lineEnd for the line scanners: it returns the
// end of the line at ls (before its line break) and the start of the next
// one. It finds the "\n" with bytes.IndexByte, which is several times as
// fast as searching for "\n" and "\r" together, and remembers the next
// "\r": in most documents there is none, and one search finds that out.
func (sc *scanner) lineEnd(ls, b int) (le, next int) {
	doc := sc.doc
	if ls >= b {
		return b, b
	}
	switch {
	case !sc.crKnown || ls > sc.cr:
		sc.crKnown, sc.crFrom, sc.cr = true, ls, len(doc)
		if k := indexByte(doc[ls:], '\r'); k >= 0 {
			sc.cr = ls + k
		}
	case ls < sc.crFrom: // back, as after a look ahead: search up to where the last search began
		if k := indexByte(doc[ls:sc.crFrom], '\r'); k >= 0 {
			sc.cr = ls + k
		}
		sc.crFrom = ls
	}
	le = b
	if k := indexByte(doc[ls:b], '\n'); k >= 0 {
		le = ls + k
	}
	le = min(le, sc.cr)
	next = le
	if next < b {
		next++
		if doc[le] == '\r' && next < b && doc[next] == '\n' {
			next++
		}
	}
	return le, next
}

type span struct{ start, end int }

// comment is a comment of the document: [start, end) whole, [bodyStart,
// bodyEnd) without its delimiters.
type comment struct {
	start, end, bodyStart, bodyEnd int
}

// comment records the comment doc[start:end], whose body is
// doc[bodyStart:bodyEnd], if it may hold a directive: one whose first word
// starts with "urlls-" (see directive). The others are not kept.
func (sc *scanner) comment(start, end, bodyStart, bodyEnd int) {
	if !sc.wantComments || bodyStart > bodyEnd {
		return
	}
	c := comment{start, end, bodyStart, bodyEnd}
	if p := directiveStart(sc.doc, c); hasPrefix(sc.doc[p:bodyEnd], directivePrefix) {
		sc.comments = append(sc.comments, c)
	}
}

// index returns the offset of the first marker in doc[from:lim], or -1,
// remembering the misses under key (one marker per key).
func (sc *scanner) index(key string, from, lim int, marker string) int {
	if m, ok := sc.misses[key]; ok && m.start <= from && lim <= m.end {
		return -1
	}
	if from < lim {
		if k := indexString(sc.doc[from:lim], marker); k >= 0 {
			return from + k
		}
	}
	if sc.misses == nil {
		sc.misses = make(map[string]span)
	}
	sc.misses[key] = span{from, lim}
	return -1
}

// nextIndex returns the offset of the first marker in doc[from:lim], or -1,
// remembering the answer under key: a later search from an offset up to the
// marker found (or, after a miss, within the span searched) is answered
// without reading the document again, so that searches from increasing
// offsets cost time linear in the document.
func (sc *scanner) nextIndex(key string, from, lim int, marker string) int {
	if sc.next == nil {
		sc.next = make(map[string]found)
	}
	f, ok := sc.next[key]
	if ok && f.from <= from {
		switch {
		case f.at >= from:
			if f.at+len(marker) <= lim {
				return f.at
			}
			return -1
		case f.at < 0 && lim <= f.lim:
			return -1
		}
	}
	at := -1
	if from < lim {
		if k := indexString(sc.doc[from:lim], marker); k >= 0 {
			at = from + k
		}
	}
	sc.next[key] = found{from: from, lim: lim, at: at}
	return at
}

// found is a remembered search of nextIndex: the first marker in
// doc[from:lim] is at at, or there is none (at < 0).
type found struct{ from, lim, at int }

func indexString(b []byte, s string) int { return bytes.Index(b, []byte(s)) }

func indexByte(b []byte, c byte) int { return bytes.IndexByte(b, c) }

// seq is document text doc[start:end] taken as a URL: its bytes stand for
// themselves, except the decoded units in decs (in order). Only decoded units
// are stored, so that a URL of megabytes costs no more than its text.
type seq struct {
	start, end int
	decs       []unit
}

// decodeSeq decodes doc[s:e] in the mode.
func (sc *scanner) decodeSeq(s, e int, mode decodeMode) seq {
	q := seq{start: s, end: e}
	if mode == decRaw {
		return q
	}
	doc := sc.doc
	for k := s; k < e; {
		if c := doc[k]; c != '&' && c != '\\' {
			k++ // only "&" and "\" start a reference or an escape
			continue
		}
		u := decodeAt(doc, k, e, mode)
		if u.dec {
			if n := len(q.decs); n == cap(q.decs) && n >= 1024 {
				// Room for what the references so far predict for the
				// rest (at least doubling), not a quarter more: a URL of
				// 100,000 "&amp;" copied 6 MB of units into fresh memory,
				// most of its check. The units live only until the
				// candidate is made, and a unit takes two bytes of the
				// text at least, so a prediction that a sparse rest
				// belies costs little, and for a moment.
				want := int(int64(n) * int64(e-s) / int64(k-s))
				q.decs = slices.Grow(q.decs, max(want+want/8, 2*n)-n)
			}
			q.decs = append(q.decs, u)
		}
		k = u.end
	}
	return q
}

// at returns the unit of q that starts at p.
func (q *seq) at(doc []byte, p int) unit {
	i := sort.Search(len(q.decs), func(i int) bool { return q.decs[i].start >= p })
	if i < len(q.decs) && q.decs[i].start == p {
		return q.decs[i]
	}
	return decodeAt(doc, p, q.end, decRaw)
}

// before returns the unit of q that ends at p. Decoded units end in an ASCII
// byte, so decoding a raw rune backwards never reaches into one.
func (q *seq) before(doc []byte, p int) unit {
	if len(q.decs) == 0 && doc[p-1] < utf8.RuneSelf {
		return unit{p - 1, p, rune(doc[p-1]), -1, false} // no search, no decoding
	}
	i := sort.Search(len(q.decs), func(i int) bool { return q.decs[i].end >= p })
	if i < len(q.decs) && q.decs[i].end == p {
		return q.decs[i]
	}
	r, n := utf8.DecodeLastRune(doc[q.start:p])
	return unit{p - n, p, r, -1, false}
}

// sub returns the part of q between the unit boundaries a and b.
func (q seq) sub(a, b int) seq {
	i := sort.Search(len(q.decs), func(i int) bool { return q.decs[i].start >= a })
	j := sort.Search(len(q.decs), func(j int) bool { return q.decs[j].start >= b })
	return seq{a, b, q.decs[i:j]}
}

// iter steps through the units of q from its start.
type iter struct {
	q     *seq
	doc   []byte
	p, di int
}

func (q *seq) iter(doc []byte) iter { return iter{q: q, doc: doc, p: q.start} }

func (it *iter) next() (unit, bool) {
	if it.p >= it.q.end {
		return unit{}, false
	}
	var u unit
	if it.di < len(it.q.decs) && it.q.decs[it.di].start == it.p {
		u = it.q.decs[it.di]
		it.di++
	} else {
		u = decodeAt(it.doc, it.p, it.q.end, decRaw)
	}
	it.p = u.end
	return u, true
}

// emit records q as a candidate. Offsets is left nil when the text is the
// document's bytes, unchanged.
func (sc *scanner) emit(q seq, ctx Context, rel bool) {
	if q.start >= q.end {
		return
	}
	doc := sc.doc
	if sc.cands == nil {
		// Room for eight at once: growing from one by doubling takes
		// four allocations for as many.
		sc.cands = make([]Candidate, 0, 8)
	}
	c := Candidate{Start: q.start, End: q.end, Context: ctx, Relative: rel}
	if len(sc.cands) == cap(sc.cands) {
		sc.growCands(q.end)
	}
	if len(q.decs) == 0 {
		// Text is doc[Start:End]: sorted fills it in, for every such
		// candidate from one string.
		sc.cands = append(sc.cands, c)
		sc.rawText += q.end - q.start
		return
	}
	buf := sc.text[:0]
	offs := make([]int, 0, q.end-q.start+1)
	k := q.start
	raw := func(e int) {
		buf = append(buf, doc[k:e]...)
		for ; k < e; k++ {
			offs = append(offs, k)
		}
	}
	for _, u := range q.decs {
		raw(u.start)
		n := len(buf)
		buf = u.appendText(buf, doc)
		for j := 0; j < len(buf)-n; j++ {
			offs = append(offs, u.start+j)
		}
		k = u.end
	}
	raw(q.end)
	c.Text = string(buf)
	c.Offsets = append(offs, q.end)
	sc.text = buf
	sc.cands = append(sc.cands, c)
}

// growCands makes room for more candidates, the last one ending at end.
// The room at least doubles: append grows a large slice by a quarter, and
// a line of 40k URLs would allocate four times their candidates' size and
// copy them a dozen times over. Past a few dozen, it is what the density
// so far predicts for the part of the document scanned (all of it but for
// a re-scan of an edit): a document of URLs allocates their candidates
// about once (the memory a check of it touches is what it costs: the page
// faults of fresh memory were a third of the time of a line of 40k URLs),
// a document with fewer URLs after its start than in it has room to
// spare, which is never written. A re-scan whose end is not known
// (partOpen) only doubles: the density of its window says nothing of the
// document's size, and a keystroke in a list of 300 links at the start of
// 1 MB would allocate room for 25k candidates.
func (sc *scanner) growCands(end int) {
	n := len(sc.cands)
	want := 2 * n
	from, to := sc.partFrom, sc.partTo
	if to == 0 {
		to = len(sc.doc)
	}
	if n >= 64 && end > from && !sc.partOpen {
		predicted := int(int64(n) * int64(to-from) / int64(end-from))
		// At most a candidate every four bytes ("a:b "), as no more fit.
		want = max(want, min(predicted+predicted/8, (to-from)/4))
	}
	sc.cands = slices.Grow(sc.cands, want-n)
}

// bareOpts are the rules of one context for bare URLs.
type bareOpts struct {
	mode decodeMode
	// ctx is the context of the URLs found; Bare becomes Quoted after a
	// quotation mark.
	ctx Context
	// code: in a string literal of code, the start of a template
	// placeholder ("{", "${", "#{", a printf verb such as "%s") ends the
	// URL: what follows is not literal URL text, and a URL cut there is
	// still checked up to it.
	code bool
	// entityTail: GFM excludes a trailing "&name;" from an autolink
	// (Markdown text, where such a name is not an entity).
	entityTail bool
	// brackets: "[" and "]" end the URL (AsciiDoc, where a URL is never
	// written with them: "https://example.org[text]" is a link macro).
	brackets bool
	// pipe: "|" ends the URL (AsciiDoc tables, where it separates cells).
	pipe bool
	// concatEnd, when not 0, is the end of a string literal's text that
	// the program concatenates with what follows ('http://user@' + host):
	// a URL that runs to it is Continued.
	concatEnd int
}

// scanBare finds the bare URLs of doc[a:b]: a scheme-shaped word at a word
// boundary (schemeBoundary) that schemeStart accepts: "scheme://" for any scheme,
// a known scheme followed by what its syntax needs ("mailto:a@b.c",
// "urn:isbn:…", "file:/x"), or a typo of a common one ("https//host",
// "http::host.example"). bareURL decides where the URL ends.
//
// Every such word ends at a ":" or "/", so the scan jumps from one to the
// next (bytes.IndexByte, each remembered until it is passed; in a gap of
// shortGap bytes or less, index2 for both) and reads the
// word back from there: its scheme characters, from the first letter after
// the last byte that is not one, or after the end of the previous URL.
// That is the word a reader going forward from the previous URL takes
// (bareWords in the tests, against which this is fuzzed).
func (sc *scanner) scanBare(a, b int, o bareOpts) {
	doc := sc.doc
	colon, slash := a-1, a-1 // the next ":" and "/" at or after i (b for none), once searched
	for i := a; i < b; {
		var j int
		if b-i <= shortGap {
			// A short gap, as between the links and code spans of
			// Markdown: one search for both costs less than two calls.
			j = b
			if k := index2(doc[i:b], ':', '/'); k >= 0 {
				j = i + k
			}
		} else {
			if colon < i {
				colon = nextByte(doc, i, b, ':')
			}
			if slash < i {
				slash = nextByte(doc, i, b, '/')
			}
			j = min(colon, slash)
		}
		if j >= b {
			return
		}
		i = sc.bareStep(i, j, b, o)
	}
}

// bareStep looks for a bare URL whose scheme-shaped word ends at the ":"
// or "/" doc[j], reading it back to i at most, and returns where the search
// goes on: after the URL, or after doc[j].
func (sc *scanner) bareStep(i, j, b int, o bareOpts) int {
	doc := sc.doc
	s := j
	for s > i && isSchemeChar(doc[s-1]) {
		s--
	}
	for s < j && !isAlpha(doc[s]) {
		s++
	}
	if s < j && schemeBoundary(doc, s) {
		if end, ok := sc.bareAt(s, j, b, o); ok {
			return end
		}
	}
	return j + 1
}

// shortGap is the length of text up to which scanBare searches for ":"
// and "/" together, eight bytes a step, rather than with bytes.IndexByte
// for each.
const shortGap = 24

// bareAt emits the bare URL whose scheme-shaped word doc[i:j] is at a word
// boundary, if schemeStart accepts it, and returns its end.
func (sc *scanner) bareAt(i, j, b int, o bareOpts) (int, bool) {
	doc := sc.doc
	if escapeLetterAt(doc, i) && i+1 < j && isAlpha(doc[i+1]) {
		// "URL:\nhttps://x.org", "\thttps://x.org": the letter is an
		// escape sequence's (a line break, a tab), not the scheme's.
		i++
	}
	if i > 0 && doc[i-1] == '^' {
		// "^https://([^.]+)\.github\.io/": a regular expression
		// anchored at its start, a pattern of URLs and not one.
		return 0, false
	}
	colon, ok := schemeStart(doc, i, j, b)
	if !ok {
		return 0, false
	}
	if roleForHost(doc, colon, b) {
		// "https://:code:`<resource-name>`.api.cognitiveservices.azure.com":
		// reStructuredText markup stands for the host; a form of URLs.
		return 0, false
	}
	if linkTagBefore(doc, i) {
		// "{@link https://x.org/a|the text}": JSDoc's "|" (and the
		// "}" that closes the tag) end the URL; what follows is the
		// link's text.
		o.pipe = true
	}
	var quote rune
	if o.ctx == Bare && i > 0 {
		switch r, _ := utf8.DecodeLastRune(doc[:i]); r {
		case '"', '“':
			o.ctx = Quoted
		case '\'':
			o.ctx, quote = Quoted, '\''
		case '‘':
			o.ctx = Quoted
		}
	} else if o.ctx == Code && i > 0 && doc[i-1] == '\'' {
		// In a comment or a string literal too, "'https://'로" (a Korean
		// particle after the quote) ends at the quote.
		quote = '\''
	}
	sc.cut = false
	q, ok := sc.bareURL(i, colon, b, o, quote)
	if !ok {
		return 0, false
	}
	n := len(sc.cands)
	sc.emit(q, o.ctx, false)
	if len(sc.cands) > n && (sc.cut || o.concatEnd > 0 && q.end == o.concatEnd) {
		sc.cands[n].Continued = true
	}
	return q.end, true
}

// maxRoleName bounds the name of a reStructuredText role that roleForHost
// looks for.
const maxRoleName = 32

// roleForHost reports whether the "://" at doc[colon] is followed by
// reStructuredText's interpreted text with a role (":code:`", ":samp:`"),
// as Azure's generated docstrings write a form of URLs:
// "https://:code:`<resource-name>`.api.cognitiveservices.azure.com". No host
// starts with ":" (RFC 3986 §3.2.2), nor does a port hold a letter and then
// a "`" (§3.2.3): the markup stands for the host.
func roleForHost(doc []byte, colon, b int) bool {
	k := colon + 4
	if k >= b || !hasPrefix(doc[colon:b], "://:") || !isAlpha(doc[k]) {
		return false
	}
	n := k
	for k < b && k-n < maxRoleName && isNameByte(doc[k]) {
		k++
	}
	return hasPrefix(doc[k:b], ":`")
}

// escapeLetterAt reports whether doc[i] is the letter of a backslash
// escape sequence of string literals that stands for a control character
// ("\n", "\t", "\r", "\f", "\v", and "\b", which is a word boundary in a
// regular expression): the backslash before it is not itself escaped.
func escapeLetterAt(doc []byte, i int) bool {
	if i == 0 || doc[i-1] != '\\' {
		return false
	}
	switch doc[i] {
	case 'n', 't', 'r', 'f', 'v', 'b':
	default:
		return false
	}
	n := 0
	for k := i - 1; k >= 0 && doc[k] == '\\' && n < 64; k-- {
		n++
	}
	return n%2 == 1
}

// linkTags are the inline tags of JSDoc and TSDoc whose target may be a
// URL: "{@link https://x.org/a|text}", "{@link https://x.org/a text}",
// "[text]{@link https://x.org/a}".
var linkTags = []string{"{@link", "{@linkcode", "{@linkplain"}

// maxLinkTagGap bounds the white space and comment decoration (" * " at
// the start of a comment's next line) between an inline link tag and its
// URL.
const maxLinkTagGap = 32

// linkTagBefore reports whether the URL at doc[i] is the target of a
// JSDoc or TSDoc inline link tag (linkTags): the tag, then white space,
// which may break the line and hold a block comment's "*" decoration
// ("{@link\n *   https://x.org/a|text}"). There a "|" separates the URL
// from the link's text: JSDoc's syntax, not a character of the URL.
func linkTagBefore(doc []byte, i int) bool {
	k, breaks := i, 0
	for k > 0 && i-k < maxLinkTagGap {
		switch c := doc[k-1]; c {
		case '\n', '\r':
			// One line break ("\n", "\r\n" or a lone "\r"): a blank line
			// ends the paragraph (and is where Rescan restarts, reading
			// nothing before it).
			if c == '\n' || k >= len(doc) || doc[k] != '\n' {
				if breaks++; breaks > 1 {
					return false
				}
			}
			k--
			continue
		case ' ', '\t', '*':
			k--
			continue
		}
		break
	}
	if k == i || doc[i-1] == '*' {
		return false
	}
	for _, t := range linkTags {
		if k >= len(t) && string(doc[k-len(t):k]) == t {
			return true
		}
	}
	return false
}

// maxEscapedLineLook bounds how far before a URL newlineEscape looks for
// the "\n\n" of a text written with escapes, so that the look costs no more
// than a constant per URL.
const maxEscapedLineLook = 2048

// newlineEscape reports whether the "\" at doc[i], in the URL that starts at
// doc[s], starts a "\n", "\r" or "\t" that a program turns into a line break
// or a tab, which ends the URL: where the escape is followed by another
// backslash or by what ends a URL ("http://whois.domaintools.com/<ip>\n\n"),
// or where the text before the URL on its line breaks a paragraph with
// "\n\n" or "\n\r\n" ("message = Dear Sir/Madam,\n\n…
// https://abusix.com/abuse-contact-db\nabusix.com is …", fail2ban's mail
// actions, which printf "%b" expands; the code that a source map's
// sourcesContent or a bundle's string holds). A URL never holds a "\" (RFC
// 3986 §2), so no URL written right is cut; a Windows path written as a
// file URL ("file:///C:\new", "file:///C:\temp") keeps its backslashes, to
// be reported.
func newlineEscape(doc []byte, s, i, lim int) bool {
	if i+1 >= lim || doc[i+1] != 'n' && doc[i+1] != 'r' && doc[i+1] != 't' {
		return false
	}
	if j := i + 2; j >= lim || doc[j] == '\\' || doc[j] < utf8.RuneSelf && endsURL(rune(doc[j])) {
		return true
	}
	for k := s - 1; k >= 3 && k >= s-maxEscapedLineLook && doc[k] != '\n' && doc[k] != '\r'; k-- {
		if (doc[k] == 'n' || doc[k] == 'r') && doc[k-1] == '\\' && doc[k-2] == 'n' && doc[k-3] == '\\' {
			return true
		}
	}
	return false
}

// bareURL returns the bare URL whose scheme is doc[s:colon], or false when
// after trimming nothing but punctuation follows the scheme ("http://",
// "http://.", "http://#" are prose, not URLs to check).
//
// The URL runs to the first character that endsURL, the quote it stands in
// (when quote is not 0), or a closing ")", "]" or "}" that has no opening
// partner in the URL; this keeps https://en.wikipedia.org/wiki/Foo_(bar)
// whole and leaves out the ")" of "(see http://example.com)" and the "]" of
// "[http://example.com]". Template syntax does not end it: a template action
// ("{{ .Site.BaseURL }}", "{% url 'x' %}", "<%= path %>", closed on its
// line within maxTemplate bytes) is stepped over whole, spaces, quotes and
// "<" included, and so is a placeholder "<name>" after "/", "=", ":" or "@"
// ("https://github.com/<user>/<repo>"), which is not an HTML tag name: the
// checks mask what Placeholders finds. Then, repeatedly, a trailing character
// of `trailing`, a trailing "|" outside Markdown, a trailing "'" when the URL
// holds an odd number of them, and a trailing "…" are dropped.
func (sc *scanner) bareURL(s, colon, lim int, o bareOpts, quote rune) (seq, bool) {
	doc := sc.doc
	decs := sc.decs[:0]
	var depth [3]int
	quotes := 0
	stepped := false             // over a template or placeholder
	opened := [3]int{-1, -1, -1} // where the outermost "[" and "{" open at i opened
	i := s
	lastDec := func(at int) bool { return len(decs) > 0 && decs[len(decs)-1].end == at }
	plain := &plainURLByte
	if !o.code {
		plain = &plainTextURLByte
	}
scan:
	for i < lim {
		if plain[doc[i]] {
			i++ // decodes to itself, and neither ends the URL nor opens anything
			continue
		}
		u := decodeAt(doc, i, lim, o.mode)
		r := u.r
		if !u.dec && !o.code && (r == '{' || r == '<') {
			if e := sc.templateEnd(i, lim); e > 0 {
				i, stepped = e, true
				continue
			}
			if r == '<' && i > colon+1 {
				if e := namePlaceholder(doc, i, lim); e > 0 {
					i, stepped = e, true
					continue
				}
			}
		}
		if endsURL(r) || r == quote && quote != 0 {
			break
		}
		if r == '\\' && !u.dec && newlineEscape(doc, s, i, lim) {
			break
		}
		if r == '&' && !u.dec && delimiterRef(doc, i, lim) {
			break
		}
		if !u.dec && (o.brackets && (r == '[' || r == ']') || o.pipe && r == '|') {
			break
		}
		if r < utf8.RuneSelf {
			switch r {
			case '(', '[', '{':
				if r == '{' && o.code && !u.dec {
					// "${…}" and "#{…}" interpolate; "{…}" is a
					// format or URI-template placeholder.
					if i > colon+1 && !lastDec(i) && (doc[i-1] == '$' || doc[i-1] == '#') {
						i--
					} else if o.mode == decString && i > colon+2 && doc[i-1] == 'N' && doc[i-2] == '\\' && !lastDec(i-1) {
						// "\N{COMET}" names a character (Python):
						// not one to look up here, and no URL text.
						i -= 2
					}
					sc.cut = true
					break scan
				}
				if k := bracket(r); r != '(' && depth[k] == 0 {
					opened[k] = i
				}
				depth[bracket(r)]++
			case ')', ']', '}':
				k := bracket(r)
				if depth[k] == 0 {
					break scan
				}
				depth[k]--
			case '\'':
				quotes++
			case ',':
				if !u.dec && listComma(doc, i, lim) {
					break scan
				}
			case '|':
				if !u.dec && urlFollows(doc, i, lim) {
					// url="ksi+tcp://a.example.com|ksi+tcp://b.example.com"
					// (rsyslog's list of signing services): the
					// bar separates the items of a list.
					break scan
				}
			case '%':
				if o.code && !u.dec && !(i+2 < lim && isHex(doc[i+1]) && isHex(doc[i+2])) && printfVerb(doc, i+1, lim) {
					sc.cut = true
					break scan
				}
			}
		}
		if u.dec {
			decs = append(decs, u)
		}
		i = u.end
	}
	if cut := spacedTextOpen(doc, opened, depth, i, lim); cut >= 0 && (o.mode == decRaw || o.mode == decComment) && !o.code {
		// "https://x.org/y[the text]" in plain text: an AsciiDoc link
		// macro in a file too short on markers to be read as AsciiDoc;
		// "vault://{vault node}": a placeholder of words.
		i = cut
		for len(decs) > 0 && decs[len(decs)-1].end > i {
			decs = decs[:len(decs)-1]
		}
	}
	sc.decs = decs
	q := seq{start: s, end: i, decs: decs}
	keep := colon + 1     // the scheme and ":" stay
	escapedQuote := false // the unit dropped last was a "\" that escaped the closing quote
trim:
	for q.end > keep {
		u := q.before(doc, q.end)
		afterEscape := escapedQuote
		escapedQuote = false
		switch {
		case u.r == ';' && o.entityTail && !u.dec:
			k := u.start - 1
			for k >= keep && isAlnum(doc[k]) && !lastDec(k+1) {
				k--
			}
			if k >= keep && k < u.start-1 && doc[k] == '&' && !lastDec(k+1) {
				q.end = k
				continue
			}
		case u.r < utf8.RuneSelf && trailing[u.r]:
		case u.r == '|' && !o.entityTail && !u.dec:
			// Outside Markdown (whose autolinks keep it, GFM 6.9) a
			// "|" that ends a URL is a text table's border or the bar
			// of a Vim help tag ("|  fetch://host/path|"): no URL
			// grammar allows it there unencoded.
		case u.r == '\\' && !u.dec && (afterEscape || u.end < len(doc) && (doc[u.end] == '"' || doc[u.end] == '\'')):
			// A backslash before the quotation mark that ends the URL
			// escapes it: the URL was quoted in an escaped string, as
			// logs and JSON in text write it ("Get \"http://h/ready\": ...").
			// Escaped twice, the backslashes before it are all escapes
			// (JSON in a string literal, as a generated doc comment shows
			// it: \\"https://oauth2.googleapis.com/token\\").
			escapedQuote = true
		case u.r == '\\' && !u.dec && u.end < len(doc) && (doc[u.end] == '\n' || doc[u.end] == '\r'):
			// A backslash that ends its line continues the line: a
			// comment's, a raw string's, a Makefile's (a hard line
			// break in Markdown, CommonMark §6.7), where a URL too long
			// for its line is wrapped ("# from http://x.org/tip/1425/\"
			// then "# working-with-constraints/"). It is no URL text,
			// and the URL goes on past it: its end is not the URL's.
			sc.cut = true
		case u.r == '\'' && quotes%2 == 1:
			quotes--
		case u.r == '…':
		default:
			break trim
		}
		q.end = u.start
		if u.dec {
			decs = decs[:len(decs)-1]
		}
	}
	q.decs = decs
	if stepped && q.end > keep {
		return q, true
	}
	if len(q.decs) == 0 {
		// Every unit is the document's rune: a byte past the colon that
		// is alphanumeric, "%" or non-ASCII (part of a rune of its own,
		// or utf8.RuneError) is a unit that qualifies, without decoding.
		for _, c := range doc[colon+1 : max(colon+1, q.end)] {
			if c >= utf8.RuneSelf || isAlnum(c) || c == '%' {
				return q, true
			}
		}
		return q, false
	}
	it := q.iter(doc)
	for u, ok := it.next(); ok; u, ok = it.next() {
		if u.start > colon && (u.r >= utf8.RuneSelf || isAlnum(byte(u.r)) || u.r == '%') {
			return q, true
		}
	}
	return q, false
}

// delimiterRefs are the character references of the characters that end
// a URL in text: "<", ">" and the quotation mark.
var delimiterRefs = []string{"&lt;", "&gt;", "&quot;", "&#60;", "&#62;", "&#34;", "&#x3c;", "&#x3e;", "&#x22;"}

// delimiterRef reports whether a character reference to "<", ">" or '"'
// starts at doc[i] == '&' (any case). Where references are not decoded (plain
// text, comments, string literals), such a reference is HTML written as
// text, escaped: a Javadoc or JSDoc comment's "&lt;a href=&quot;http://x.org&quot;&gt;"
// or "http://x.org&lt;/a&gt;". It ends the URL, as the character it stands for
// would; no URL spells these characters so.
func delimiterRef(doc []byte, i, lim int) bool {
	for _, ref := range delimiterRefs {
		if hasPrefixFold(doc[i:lim], ref) {
			return true
		}
	}
	return false
}

// plainURLByte are the ASCII bytes that bareURL takes as they are in every
// context: no decoding starts at them (only "&" and "\" do), they end no
// URL, open no bracket, quote or template, and are no printf verb's "%".
var plainURLByte = func() (t [256]bool) {
	for c := '0'; c <= 'z'; c++ {
		t[c] = isAlnum(byte(c))
	}
	for _, c := range "/.-_~=?#:+;!*@$" {
		t[c] = true
	}
	return t
}()

// listComma reports whether the "," at doc[i] separates the items of a
// list of URLs rather than being part of the URL before it: a URL follows
// it ("--listen-client-urls http://0.0.0.0:2379,http://127.0.0.1:4001",
// Kafka's and Consul's lists), or one of Go's GOPROXY keywords "direct" and
// "off" does and ends the list ("GOPROXY=https://proxy.golang.org,direct",
// go help goproxy; not "?state=on,off&level=50").
func listComma(doc []byte, i, lim int) bool {
	k := i + 1
	for _, kw := range []string{"direct", "off"} {
		if e := k + len(kw); hasPrefix(doc[k:lim], kw) && (e == lim || listEnd(doc[e])) {
			return true
		}
	}
	return urlFollows(doc, i, lim)
}

// urlFollows reports whether a URL with an authority follows the separator
// at doc[i], a "," or a "|" that then separates the items of a list of URLs:
// a scheme shorter than 32 bytes, then "://".
func urlFollows(doc []byte, i, lim int) bool {
	k := i + 1
	if k >= lim || !isAlpha(doc[k]) {
		return false
	}
	for k < lim && k-i < 32 && isSchemeChar(doc[k]) {
		k++
	}
	return hasPrefix(doc[k:lim], "://")
}

// listEnd reports whether c may follow the last item of a list of URLs:
// white space, a quotation mark or the punctuation after a value.
func listEnd(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '"', '\'', '`', ')', ';', ',':
		return true
	}
	return false
}

// plainTextURLByte is plainURLByte outside string literals of code
// (bareOpts.code unset), where "%" is no printf verb's either: a URL of
// "%"s is read a table lookup a byte.
var plainTextURLByte = func() (t [256]bool) {
	t = plainURLByte
	t['%'] = true
	return t
}()

func bracket(r rune) int {
	switch r {
	case '(', ')':
		return 0
	case '[', ']':
		return 1
	}
	return 2
}

// maxTemplate bounds the length of a template action inside a bare URL.
const maxTemplate = 256

// templateEnd returns the end of the template action at doc[i] ("{{ … }}",
// "{{{ … }}}", "{% … %}", "<% … %>"), closed on its line within
// maxTemplate bytes, or 0. The searches are remembered (nextIndex), so that
// a line of "{{" stays linear.
func (sc *scanner) templateEnd(i, lim int) int {
	doc := sc.doc
	var key, close string
	switch {
	case hasPrefix(doc[i:lim], "{{"):
		key, close = "bare}}", "}}"
	case hasPrefix(doc[i:lim], "{%"):
		key, close = "bare%}", "%}"
	case hasPrefix(doc[i:lim], "<%"):
		key, close = "bare%>", "%>"
	default:
		return 0
	}
	k := sc.nextIndex(key, i+2, lim, close)
	if k < 0 || k+2-i > maxTemplate {
		return 0
	}
	if nl := sc.nextIndex("bare\n", i+2, lim, "\n"); nl >= 0 && nl < k {
		return 0
	}
	end := k + 2
	if close == "}}" && doc[i+2] == '{' && end < lim && doc[end] == '}' {
		end++ // Handlebars' "{{{ … }}}"
	}
	return end
}

// spacedTextOpen returns where the first "[" or "{" still open where a
// URL stopped at doc[stop] opened, when it opens a text of words, or -1: a
// letter follows it, the URL stopped at a space, and its closing bracket
// ends the text on the same line, within maxTemplate bytes. No URL holds a
// space, so such a bracket is the prose's, not a broken URL's: an AsciiDoc
// link macro's text ("https://x.org/y[Git for Computer Scientists]", git's
// MyFirstObjectWalk.txt) or a placeholder ("vault://{vault node}",
// Vault's changelog).
func spacedTextOpen(doc []byte, opened [3]int, depth [3]int, stop, lim int) int {
	if stop >= lim || doc[stop] != ' ' && doc[stop] != '\t' {
		return -1
	}
	cut := -1
	for k, closer := range [3]byte{0, ']', '}'} {
		open := opened[k]
		if closer == 0 || depth[k] == 0 || open < 0 || open+1 >= lim || !isAlpha(doc[open+1]) {
			continue
		}
		end := min(lim, open+maxTemplate)
		if end <= stop {
			continue
		}
		rest := doc[stop:end]
		if nl := bytes.IndexAny(rest, "\r\n"); nl >= 0 { // a lone CR ends a line too
			rest = rest[:nl]
		}
		if bytes.IndexByte(rest, closer) >= 0 && (cut < 0 || open < cut) {
			cut = open
		}
	}
	return cut
}

// htmlTagNames are the names of HTML elements met in running text: a
// "<name>" that is one of them is markup, not a placeholder.
var htmlTagNames = map[string]bool{
	"a": true, "abbr": true, "b": true, "big": true, "br": true, "center": true, "cite": true,
	"del": true, "dfn": true, "div": true, "em": true, "font": true, "hr": true, "i": true,
	"img": true, "ins": true, "kbd": true, "li": true, "mark": true, "nobr": true, "ol": true,
	"p": true, "pre": true, "q": true, "s": true, "small": true, "span": true, "strike": true,
	"strong": true, "sub": true, "sup": true, "td": true, "th": true, "tr": true, "tt": true,
	"u": true, "ul": true, "wbr": true,
}

// namePlaceholder returns the end of a placeholder "<name>" at doc[i]
// inside a URL, or 0: after "/", "=", ":" or "@", a letter, then letters,
// digits, "_", "-" and "." (no spaces: in running text a space ends the
// URL), ">", within maxPlaceholder bytes, and a name that is not an HTML tag
// name ("<b>", "<br>").
func namePlaceholder(doc []byte, i, lim int) int {
	switch doc[i-1] {
	case '/', '=', ':', '@':
	default:
		return 0
	}
	k := i + 1
	if k >= lim || !isAlpha(doc[k]) {
		return 0
	}
	for k < lim && k-i < maxPlaceholder && (isWordByte(doc[k]) || doc[k] == '-' || doc[k] == '.') {
		k++
	}
	if k >= lim || doc[k] != '>' {
		return 0
	}
	var buf [8]byte
	if n := doc[i+1 : k]; len(n) <= len(buf) {
		for x, c := range n {
			buf[x] = lower(c)
		}
		if htmlTagNames[string(buf[:len(n)])] {
			return 0
		}
	}
	return k + 1
}

// printfVerb reports whether doc[j:] (after a "%") is the rest of a printf
// or Python %-format placeholder: flags, width, precision and a verb letter
// ("%s", "%-10v", "%.2f", "%(name)s", "%%").
func printfVerb(doc []byte, j, lim int) bool {
	end := min(lim, j+24)
	if j < end && doc[j] == '(' {
		for j++; j < end && (isAlnum(doc[j]) || doc[j] == '_'); j++ {
		}
		if j >= end || doc[j] != ')' {
			return false
		}
		j++
	}
	for j < end && (isDigit(doc[j]) || doc[j] == '-' || doc[j] == '+' || doc[j] == '#' || doc[j] == ' ' || doc[j] == '.' || doc[j] == '*' || doc[j] == '$') {
		j++
	}
	if j >= end {
		return false
	}
	switch doc[j] {
	case 'b', 'c', 'd', 'e', 'E', 'f', 'F', 'g', 'G', 'i', 'o', 'O', 'p', 'q', 's', 'S', 't', 'T', 'u', 'U', 'v', 'x', 'X', '%':
		return true
	}
	return false
}
