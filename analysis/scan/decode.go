package scan

import (
	"html"
	"strings"
	"unicode/utf8"
)

// unit is one character of a candidate URL: the document bytes
// [start, end) and the character they stand for. A decoded unit (an HTML
// character reference, a Markdown backslash escape, an escape sequence of a
// string literal) stands for r, and r2 when it is not negative (a few HTML
// entities name two code points); any other unit stands for its own bytes
// (r is then their rune, utf8.RuneError for an invalid byte).
type unit struct {
	start, end int
	r, r2      rune
	dec        bool
}

// textLen is the length of the unit's text.
func (u unit) textLen() int {
	if !u.dec {
		return u.end - u.start
	}
	n := utf8.RuneLen(u.r)
	if u.r2 >= 0 {
		n += utf8.RuneLen(u.r2)
	}
	return n
}

func (u unit) appendText(dst, doc []byte) []byte {
	if !u.dec {
		return append(dst, doc[u.start:u.end]...)
	}
	dst = utf8.AppendRune(dst, u.r)
	if u.r2 >= 0 {
		dst = utf8.AppendRune(dst, u.r2)
	}
	return dst
}

// decodeMode says which references and escapes stand for other characters.
type decodeMode uint8

const (
	// decRaw: every byte stands for itself (plain text, comments, autolinks).
	decRaw decodeMode = iota
	// decHTMLText: HTML character references, as in text content.
	decHTMLText
	// decHTMLAttr: HTML character references, as in attribute values (a
	// legacy reference without ";" is not decoded before "=" or an
	// alphanumeric, HTML §13.2.5.73).
	decHTMLAttr
	// decMarkdown: CommonMark backslash escapes of ASCII punctuation and
	// entity and numeric character references (which need the ";").
	decMarkdown
	// decString: the backslash escapes of string literals, the union of the
	// C, Go, JavaScript, Python, Rust and JSON ones.
	decString
	// decComment: TSDoc's "\@", which doc comments write for an "@" that
	// does not start a tag ("https://www.npmjs.com/package/\@azure/identity"):
	// an "@" to the renderer; and "\{" and "\}", which they write for the
	// braces that would open or close an inline tag
	// ("principal://iam.googleapis.com/projects/{project_number\}/…", a
	// placeholder): "{" and "}". Nothing else is decoded in a comment.
	decComment
)

// decodeAt returns the character at doc[i], i < lim, for the mode. A decoded
// unit never has more text bytes than document bytes, so that Offsets can map
// each byte of Text to a distinct document byte.
func decodeAt(doc []byte, i, lim int, mode decodeMode) unit {
	c := doc[i]
	switch {
	case c == '&' && (mode == decHTMLText || mode == decHTMLAttr || mode == decMarkdown):
		if u, ok := charRef(doc, i, lim, mode); ok && u.textLen() <= u.end-u.start {
			return u
		}
	case c == '\\' && mode == decMarkdown:
		if i+1 < lim && isASCIIPunct(doc[i+1]) {
			return unit{i, i + 2, rune(doc[i+1]), -1, true}
		}
	case c == '\\' && mode == decComment:
		if i+1 < lim && (doc[i+1] == '@' || doc[i+1] == '{' || doc[i+1] == '}') {
			return unit{i, i + 2, rune(doc[i+1]), -1, true}
		}
	case c == '\\' && mode == decString:
		if u, ok := stringEscape(doc, i, lim); ok && u.textLen() <= u.end-u.start {
			return u
		}
	}
	if c < utf8.RuneSelf {
		return unit{i, i + 1, rune(c), -1, false}
	}
	r, n := utf8.DecodeRune(doc[i:lim])
	return unit{i, i + n, r, -1, false}
}

// cp1252 is what HTML makes of the numeric references &#128; to &#159;
// (HTML §13.2.5.80, the numeric character reference end state).
var cp1252 = [32]rune{
	0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
	0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
}

// charRef decodes the character reference at doc[i] == '&'.
func charRef(doc []byte, i, lim int, mode decodeMode) (unit, bool) {
	j := i + 1
	if j < lim && doc[j] == '#' {
		j++
		base := 10
		if j < lim && doc[j]|0x20 == 'x' {
			base = 16
			j++
		}
		ds := j
		v := 0
		for j < lim && (base == 10 && isDigit(doc[j]) || base == 16 && isHex(doc[j])) {
			v = v*base + hexVal(doc[j])
			if v > 0x10FFFF {
				v = 0x110000 // saturate: the reference is out of range
			}
			j++
		}
		if j == ds {
			return unit{}, false
		}
		if mode == decMarkdown {
			// CommonMark: 1-7 decimal or 1-6 hex digits, then ";".
			maxDigits := 6
			if base == 10 {
				maxDigits = 7
			}
			if j-ds > maxDigits || j >= lim || doc[j] != ';' {
				return unit{}, false
			}
		}
		if j < lim && doc[j] == ';' {
			j++
		}
		r := rune(v)
		switch {
		case v == 0, v > 0x10FFFF, 0xD800 <= v && v <= 0xDFFF:
			r = utf8.RuneError
		case mode != decMarkdown && 0x80 <= v && v <= 0x9F:
			r = cp1252[v-0x80]
		}
		return unit{i, j, r, -1, true}, true
	}
	// Named references: the longest entity name is 31 characters and ";".
	ns := j
	for j < lim && isAlnum(doc[j]) && j-ns < 40 {
		j++
	}
	if j == ns {
		return unit{}, false
	}
	name := doc[ns:j]
	if j < lim && doc[j] == ';' {
		if r := commonEntity(name); r >= 0 {
			return unit{i, j + 1, r, -1, true}, true
		}
		if len(name) <= 32 {
			if r, r2, ok := entity(string(name), true); ok {
				return unit{i, j + 1, r, r2, true}, true
			}
		}
	}
	switch mode {
	case decMarkdown:
		return unit{}, false
	case decHTMLAttr:
		// Only a whole legacy name, not followed by "=" or an alphanumeric.
		if j < lim && (doc[j] == '=' || isAlnum(doc[j])) || len(name) > 6 {
			return unit{}, false
		}
		if r, r2, ok := entity(string(name), false); ok {
			return unit{i, j, r, r2, true}, true
		}
		return unit{}, false
	}
	// Text: the longest legacy name that the run starts with ("&notit;" is
	// "¬it;"). Legacy names have at most 6 characters.
	for k := min(len(name), 6); k >= 2; k-- {
		if r, r2, ok := entity(string(name[:k]), false); ok {
			return unit{i, ns + k, r, r2, true}, true
		}
	}
	return unit{}, false
}

