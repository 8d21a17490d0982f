package scan

import (
	"encoding/binary"
	"math/bits"
	"unicode"
	"unicode/utf8"
)

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isAlnum(c byte) bool { return isAlpha(c) || isDigit(c) }
func isHex(c byte) bool   { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' }

// isSchemeChar reports a character of RFC 1738 §2.1 scheme names: letters,
// digits, "+", "-" and ".". A bare URL must not follow one of them.
func isSchemeChar(c byte) bool { return isAlnum(c) || c == '+' || c == '-' || c == '.' }

// isSpace is ASCII white space as HTML and CommonMark define it, with VT.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// isASCIIPunct is CommonMark's ASCII punctuation: what a backslash escapes.
func isASCIIPunct(c byte) bool {
	return '!' <= c && c <= '/' || ':' <= c && c <= '@' || '[' <= c && c <= '`' || '{' <= c && c <= '~'
}

func hexVal(c byte) int {
	switch {
	case isDigit(c):
		return int(c - '0')
	case 'a' <= c|0x20 && c|0x20 <= 'f':
		return int(c|0x20-'a') + 10
	}
	return -1
}

// asciiEnds are the ASCII characters that end a bare URL: controls, space,
// and the delimiters of RFC 1738 §2.2 ("<" and ">" delimit URLs in free
// text, the quote mark in some systems) plus the backquote that delimits code
// in Markdown and shells. The other unsafe characters (| { } ^ \ [ ] ~) do not
// end a URL: they stay inside it so that the checks can report them.
var asciiEnds = func() (t [128]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	for _, c := range " <>\"`\x7f" {
		t[c] = true
	}
	return t
}()

// endsURL reports whether the character r ends a bare URL. Besides asciiEnds:
//   - C1 controls and Unicode white space (NBSP, the U+2000 spaces, the line
//     and paragraph separators, the ideographic space), the zero-width space
//     and the BOM, which are invisible word breaks (ZWJ and ZWNJ are not: they
//     sit inside words of several scripts);
//   - quotation marks of other scripts (Unicode Pi and Pf: “ ” ‘ ’ « » ‹ ›),
//     which delimit a URL as '"' does;
//   - CJK and full-width punctuation (。、，「」（）【】！？：；｜ …: the punctuation,
//     symbols and spaces of the CJK Symbols and Punctuation, Vertical Forms,
//     CJK Compatibility Forms, Small Form Variants and Half/Full-width Forms
//     blocks), because CJK text has no spaces and its punctuation is never
//     part of a URL. Letters and digits of those blocks (々, ０, Ａ) are not
//     punctuation and stay in the URL, to be reported as non-ASCII.
//
// Other non-ASCII characters, letters and dashes included, stay in the URL:
// an IRI such as https://en.wikipedia.org/wiki/Michelson–Morley_experiment is
// one URL, and the checks report its non-ASCII characters.
func endsURL(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiEnds[r]
	}
	switch {
	case r <= 0x9f, r == 0x200b, r == 0xfeff:
		return true
	case r == utf8.RuneError:
		return false
	case unicode.IsSpace(r):
		return true
	case unicode.In(r, unicode.Pi, unicode.Pf):
		return true
	case 0x3000 <= r && r <= 0x303f, 0xfe10 <= r && r <= 0xfe1f, 0xfe30 <= r && r <= 0xfe6f, 0xff00 <= r && r <= 0xff65:
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	}
	return false
}

// trailing are the ASCII characters that a bare URL does not end with: they
// are taken for the sentence's punctuation (GFM extended autolinks exclude
// the same ? ! . , : * _ ~, and ";" which linkify-it excludes too).
var trailing = func() (t [128]bool) {
	for _, c := range ".,:;!?*_~" {
		t[c] = true
	}
	return t
}()

// nextLine returns the offset of the start of the line after the one holding
// offset i (len(doc) on the last line). A line ends at "\n", "\r\n" or "\r",
// as in LSP.
func nextLine(doc []byte, i int) int {
	if i >= len(doc) {
		return len(doc)
	}
	_, next := lineEnd(doc, i, len(doc))
	return next
}

