package scan

import (
	"slices"
	"sort"
	"testing"
	"unicode/utf8"
)

// bareURLRef is bareURL as it was before its fast paths (plainTextURLByte,
// the qualifying loop without decoding, seq.before without a search when
// nothing is decoded), kept to test them against; the rules for a trailing
// "|", a link macro's text, the references that end a URL, the "," of
// a list and the backslashes of a quote escaped twice came after them and
// are copied in.
func (sc *scanner) bareURLRef(s, colon, lim int, o bareOpts, quote rune) (seq, bool) {
	doc := sc.doc
	var decs []unit
	var depth [3]int
	quotes := 0
	stepped := false // over a template or placeholder
	opened := [3]int{-1, -1, -1}
	i := s
	lastDec := func(at int) bool { return len(decs) > 0 && decs[len(decs)-1].end == at }
scan:
	for i < lim {
		if plainURLByte[doc[i]] {
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
					}
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
	if cut := spacedTextOpen(doc, opened, depth, i, lim); cut >= 0 && (o.mode == decRaw || o.mode == decComment) && !o.code {
		i = cut
		for len(decs) > 0 && decs[len(decs)-1].end > i {
			decs = decs[:len(decs)-1]
		}
	}
	q := seq{start: s, end: i, decs: decs}
	keep := colon + 1 // the scheme and ":" stay
	escapedQuote := false
trim:
	for q.end > keep {
		u := q.beforeRef(doc, q.end)
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
		case u.r == '\\' && !u.dec && (afterEscape || u.end < len(doc) && (doc[u.end] == '"' || doc[u.end] == '\'')):
			escapedQuote = true
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
	it := q.iter(doc)
	for u, ok := it.next(); ok; u, ok = it.next() {
		if u.start > colon && (u.r >= utf8.RuneSelf || isAlnum(byte(u.r)) || u.r == '%') {
			return q, true
		}
	}
	return q, false
}

// beforeRef is before as it was, without its fast path: it returns the unit of q that ends at p. Decoded units end in an ASCII
// byte, so decoding a raw rune backwards never reaches into one.
func (q *seq) beforeRef(doc []byte, p int) unit {
	i := sort.Search(len(q.decs), func(i int) bool { return q.decs[i].end >= p })
	if i < len(q.decs) && q.decs[i].end == p {
		return q.decs[i]
	}
	r, n := utf8.DecodeLastRune(doc[q.start:p])
	return unit{p - n, p, r, -1, false}
}

// FuzzBareURLFastPaths checks bareURL against bareURLRef on any text after
// a scheme, in every decoding mode and with every option: the same URL,
// the same decoded units, the same verdict.
func FuzzBareURLFastPaths(f *testing.F) {
	for _, s := range []string{
		"http://x.org/a%zz b", "http://x.org/%%%%%%", "http://%", "http://.", "http://#)",
		"https://a.com/x%s?y=%d&amp;z", `http://a/\_&amp; x`, "http://a/(b)].", "http://a/\xff\xfe'",
		"http://a/{{ .X }}/y", "http://a/<user>/r", "http://a/&#37;zz;", "http://é/…", "http:///'''",
		"http://a/b&c;", `http://a/\.`, "http://a/%%7e~|[x]", `http://a/\u0041%\x25'`, "http:%",
	} {
		for _, o := range []uint8{0, 1, 2, 3, 4, 8, 12, 17, 34, 67, 128, 255} {
			f.Add([]byte(s), o)
		}
	}
	f.Fuzz(func(t *testing.T, doc []byte, o uint8) {
		colon := slices.Index(doc, ':')
		if colon < 0 {
			return
		}
		opts := bareOpts{
			mode:       decodeMode(o % 6),
			code:       o&8 != 0,
			entityTail: o&16 != 0,
			brackets:   o&32 != 0,
			pipe:       o&64 != 0,
		}
		var quote rune
		if o&128 != 0 {
			quote = '\''
		}
		got, ok := (&scanner{doc: doc}).bareURL(0, colon, len(doc), opts, quote)
		want, wantOK := (&scanner{doc: doc}).bareURLRef(0, colon, len(doc), opts, quote)
		if ok != wantOK || got.start != want.start || got.end != want.end || !slices.Equal(got.decs, want.decs) {
			t.Fatalf("bareURL(%q, %+v, %q) = %+v, %v; the reference: %+v, %v", doc, opts, quote, got, ok, want, wantOK)
		}
	})
}
