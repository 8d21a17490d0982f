package scan

import (
	"bytes"
	"sort"
	"unicode/utf8"
)

// scanner holds the state of one Scan or Suppressions call.
type scanner struct {
	doc   []byte
	cands []Candidate

	// comments are collected for Suppressions.
	wantComments bool
	comments     []comment
	quiet        bool // find comments only: emit nothing

	decs  []unit // scratch for bareURL
	attrs []attr // scratch for parseTag
	text  []byte // scratch for emit

	// misses remembers failed searches, so that a search that failed from
	// offset from to lim is not repeated from a later offset: without it, a
	// document of 10 MB of `<a href="` would take quadratic time.
	misses map[string]span
}

type span struct{ start, end int }

// comment is a comment of the document: [start, end) whole, [bodyStart,
// bodyEnd) without its delimiters.
type comment struct {
	start, end, bodyStart, bodyEnd int
}

func (sc *scanner) comment(start, end, bodyStart, bodyEnd int) {
	if sc.wantComments && bodyStart <= bodyEnd {
		sc.comments = append(sc.comments, comment{start, end, bodyStart, bodyEnd})
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
	if q.start >= q.end || sc.quiet {
		return
	}
	doc := sc.doc
	c := Candidate{Start: q.start, End: q.end, Context: ctx, Relative: rel}
	if len(q.decs) == 0 {
		c.Text = string(doc[q.start:q.end])
		sc.cands = append(sc.cands, c)
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

// bareOpts are the rules of one context for bare URLs.
type bareOpts struct {
	mode decodeMode
	// ctx is the context of the URLs found; Bare becomes Quoted after a
	// quotation mark.
	ctx Context
	// code: in a string literal of code, the start of a template
	// placeholder ("{", "${", "#{", a printf verb such as "%s") ends the URL:
	// what follows is not literal URL text.
	code bool
	// entityTail: GFM excludes a trailing "&name;" from an autolink
	// (Markdown text, where such a name is not an entity).
	entityTail bool
}

// scanBare finds the bare URLs of doc[a:b]: a known scheme at a word
// boundary (not after a letter, digit, "+", "-" or ".", the characters of a
// scheme name: "xhttp://" and "1.http://" are not URLs, "(http://", "_http://"
// and "text:http://" are), then ":" ("://" for the RFC 1738 §4 reserved
// schemes). A non-ASCII letter before the scheme does not prevent it: CJK
// text has no spaces between words and URLs.
func (sc *scanner) scanBare(a, b int, o bareOpts) {
	doc := sc.doc
	i := a
	for i < b {
		c := doc[i]
		if !isAlpha(c) {
			i++
			continue
		}
		j := i + 1
		for j < b && isSchemeChar(doc[j]) {
			j++
		}
		if i > 0 && isSchemeChar(doc[i-1]) || j >= b || doc[j] != ':' {
			i = j
			continue
		}
		switch lookupScheme(doc[i:j]) {
		case schemeUnknown:
			i = j
			continue
		case schemeReserved:
			if j+3 > b || doc[j+1] != '/' || doc[j+2] != '/' {
				i = j
				continue
			}
		}
		oo := o
		var quote rune
		if o.ctx == Bare && i > 0 {
			switch r, _ := utf8.DecodeLastRune(doc[:i]); r {
			case '"', '“':
				oo.ctx = Quoted
			case '\'':
				oo.ctx, quote = Quoted, '\''
			case '‘':
				oo.ctx = Quoted
			}
		}
		q, ok := sc.bareURL(i, j, b, oo, quote)
		if !ok {
			i = j + 1
			continue
		}
		sc.emit(q, oo.ctx, false)
		i = q.end
	}
}

// bareURL returns the bare URL whose scheme is doc[s:colon], or false when
// after trimming nothing but punctuation follows the scheme ("http://",
// "http://.", "http://#" are prose, not URLs to check).
//
// The URL runs to the first character that endsURL, the quote it stands in
// (when quote is not 0), or a closing ")", "]" or "}" that has no opening
// partner in the URL; this keeps https://en.wikipedia.org/wiki/Foo_(bar)
// whole and leaves out the ")" of "(see http://example.com)" and the "]" of
// "[http://example.com]". Then, repeatedly, a trailing character of
// `trailing`, a trailing "'" when the URL holds an odd number of them, and
// a trailing "…" are dropped.
func (sc *scanner) bareURL(s, colon, lim int, o bareOpts, quote rune) (seq, bool) {
	doc := sc.doc
	decs := sc.decs[:0]
	var depth [3]int
	quotes := 0
	i := s
	lastDec := func(at int) bool { return len(decs) > 0 && decs[len(decs)-1].end == at }
scan:
	for i < lim {
		u := decodeAt(doc, i, lim, o.mode)
		r := u.r
		if endsURL(r) || r == quote && quote != 0 {
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
					}
					break scan
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
			case '%':
				if o.code && !u.dec && !(i+2 < lim && isHex(doc[i+1]) && isHex(doc[i+2])) && printfVerb(doc, i+1, lim) {
					break scan
				}
			}
		}
		if u.dec {
			decs = append(decs, u)
		}
		i = u.end
	}
	sc.decs = decs
	q := seq{start: s, end: i, decs: decs}
	keep := colon + 1 // the scheme and ":" stay
trim:
	for q.end > keep {
		u := q.before(doc, q.end)
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
	it := q.iter(doc)
	for u, ok := it.next(); ok; u, ok = it.next() {
		if u.start > colon && (u.r >= utf8.RuneSelf || isAlnum(byte(u.r)) || u.r == '%') {
			return q, true
		}
	}
	return q, false
}

func bracket(r rune) int {
	switch r {
	case '(', ')':
		return 0
	case '[', ']':
		return 1
	}
	return 2
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