// hasPrefixFold reports whether b starts with the ASCII string p, ignoring
// case.
func hasPrefixFold(b []byte, p string) bool {
	if len(b) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		if lower(b[i]) != lower(p[i]) {
			return false
		}
	}
	return true
}

func equalFold(b []byte, s string) bool { return len(b) == len(s) && hasPrefixFold(b, s) }

// nextByte returns the offset of the first c in doc[from:lim], or lim
// (also when from is past lim).
func nextByte(doc []byte, from, lim int, c byte) int {
	if from >= lim {
		return lim
	}
	if k := indexByte(doc[from:lim], c); k >= 0 {
		return from + k
	}
	return lim
}

// byteSet is a set of bytes to search for: index reads eight bytes a step,
// with one branch for the eight (a table lookup each), so that a scanner
// jumps over the bytes that cannot start anything it looks for. Its
// entries are 0 or 1.
type byteSet [256]uint8

// newByteSet returns the set of the bytes of s.
func newByteSet(s string) *byteSet {
	var t byteSet
	for i := 0; i < len(s); i++ {
		t[s[i]] = 1
	}
	return &t
}

// index returns the offset of the first byte of b in the set, or -1.
func (t *byteSet) index(b []byte) int {
	if k := t.next(b, 0, len(b)); k < len(b) {
		return k
	}
	return -1
}

// next returns the offset of the first byte of the set in doc[from:lim],
// or lim (also when from is past lim: a scanner may step over a two-byte
// escape at the end). Each step makes a mask of eight bytes, one bit
// each, whose lowest bit is the answer: in Markdown, where one of the
// bytes comes every few dozen, a byte loop after each hit, with its exit
// mispredicted, cost a fifth of the search (and a call to an index
// function from next more than a tenth).
func (t *byteSet) next(doc []byte, from, lim int) int {
	if from >= lim {
		return lim
	}
	b := doc[from:lim]
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := b[i : i+8 : i+8]
		if m := uint(t[w[0]]) | uint(t[w[1]])<<1 | uint(t[w[2]])<<2 | uint(t[w[3]])<<3 |
			uint(t[w[4]])<<4 | uint(t[w[5]])<<5 | uint(t[w[6]])<<6 | uint(t[w[7]])<<7; m != 0 {
			return from + i + bits.TrailingZeros(m)
		}
	}
	for ; i < len(b); i++ {
		if t[b[i]] != 0 {
			return from + i
		}
	}
	return lim
}

// SWAR constants: every byte 0x01, every byte 0x80.
const (
	swarOnes = 0x0101010101010101
	swarHigh = 0x8080808080808080
)

// index2 returns the offset of the first c1 or c2 in b, or -1. It tests
// eight bytes a step (SWAR: a byte of x^c is zero where x holds c), which
// for short searches, such as a line's end, costs less than two calls of
// bytes.IndexByte. The lowest flagged byte is exact: a false flag can only
// follow a true one.
func index2(b []byte, c1, c2 byte) int {
	m1, m2 := swarOnes*uint64(c1), swarOnes*uint64(c2)
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		y1, y2 := x^m1, x^m2
		if t := ((y1-swarOnes)&^y1 | (y2-swarOnes)&^y2) & swarHigh; t != 0 {
			return i + bits.TrailingZeros64(t)/8
		}
	}
	for ; i < len(b); i++ {
		if b[i] == c1 || b[i] == c2 {
			return i
		}
	}
	return -1
}

// lineBreak returns the offset of the first "\n" or "\r" in doc[from:lim],
// or lim (also when from is past lim).
func lineBreak(doc []byte, from, lim int) int {
	if from >= lim {
		return lim
	}
	if k := index2(doc[from:lim], '\n', '\r'); k >= 0 {
		return from + k
	}
	return lim
}
