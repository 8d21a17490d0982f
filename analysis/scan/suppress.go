package scan

import (
	"bytes"
	"slices"
	"strings"
)

// Suppression is a span of the document where diagnostics are not
// reported: all of them when Codes is nil, else those whose code is listed.
type Suppression struct {
	Start, End int
	Codes      []string
}

// Suppresses reports whether a diagnostic with the code that starts at
// document offset off is suppressed: Start <= off < End, and the code is
// listed (or Codes is nil).
func (s Suppression) Suppresses(off int, code string) bool {
	if off < s.Start || off >= s.End {
		return false
	}
	return s.Codes == nil || slices.Contains(s.Codes, code)
}

// The directives, longest first.
var directives = []string{"urlls-disable-next-line", "urlls-disable-line", "urlls-disable", "urlls-enable"}

// directivePrefix starts every directive.
const directivePrefix = "urlls-"

// suppressions returns the spans that the suppression directives of the
// comments (in any order) suppress, ordered by Start. The directives are
// described at Result.Suppressions.
func suppressions(doc []byte, comments []comment) []Suppression {
	slices.SortStableFunc(comments, func(x, y comment) int { return x.start - y.start })
	var out []Suppression
	lines := lineIndex{doc: doc}
	all := -1             // start of the open all-codes region
	var open []openRegion // open per-code regions
	closeCode := func(code string, at int) {
		for k, r := range open {
			if r.code == code {
				out = append(out, Suppression{r.start, at, []string{code}})
				open = slices.Delete(open, k, k+1)
				return
			}
		}
	}
	for _, c := range comments {
		d, p, codes := directive(doc, c)
		switch d {
		case "urlls-disable-line":
			s := lines.startOf(p)
			out = append(out, Suppression{s, lines.nextStart(p), codes})
		case "urlls-disable-next-line":
			s := lines.nextStart(max(c.end-1, c.start))
			out = append(out, Suppression{s, lines.nextStart(s), codes})
		case "urlls-disable":
			if codes == nil {
				if all < 0 {
					all = c.start
				}
				continue
			}
			for _, code := range codes {
				if !slices.ContainsFunc(open, func(r openRegion) bool { return r.code == code }) {
					open = append(open, openRegion{c.start, code})
				}
			}
		case "urlls-enable":
			if codes == nil {
				if all >= 0 {
					out = append(out, Suppression{all, c.start, nil})
					all = -1
				}
				for len(open) > 0 {
					closeCode(open[0].code, c.start)
				}
				continue
			}
			for _, code := range codes {
				closeCode(code, c.start)
			}
		}
	}
	if all >= 0 {
		out = append(out, Suppression{all, len(doc), nil})
	}
	for len(open) > 0 {
		closeCode(open[0].code, len(doc))
	}
	slices.SortStableFunc(out, func(x, y Suppression) int { return x.Start - y.Start })
	return out
}

type openRegion struct {
	start int
	code  string
}

// directive returns the directive that starts the comment c, the offset
// of its first byte, and its codes (nil for none), or "".
func directive(doc []byte, c comment) (string, int, []string) {
	p, e := directiveStart(doc, c), c.bodyEnd
	if !hasPrefix(doc[p:e], directivePrefix) {
		return "", 0, nil
	}
	for _, d := range directives {
		q := p + len(d)
		if !hasPrefix(doc[p:e], d) || q < e && !isSpace(doc[q]) && doc[q] != ',' {
			continue
		}
		var codes []string
		for q < e {
			for q < e && (doc[q] == ' ' || doc[q] == '\t' || doc[q] == ',') {
				q++
			}
			if q < e && (doc[q] == '\n' || doc[q] == '\r') {
				break // the codes are on the directive's line
			}
			s := q
			for q < e && (isAlnum(doc[q]) || doc[q] == '-' || doc[q] == '_' || doc[q] == '.') {
				q++
			}
			if q == s || hasPrefix(doc[s:q], "--") || q < e && !isSpace(doc[q]) && doc[q] != ',' {
				break
			}
			codes = append(codes, string(doc[s:q]))
		}
		return d, p, codes
	}
	return "", 0, nil
}