// commonEntity returns the character of the named reference "&name;" when
// it is one of the few that URLs in HTML are full of ("&amp;" between the
// parameters of a query), or -1. entity would find the same, but asks
// the html package with a string it builds for each: a URL of 100,000
// "&amp;" spent two thirds of its check there.
func commonEntity(name []byte) rune {
	switch string(name) {
	case "amp":
		return '&'
	case "lt":
		return '<'
	case "gt":
		return '>'
	case "quot":
		return '"'
	}
	return -1
}

// entity looks up an HTML5 named character reference, with its ";" or, when
// semicolon is false, as a legacy reference without it. The table is the one
// of the standard library's html package, asked one whole reference at a
// time: html.UnescapeString decodes a longest prefix when the whole name is
// not an entity, which shows as text left over after the decoded character.
func entity(name string, semicolon bool) (r, r2 rune, ok bool) {
	s := "&" + name
	if semicolon {
		s += ";"
	}
	d := html.UnescapeString(s)
	if d == s || d == "" {
		return 0, 0, false
	}
	if semicolon && d != ";" && strings.HasSuffix(d, ";") {
		return 0, 0, false // a prefix was decoded, "…;" left over
	}
	if !semicolon && isAlnum(d[len(d)-1]) {
		return 0, 0, false // a prefix was decoded, letters left over
	}
	r, n := utf8.DecodeRuneInString(d)
	r2 = -1
	if n < len(d) {
		var m int
		r2, m = utf8.DecodeRuneInString(d[n:])
		if n+m != len(d) {
			return 0, 0, false
		}
	}
	return r, r2, true
}

// stringEscape decodes the escape sequence of a string literal at doc[i] ==
// '\\'. Escapes of control characters decode to them, so that they end the
// URL as the character would; an unknown escape is not decoded, and its
// backslash stays in the URL to be reported.
func stringEscape(doc []byte, i, lim int) (unit, bool) {
	if i+1 >= lim {
		return unit{}, false
	}
	c := doc[i+1]
	one := func(r rune) (unit, bool) { return unit{i, i + 2, r, -1, true}, true }
	switch c {
	case '\\', '"', '\'', '`', '/', '?', '$':
		return one(rune(c))
	case 'n', '\n':
		return one('\n')
	case 'r', '\r':
		return one('\r')
	case 't':
		return one('\t')
	case 'v':
		return one('\v')
	case 'f':
		return one('\f')
	case 'a':
		return one('\a')
	case 'b':
		return one('\b')
	case 'e':
		return one(0x1b)
	case 'x':
		if i+4 <= lim && isHex(doc[i+2]) && isHex(doc[i+3]) {
			return unit{i, i + 4, rune(hexVal(doc[i+2])<<4 | hexVal(doc[i+3])), -1, true}, true
		}
	case 'u', 'U':
		j := i + 2
		if c == 'u' && j < lim && doc[j] == '{' {
			// \u{1F600}: JavaScript, Rust, Swift.
			j++
			v, k := 0, j
			for k < lim && isHex(doc[k]) && k-j < 6 {
				v = v<<4 | hexVal(doc[k])
				k++
			}
			if k == j || k >= lim || doc[k] != '}' {
				return unit{}, false
			}
			return unit{i, k + 1, validRune(v), -1, true}, true
		}
		n := 4
		if c == 'U' {
			n = 8
		}
		v, ok := hexN(doc, j, lim, n)
		if !ok {
			return unit{}, false
		}
		end := j + n
		if c == 'u' && 0xD800 <= v && v <= 0xDBFF && end+6 <= lim && doc[end] == '\\' && doc[end+1] == 'u' {
			// A UTF-16 surrogate pair, as JSON and JavaScript write
			// characters outside the BMP.
			if lo, ok := hexN(doc, end+2, lim, 4); ok && 0xDC00 <= lo && lo <= 0xDFFF {
				return unit{i, end + 6, rune(0x10000 + (v-0xD800)<<10 + (lo - 0xDC00)), -1, true}, true
			}
		}
		return unit{i, end, validRune(v), -1, true}, true
	}
	if '0' <= c && c <= '7' {
		v, j := 0, i+1
		for j < lim && j < i+4 && '0' <= doc[j] && doc[j] <= '7' {
			v = v<<3 | int(doc[j]-'0')
			j++
		}
		return unit{i, j, validRune(v), -1, true}, true
	}
	return unit{}, false
}

func hexN(doc []byte, j, lim, n int) (int, bool) {
	if j+n > lim {
		return 0, false
	}
	v := 0
	for k := j; k < j+n; k++ {
		if !isHex(doc[k]) {
			return 0, false
		}
		v = v<<4 | hexVal(doc[k])
	}
	return v, true
}

func validRune(v int) rune {
	if v < 0 || v > 0x10FFFF || 0xD800 <= v && v <= 0xDFFF {
		return utf8.RuneError
	}
	return rune(v)
}