// directiveStart returns where the first word of the comment c starts,
// after white space and decoration such as "*", "#", "/" or "-".
func directiveStart(doc []byte, c comment) int {
	p := c.bodyStart
	for p < c.bodyEnd && (isSpace(doc[p]) || strings.IndexByte("*#/;-!%", doc[p]) >= 0) {
		p++
	}
	return p
}

// lineIndex answers line questions for offsets that do not decrease, in
// time linear in the document overall (a 1 MB line with a directive every
// few bytes must not be walked once per directive).
type lineIndex struct {
	doc        []byte
	pos, start int // lines before pos are known; start is the line at pos
	from, end  int // the last nextStart answer: [from, end)
}

// startOf returns the start of the line holding p.
func (l *lineIndex) startOf(p int) int {
	for ; l.pos < p; l.pos++ {
		c := l.doc[l.pos]
		if c == '\n' || c == '\r' && (l.pos+1 >= len(l.doc) || l.doc[l.pos+1] != '\n') {
			l.start = l.pos + 1
		}
	}
	return l.start
}

// nextStart returns the start of the line after the one holding p.
func (l *lineIndex) nextStart(p int) int {
	if l.from <= p && p < l.end {
		return l.end
	}
	e := nextLine(l.doc, p)
	l.from, l.end = p, e
	return e
}

// textComments finds the comments of plain text that may hold a
// directive: lines that start with a comment delimiter and hold "urlls-",
// or end with a comment whose text starts with it. Every directive holds
// "urlls-", so the search jumps from one to the next (at memory speed) and
// reads only their lines: the rest of the document is not read again.
func (sc *scanner) textComments() {
	doc := sc.doc
	for from := 0; from < len(doc); {
		k := indexString(doc[from:], directivePrefix)
		if k < 0 {
			return
		}
		k += from
		ls := from
		if nl := bytes.LastIndexAny(doc[from:k], "\n\r"); nl >= 0 {
			ls = from + nl + 1
		}
		le, next := lineEnd(doc, ls, len(doc))
		sc.textComment(ls, le, k)
		from = next
	}
}

// textCommentDelimiters are the comment delimiters of plain text, each
// with its closing one ("" for a comment to the end of the line).
var textCommentDelimiters = [][2]string{{"<!--", "-->"}, {"/*", "*/"}, {"//", ""}, {"#", ""}, {"--", ""}, {";", ""}}

// textComment records the comment of the plain-text line doc[ls:le], whose
// first "urlls-" is at k: one that its first non-blank characters open,
// or else one that opens after a blank (or at the line's start) with
// blanks only between it and an "urlls-" ("see http://x.org/%zz <!--
// urlls-disable-line -->", as in Markdown); it runs to the end of the line
// or to its closing delimiter.
func (sc *scanner) textComment(ls, le, k int) {
	doc := sc.doc
	_, p := indent(doc, ls, le)
	for _, d := range textCommentDelimiters {
		if hasPrefix(doc[p:le], d[0]) {
			sc.textCommentAt(p, le, d)
			return
		}
	}
	for k >= 0 {
		j := k
		for j > ls && (doc[j-1] == ' ' || doc[j-1] == '\t') {
			j--
		}
		for _, d := range textCommentDelimiters {
			o := j - len(d[0])
			if o < ls || string(doc[o:j]) != d[0] {
				continue
			}
			if d[1] == "" {
				// "## urlls-disable-line", "/// …": a delimiter of
				// one character repeated may be written longer.
				for o > ls && doc[o-1] == d[0][0] {
					o--
				}
			}
			if o == ls || doc[o-1] == ' ' || doc[o-1] == '\t' {
				sc.textCommentAt(o, le, d)
				return
			}
		}
		n := indexString(doc[k+1:le], directivePrefix)
		if n < 0 {
			return
		}
		k += 1 + n
	}
}

// textCommentAt records the comment that the delimiters d open at doc[p],
// on a line that ends at le.
func (sc *scanner) textCommentAt(p, le int, d [2]string) {
	doc := sc.doc
	bs, be, end := p+len(d[0]), le, le
	if d[1] != "" {
		if k := indexString(doc[bs:le], d[1]); k >= 0 {
			be, end = bs+k, bs+k+len(d[1])
		}
	}
	sc.comment(p, end, bs, be)
}
