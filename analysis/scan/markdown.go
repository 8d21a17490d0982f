package scan

import (
	"slices"
	"sort"
	"strings"
)

// md is the state of the Markdown scanner. It follows the block structure
// of CommonMark and GFM closely enough to know what is code, raw HTML, a
// table cell, a link reference definition or paragraph text, without
// building a tree: blockquote markers and list items are stripped per line,
// and the text of each paragraph (or heading, or table cell) is one inline
// region, scanned for links by the CommonMark inline rules.
type md struct {
	sc  *scanner
	doc []byte

	regionStart, regionEnd int // the open paragraph, regionStart < 0 if none
	lastBlank              bool
	listIndent             int // content column of the current list item
	bq                     int // blockquote depth of the previous line

	fenceOpen bool
	fenceChar byte
	fenceLen  int
	fenceBQ   int

	// inline scratch
	skips, noBare []span
	stack         []opener
	runs          map[int][]int
}

// opener is a "[" or "![" waiting for its "]".
type opener struct {
	pos   int
	image bool
}

// scanMarkdown finds the URLs of a CommonMark/GFM document in doc[a:b]:
//   - inline link and image destinations, not their titles: context Link;
//     the <…> form may hold spaces; backslash escapes and entity references
//     are decoded (Text holds the characters, Offsets map them back);
//     Relative is set, as for reference definitions (context RefDef);
//   - autolinks <scheme:…> (CommonMark: a scheme of 2 to 32 characters, no
//     white space), context Angle, undecoded; <URL:…> wrappers as in plain
//     text; e-mail autolinks <user@example.com> are skipped: the writer did
//     not write a URL, the renderer makes one up;
//   - bare URLs with a known scheme in text (GFM extended autolinks; "www."
//     links need a scheme urlls does not invent, so they are out of scope),
//     decoded like destinations, and without a trailing "&name;" as in GFM;
//     not inside link text or image descriptions, which GFM never links
//     (the destination is checked instead);
//   - URL attributes of raw HTML, inline (<a href>, <img src>, every
//     attribute scanHTML knows) and in HTML blocks, which are scanned as
//     HTML; the text of an inline <a> element is not scanned.
//
// Code spans, fenced and indented code blocks are skipped: they are
// literal text, examples more often than links. So are HTML comments, but
// for suppression directives.
//
// Known approximations: block structure is per line (a container's end is
// seen through a blank line or a change of blockquote depth), a link label
// or destination does not span a blockquote marker, and the text of a
// reference link [text][label] is scanned like text.
func (sc *scanner) scanMarkdown(a, b int) {
	m := &md{sc: sc, doc: sc.doc, regionStart: -1}
	for ls := a; ls < b; {
		ls = m.line(ls, b)
	}
	m.flush()
}

func (m *md) flush() {
	if m.regionStart >= 0 {
		m.inline(m.regionStart, m.regionEnd)
		m.regionStart = -1
	}
}

func (m *md) para(q, le int) {
	if m.regionStart < 0 {
		m.regionStart = q
	}
	m.regionEnd = le
}

// lineEnd returns the end of the line at ls (before its line break) and the
// start of the next one.
func lineEnd(doc []byte, ls, b int) (le, next int) {
	le = ls
	for le < b && doc[le] != '\n' && doc[le] != '\r' {
		le++
	}
	next = le
	if next < b {
		next++
		if doc[le] == '\r' && next < b && doc[next] == '\n' {
			next++
		}
	}
	return le, next
}

// quotePrefix strips blockquote markers ("> ") from the line at p.
func quotePrefix(doc []byte, p, le int) (int, int) {
	bq := 0
	for {
		k := p
		for k < le && k < p+3 && doc[k] == ' ' {
			k++
		}
		if k >= le || doc[k] != '>' {
			return p, bq
		}
		k++
		if k < le && (doc[k] == ' ' || doc[k] == '\t') {
			k++
		}
		p = k
		bq++
	}
}

// indent returns the column of the first non-blank character at or after
// p (tabs stop every 4 columns) and its offset.
func indent(doc []byte, p, le int) (int, int) {
	col := 0
	for p < le {
		switch doc[p] {
		case ' ':
			col++
		case '\t':
			col += 4 - col%4
		default:
			return col, p
		}
		p++
	}
	return col, p
}

// line scans the line at ls and returns the start of the next line to
// scan.
func (m *md) line(ls, b int) int {
	doc := m.doc
	le, next := lineEnd(doc, ls, b)
	p, bq := quotePrefix(doc, ls, le)
	if m.fenceOpen {
		if bq >= m.fenceBQ {
			if closesFence(doc, p, le, m.fenceChar, m.fenceLen) {
				m.fenceOpen = false
			}
			return next
		}
		m.fenceOpen = false // its container ended
	}
	if bq != m.bq {
		m.flush()
		m.bq = bq
	}
	col, q := indent(doc, p, le)
	if q >= le {
		m.flush()
		m.lastBlank = true
		return next
	}
	lazy := m.regionStart >= 0 && !m.lastBlank
	m.lastBlank = false
	for {
		base := m.listIndent
		if col >= base+4 {
			if lazy {
				m.para(q, le)
			}
			return next // indented code
		}
		if ch, n := fenceStart(doc, q, le); n > 0 {
			m.flush()
			m.fenceOpen, m.fenceChar, m.fenceLen, m.fenceBQ = true, ch, n, bq
			return next
		}
		if doc[q] == '<' {
			if end, ok := m.htmlBlock(q, le, next, b); ok {
				return end
			}
		}
		if atxHeading(doc, q, le) {
			m.flush()
			m.inline(q, le)
			return next
		}
		if thematicBreak(doc, q, le) || m.regionStart >= 0 && setextUnderline(doc, q, le) {
			m.flush()
			return next
		}
		if cq, qcol, ccol, ok := listItem(doc, q, le, col); ok {
			m.flush()
			m.listIndent = ccol
			lazy = false
			if cq >= le {
				return next
			}
			q, col = cq, qcol
			continue
		}
		if col < base && !lazy {
			m.listIndent = 0 // the list ended
			if col >= 4 {
				return next
			}
		}
		if m.regionStart < 0 {
			if end, ok := m.table(q, le, next, b, bq); ok {
				return end
			}
			if end, ok := m.refDef(q, le, next, b); ok {
				return end
			}
		}
		m.para(q, le)
		return next
	}
}

// fenceStart recognises a code fence: 3 or more "`" or "~" (a backtick
// fence's info string has no backtick).
func fenceStart(doc []byte, q, le int) (byte, int) {
	c := doc[q]
	if c != '`' && c != '~' {
		return 0, 0
	}
	j := q
	for j < le && doc[j] == c {
		j++
	}
	if j-q < 3 || c == '`' && indexByte(doc[j:le], '`') >= 0 {
		return 0, 0
	}
	return c, j - q
}

func closesFence(doc []byte, p, le int, c byte, n int) bool {
	_, q := indent(doc, p, le)
	j := q
	for j < le && doc[j] == c {
		j++
	}
	if j-q < n {
		return false
	}
	for ; j < le; j++ {
		if doc[j] != ' ' && doc[j] != '\t' {
			return false
		}
	}
	return true
}

func atxHeading(doc []byte, q, le int) bool {
	j := q
	for j < le && doc[j] == '#' {
		j++
	}
	return j > q && j-q <= 6 && (j == le || doc[j] == ' ' || doc[j] == '\t')
}

func thematicBreak(doc []byte, q, le int) bool {
	c := doc[q]
	if c != '*' && c != '-' && c != '_' {
		return false
	}
	n := 0
	for j := q; j < le; j++ {
		switch doc[j] {
		case c:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

func setextUnderline(doc []byte, q, le int) bool {
	c := doc[q]
	if c != '=' && c != '-' {
		return false
	}
	j := q
	for j < le && doc[j] == c {
		j++
	}
	for ; j < le; j++ {
		if doc[j] != ' ' && doc[j] != '\t' {
			return false
		}
	}
	return true
}

// listItem recognises a list marker at q ("-", "+", "*", "1.", "1)"). It
// returns the first character of the item's content and its column, and
// the item's content column (where continuation lines start).
func listItem(doc []byte, q, le, col int) (cq, qcol, ccol int, ok bool) {
	j := q
	switch c := doc[q]; {
	case c == '-' || c == '+' || c == '*':
		j++
	case isDigit(c):
		for j < le && isDigit(doc[j]) && j-q < 9 {
			j++
		}
		if j >= le || doc[j] != '.' && doc[j] != ')' {
			return 0, 0, 0, false
		}
		j++
	default:
		return 0, 0, 0, false
	}
	mcol := col + (j - q)
	if j == le {
		return le, mcol + 1, mcol + 1, true
	}
	if doc[j] != ' ' && doc[j] != '\t' {
		return 0, 0, 0, false
	}
	c, k := mcol, j
	for k < le && (doc[k] == ' ' || doc[k] == '\t') {
		if doc[k] == '\t' {
			c += 4 - c%4
		} else {
			c++
		}
		k++
	}
	if k == le || c-mcol > 4 {
		return k, c, mcol + 1, true // blank item, or indented code in it
	}
	return k, c, c, true
}

// htmlBlocks are the tag names of CommonMark HTML blocks of type 6.
var htmlBlocks = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{"address", "article", "aside", "base", "basefont", "blockquote", "body",
		"caption", "center", "col", "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt",
		"fieldset", "figcaption", "figure", "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4",
		"h5", "h6", "head", "header", "hr", "html", "iframe", "legend", "li", "link", "main", "menu",
		"menuitem", "nav", "noframes", "ol", "optgroup", "option", "p", "param", "search", "section",
		"summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "track", "ul"} {
		m[n] = true
	}
	return m
}()

// htmlBlock recognises a CommonMark HTML block (spec §4.6) starting at
// doc[q] == '<', scans it as HTML and returns the start of the line after
// it.
func (m *md) htmlBlock(q, le, next, b int) (int, bool) {
	doc := m.doc
	sc := m.sc
	name := func(p int) (int, int) {
		e := p
		for e < le && isAlnum(doc[e]) {
			e++
		}
		return p, e
	}
	endsName := func(e int) bool { return e == le || isSpace(doc[e]) || doc[e] == '>' }
	var marker string
	switch {
	case hasPrefix(doc[q:le], "<!--"):
		marker = "-->"
	case hasPrefix(doc[q:le], "<?"):
		marker = "?>"
	case hasPrefix(doc[q:le], "<![CDATA["):
		marker = "]]>"
	case q+2 < le && doc[q+1] == '!' && isAlpha(doc[q+2]):
		marker = ">"
	}
	if marker == "" && q+1 < le && isAlpha(doc[q+1]) {
		s, e := name(q + 1)
		for _, n := range []string{"script", "pre", "style", "textarea"} {
			if equalFold(doc[s:e], n) && endsName(e) {
				marker = "</"
			}
		}
	}
	blockEnd := b
	switch {
	case marker == "</": // type 1: to the line with the end tag
		for i := q; i < b; {
			k := indexByte(doc[i:b], '<')
			if k < 0 {
				break
			}
			p := i + k
			if p+1 < b && doc[p+1] == '/' {
				s, e := p+2, p+2
				for e < b && isAlpha(doc[e]) {
					e++
				}
				n := doc[s:e]
				if e < b && doc[e] == '>' && (equalFold(n, "script") || equalFold(n, "pre") || equalFold(n, "style") || equalFold(n, "textarea")) {
					blockEnd = e + 1
					break
				}
			}
			i = p + 1
		}
	case marker != "": // types 2 to 5
		if k := indexString(doc[q:b], marker); k >= 0 {
			blockEnd = q + k + len(marker)
		}
	default: // types 6 and 7: to a blank line
		p := q + 1
		if p < le && doc[p] == '/' {
			p++
		}
		s, e := name(p)
		isBlock := e > s && htmlBlocks[string(lowerASCII(doc[s:e]))] && (endsName(e) || hasPrefix(doc[e:le], "/>"))
		if !isBlock {
			if m.regionStart >= 0 || !completeTagLine(m, q, le) {
				return 0, false
			}
		}
		blockEnd = -1
	}
	m.flush()
	end := next
	if blockEnd >= 0 {
		// The block ends with the line that holds its end.
		e, n := lineEnd(doc, blockEnd, b)
		sc.scanHTML(q, e)
		return max(n, next), true
	}
	e := le
	for end < b {
		le2, n2 := lineEnd(doc, end, b)
		p2, _ := quotePrefix(doc, end, le2)
		if _, q2 := indent(doc, p2, le2); q2 >= le2 {
			break
		}
		e, end = le2, n2
	}
	sc.scanHTML(q, e)
	return end, true
}

func lowerASCII(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		out[i] = lower(c)
	}
	return out
}

// completeTagLine reports a CommonMark type 7 HTML block start: a complete
// open or closing tag (not script, style, pre or textarea), then only white
// space on the line.
func completeTagLine(m *md, q, le int) bool {
	doc := m.doc
	var end int
	if q+1 < le && doc[q+1] == '/' {
		j := q + 2
		if j >= le || !isAlpha(doc[j]) {
			return false
		}
		for j < le && (isAlnum(doc[j]) || doc[j] == '-') {
			j++
		}
		for j < le && isSpace(doc[j]) {
			j++
		}
		if j >= le || doc[j] != '>' {
			return false
		}
		end = j + 1
	} else {
		if q+1 >= le || !isAlpha(doc[q+1]) {
			return false
		}
		t := m.sc.parseTag(q+1, le, true)
		if !t.closed {
			return false
		}
		n := doc[t.ns:t.ne]
		if equalFold(n, "script") || equalFold(n, "style") || equalFold(n, "pre") || equalFold(n, "textarea") {
			return false
		}
		end = t.end
	}
	for ; end < le; end++ {
		if doc[end] != ' ' && doc[end] != '\t' {
			return false
		}
	}
	return true
}

// table recognises a GFM table: a line with a "|" and a delimiter row
// under it. Each cell of each row is an inline region of its own (the
// pipes split cells before inline parsing, GFM §4.10).
func (m *md) table(q, le, next, b, bq int) (int, bool) {
	doc := m.doc
	if indexByte(doc[q:le], '|') < 0 || next >= b {
		return 0, false
	}
	le2, n2 := lineEnd(doc, next, b)
	p2, bq2 := quotePrefix(doc, next, le2)
	if bq2 != bq || !delimiterRow(doc, p2, le2) {
		return 0, false
	}
	m.flush()
	m.cells(q, le)
	ls := n2
	for ls < b {
		le3, n3 := lineEnd(doc, ls, b)
		p3, bq3 := quotePrefix(doc, ls, le3)
		_, q3 := indent(doc, p3, le3)
		if bq3 != bq || q3 >= le3 {
			break
		}
		if c, n := fenceStart(doc, q3, le3); n > 0 && c != 0 || atxHeading(doc, q3, le3) {
			break
		}
		m.cells(q3, le3)
		ls = n3
	}
	return ls, true
}

func delimiterRow(doc []byte, p, le int) bool {
	dash, pipe := false, false
	for j := p; j < le; j++ {
		switch doc[j] {
		case '-':
			dash = true
		case '|':
			pipe = true
		case ':', ' ', '\t':
		default:
			return false
		}
	}
	return dash && pipe
}

func (m *md) cells(q, le int) {
	doc := m.doc
	s := q
	for k := q; k < le; k++ {
		switch doc[k] {
		case '\\':
			k++
		case '|':
			if k > s {
				m.inline(s, k)
			}
			s = k + 1
		}
	}
	if s < le {
		m.inline(s, le)
	}
}

// refDef recognises a link reference definition (CommonMark §4.7) at q:
// "[label]:", a destination (on the line or the next) and an optional
// title, which must end its line. A footnote definition "[^1]:" is not one.
func (m *md) refDef(q, le, next, b int) (int, bool) {
	doc := m.doc
	if doc[q] != '[' || q+1 < le && doc[q+1] == '^' {
		return 0, false
	}
	j := q + 1
	blank := true
	for j < le && doc[j] != ']' {
		switch c := doc[j]; {
		case c == '[':
			return 0, false
		case c == '\\' && j+1 < le:
			j++
			blank = false
		case c != ' ' && c != '\t':
			blank = false
		}
		j++
	}
	if j+1 >= le || blank || j-q > 1000 || doc[j+1] != ':' {
		return 0, false
	}
	p := j + 2
	for p < le && (doc[p] == ' ' || doc[p] == '\t') {
		p++
	}
	end := next
	lim := le
	if p >= le {
		// The destination is on the next line.
		if next >= b {
			return 0, false
		}
		le2, n2 := lineEnd(doc, next, b)
		p2, _ := quotePrefix(doc, next, le2)
		_, p = indent(doc, p2, le2)
		if p >= le2 {
			return 0, false
		}
		lim, end = le2, n2
	}
	var ds, de int
	if doc[p] == '<' {
		k := p + 1
		for k < lim && doc[k] != '>' && doc[k] != '<' {
			if doc[k] == '\\' && k+1 < lim {
				k++
			}
			k++
		}
		if k >= lim || doc[k] != '>' {
			return 0, false
		}
		ds, de, p = p+1, k, k+1
	} else {
		k, ok := rawDest(doc, p, lim)
		if !ok || k == p {
			return 0, false
		}
		ds, de, p = p, k, k
	}
	t := p
	for t < lim && (doc[t] == ' ' || doc[t] == '\t') {
		t++
	}
	if t < lim {
		if t == p {
			return 0, false
		}
		if _, ok := titleOnLine(doc, t, lim); !ok {
			return 0, false
		}
	} else if end < b {
		// A title alone on the next line belongs to the definition.
		le3, n3 := lineEnd(doc, end, b)
		p3, _ := quotePrefix(doc, end, le3)
		if _, t3 := indent(doc, p3, le3); t3 < le3 {
			if _, ok := titleOnLine(doc, t3, le3); ok {
				end = n3
			}
		}
	}
	m.sc.emit(m.sc.decodeSeq(ds, de, decMarkdown), RefDef, true)
	return end, true
}

// titleOnLine recognises a link title at t that closes on its line and is
// followed by white space only.
func titleOnLine(doc []byte, t, lim int) (int, bool) {
	open := doc[t]
	close := open
	switch open {
	case '"', '\'':
	case '(':
		close = ')'
	default:
		return 0, false
	}
	k := t + 1
	for k < lim && doc[k] != close {
		if doc[k] == '\\' && k+1 < lim {
			k++
		} else if open == '(' && doc[k] == '(' {
			return 0, false
		}
		k++
	}
	if k >= lim {
		return 0, false
	}
	for e := k + 1; e < lim; e++ {
		if doc[e] != ' ' && doc[e] != '\t' {
			return 0, false
		}
	}
	return k + 1, true
}

// rawDest scans a link destination without angle brackets (CommonMark
// §6.3): no white space or controls, parentheses balanced (at most 32
// deep, as cmark) or escaped.
func rawDest(doc []byte, p, b int) (int, bool) {
	depth := 0
	for p < b {
		c := doc[p]
		switch {
		case c == '\\' && p+1 < b && isASCIIPunct(doc[p+1]):
			p += 2
			continue
		case c <= ' ' || c == 0x7f:
			return p, depth == 0
		case c == '(':
			depth++
			if depth > 32 {
				return p, false
			}
		case c == ')':
			if depth == 0 {
				return p, true
			}
			depth--
		}
		p++
	}
	return p, depth == 0
}

// mdSpecial are the bytes that may start inline structure.
var mdSpecial = func() (t [256]bool) {
	for _, c := range "\\`<![]" {
		t[c] = true
	}
	return t
}()

// inline scans the inline region doc[a:b] (a paragraph, heading or table
// cell) in two passes: first the structure CommonMark gives precedence over
// text (code spans, autolinks, raw HTML, links and images, with the
// delimiter stack of spec appendix A: a link may not contain a link), then
// bare URLs in the text between.
func (m *md) inline(a, b int) {
	sc, doc := m.sc, m.doc
	m.skips, m.noBare, m.stack, m.runs = m.skips[:0], m.noBare[:0], m.stack[:0], nil
	watermark := 0 // openers below it are inactive (inside a link)
	aOpen := -1    // the start of an open inline <a> element
	for i := a; i < b; {
		c := doc[i]
		if !mdSpecial[c] {
			i++
			continue
		}
		switch c {
		case '\\':
			if i+1 < b && isASCIIPunct(doc[i+1]) {
				i += 2
			} else {
				i++
			}
		case '`':
			j := i
			for j < b && doc[j] == '`' {
				j++
			}
			if e := m.codeSpanEnd(a, b, i, j-i); e > 0 {
				m.skips = append(m.skips, span{i, e})
				i = e
			} else {
				i = j
			}
		case '<':
			end, kind := m.inlineAngle(i, b)
			if end == 0 {
				i++
				continue
			}
			m.skips = append(m.skips, span{i, end})
			switch {
			case kind == angleAOpen:
				aOpen = i
			case kind == angleAClose && aOpen >= 0:
				m.noBare = append(m.noBare, span{aOpen, i})
				aOpen = -1
			}
			i = end
		case '!':
			if i+1 < b && doc[i+1] == '[' {
				watermark = m.push(opener{i, true}, watermark)
				i += 2
			} else {
				i++
			}
		case '[':
			watermark = m.push(opener{i, false}, watermark)
			i++
		case ']':
			i = m.closeBracket(i, b, &watermark)
		}
	}
	// Bare URLs in the gaps between the structure.
	slices.SortFunc(m.skips, func(x, y span) int { return x.start - y.start })
	first := len(sc.cands)
	o := bareOpts{mode: decMarkdown, entityTail: true}
	g := a
	for _, s := range m.skips {
		if s.start > g {
			sc.scanBare(g, s.start, o)
		}
		g = max(g, s.end)
	}
	if g < b {
		sc.scanBare(g, b, o)
	}
	if len(m.noBare) == 0 || first == len(sc.cands) {
		return
	}
	slices.SortFunc(m.noBare, func(x, y span) int { return x.start - y.start })
	out := sc.cands[:first]
	k, reach := 0, -1
	for _, c := range sc.cands[first:] {
		for k < len(m.noBare) && m.noBare[k].start <= c.Start {
			reach = max(reach, m.noBare[k].end)
			k++
		}
		if c.Start < reach {
			continue // in link text
		}
		out = append(out, c)
	}
	sc.cands = out
}

// maxOpeners bounds the delimiter stack: a document of 10 MB of "[" would
// otherwise hold 10 M openers. The oldest half is dropped when it is full.
const maxOpeners = 4096

func (m *md) push(o opener, watermark int) int {
	if len(m.stack) >= maxOpeners {
		n := copy(m.stack, m.stack[maxOpeners/2:])
		m.stack = m.stack[:n]
		watermark = max(0, watermark-maxOpeners/2)
	}
	m.stack = append(m.stack, o)
	return watermark
}

// closeBracket handles the "]" at doc[i] (spec appendix A, "look for link
// or image"): with an active opener and an inline link tail "(…)" after it,
// a link or image.
func (m *md) closeBracket(i, b int, watermark *int) int {
	n := len(m.stack)
	if n == 0 {
		return i + 1
	}
	top := m.stack[n-1]
	m.stack = m.stack[:n-1]
	if !top.image && n-1 < *watermark {
		*watermark = min(*watermark, len(m.stack))
		return i + 1 // inactive: links do not nest
	}
	if i+1 < b && m.doc[i+1] == '(' {
		if ds, de, end, ok := m.linkTail(i+1, b); ok {
			if de > ds {
				m.sc.emit(m.sc.decodeSeq(ds, de, decMarkdown), Link, true)
			}
			olen := 1
			if top.image {
				olen = 2
			}
			m.noBare = append(m.noBare, span{top.pos, i})
			m.skips = append(m.skips, span{top.pos, top.pos + olen}, span{i, end})
			if top.image {
				*watermark = min(*watermark, len(m.stack))
			} else {
				*watermark = len(m.stack)
			}
			return end
		}
	}
	*watermark = min(*watermark, len(m.stack))
	return i + 1
}

// linkTail parses an inline link's "(destination "title")" at doc[p] ==
// '(' and returns the destination's span (without <>) and the offset
// after ")".
func (m *md) linkTail(p, b int) (ds, de, end int, ok bool) {
	doc := m.doc
	i := skipSpaceNL(doc, p+1, b)
	if i < b && doc[i] == ')' {
		return i, i, i + 1, true
	}
	if i >= b {
		return 0, 0, 0, false
	}
	if doc[i] == '<' {
		k := i + 1
		for k < b && doc[k] != '>' && doc[k] != '<' && doc[k] != '\n' && doc[k] != '\r' {
			if doc[k] == '\\' && k+1 < b && isASCIIPunct(doc[k+1]) {
				k++
			}
			k++
		}
		if k >= b || doc[k] != '>' {
			return 0, 0, 0, false
		}
		ds, de, i = i+1, k, k+1
	} else {
		k, ok := rawDest(doc, i, b)
		if !ok || k == i {
			return 0, 0, 0, false
		}
		ds, de, i = i, k, k
	}
	j := skipSpaceNL(doc, i, b)
	if j > i && j < b && (doc[j] == '"' || doc[j] == '\'' || doc[j] == '(') {
		k, ok := m.titleEnd(j, b)
		if !ok {
			return 0, 0, 0, false
		}
		j = skipSpaceNL(doc, k, b)
	}
	if j < b && doc[j] == ')' {
		return ds, de, j + 1, true
	}
	return 0, 0, 0, false
}

// titleEnd finds the end of the link title opened at doc[j], remembering
// when a closing quote is nowhere ahead.
func (m *md) titleEnd(j, b int) (int, bool) {
	doc := m.doc
	open := doc[j]
	close := open
	if open == '(' {
		close = ')'
	}
	key := "title" + string(close)
	if ms, ok := m.sc.misses[key]; ok && ms.start <= j && b <= ms.end {
		return 0, false
	}
	for k := j + 1; k < b; k++ {
		switch c := doc[k]; {
		case c == '\\' && k+1 < b && isASCIIPunct(doc[k+1]):
			k++
		case c == close:
			return k + 1, true
		case open == '(' && c == '(':
			return 0, false
		}
	}
	if m.sc.misses == nil {
		m.sc.misses = make(map[string]span)
	}
	m.sc.misses[key] = span{j, b}
	return 0, false
}

// skipSpaceNL skips spaces and tabs, with at most one line break.
func skipSpaceNL(doc []byte, i, b int) int {
	nl := false
	for i < b {
		switch doc[i] {
		case ' ', '\t':
		case '\n', '\r':
			if nl {
				return i
			}
			nl = true
			if doc[i] == '\r' && i+1 < b && doc[i+1] == '\n' {
				i++
			}
		default:
			return i
		}
		i++
	}
	return i
}

// codeSpanEnd returns the end of the code span whose opening backtick
// string doc[i:i+n] is, or -1 (CommonMark §6.1: the next backtick string
// of the same length closes it). The backtick strings of the region are
// indexed once by length, so that finding a closer never rescans.
func (m *md) codeSpanEnd(a, b, i, n int) int {
	doc := m.doc
	if m.runs == nil {
		m.runs = map[int][]int{}
		for k := a; k < b; {
			if doc[k] != '`' {
				k++
				continue
			}
			s := k
			for k < b && doc[k] == '`' {
				k++
			}
			m.runs[k-s] = append(m.runs[k-s], s)
		}
	}
	list := m.runs[n]
	if x := sort.SearchInts(list, i+n); x < len(list) {
		return list[x] + n
	}
	return -1
}

// What inlineAngle found.
const (
	angleOther = iota
	angleAOpen
	angleAClose
)

// inlineAngle recognises what may start with "<" in Markdown text: a
// <URL:…> wrapper, an autolink, an e-mail autolink or raw HTML (spec §6.5,
// §6.6). It returns the end of it, or 0.
func (m *md) inlineAngle(i, b int) (int, int) {
	sc, doc := m.sc, m.doc
	if end, ok := sc.wrapper(i, b, angleURLOnly); ok {
		return end, angleOther
	}
	if end := autolink(doc, i, b); end > 0 {
		sc.emit(seq{start: i + 1, end: end - 1}, Angle, false)
		return end, angleOther
	}
	if end := emailAutolink(doc, i, b); end > 0 {
		return end, angleOther
	}
	if i+1 >= b {
		return 0, 0
	}
	switch c := doc[i+1]; {
	case hasPrefix(doc[i:b], "<!--"):
		bs := i + 4
		switch {
		case hasPrefix(doc[bs:b], ">"):
			sc.comment(i, bs+1, bs, bs)
			return bs + 1, angleOther
		case hasPrefix(doc[bs:b], "->"):
			sc.comment(i, bs+2, bs, bs)
			return bs + 2, angleOther
		}
		if k := sc.index("md-->", bs, b, "-->"); k >= 0 {
			sc.comment(i, k+3, bs, k)
			return k + 3, angleOther
		}
	case c == '?':
		if k := sc.index("md?>", i+2, b, "?>"); k >= 0 {
			return k + 2, angleOther
		}
	case hasPrefix(doc[i:b], "<![CDATA["):
		if k := sc.index("md]]>", i+9, b, "]]>"); k >= 0 {
			return k + 3, angleOther
		}
	case c == '!' && i+2 < b && isAlpha(doc[i+2]):
		if k := sc.index("md>", i+2, b, ">"); k >= 0 {
			return k + 1, angleOther
		}
	case c == '/':
		j := i + 2
		if j >= b || !isAlpha(doc[j]) {
			return 0, 0
		}
		for j < b && (isAlnum(doc[j]) || doc[j] == '-') {
			j++
		}
		n := doc[i+2 : j]
		for j < b && isSpace(doc[j]) {
			j++
		}
		if j < b && doc[j] == '>' {
			if equalFold(n, "a") {
				return j + 1, angleAClose
			}
			return j + 1, angleOther
		}
	case isAlpha(c):
		t := sc.parseTag(i+1, b, true)
		if !t.closed {
			return 0, 0
		}
		sc.tagURLs(&t)
		if equalFold(doc[t.ns:t.ne], "a") && !t.self && t.has(doc, "href") {
			return t.end, angleAOpen
		}
		return t.end, angleOther
	}
	return 0, 0
}

// autolink returns the end of the CommonMark URI autolink at doc[i] ==
// '<' (spec §6.5: a scheme of 2 to 32 characters, ":", no white space,
// controls, "<" or ">"), or 0.
func autolink(doc []byte, i, b int) int {
	j := i + 1
	if j >= b || !isAlpha(doc[j]) {
		return 0
	}
	for j < b && isSchemeChar(doc[j]) && j-i <= 33 {
		j++
	}
	if n := j - i - 1; n < 2 || n > 32 || j >= b || doc[j] != ':' {
		return 0
	}
	for j++; j < b; j++ {
		switch c := doc[j]; {
		case c == '>':
			return j + 1
		case c <= ' ' || c == '<' || c == 0x7f:
			return 0
		}
	}
	return 0
}

// emailAutolink returns the end of a CommonMark e-mail autolink at doc[i]
// == '<', or 0.
func emailAutolink(doc []byte, i, b int) int {
	j := i + 1
	for j < b && (isAlnum(doc[j]) || strings.IndexByte(".!#$%&'*+/=?^_`{|}~-", doc[j]) >= 0) {
		j++
	}
	if j == i+1 || j >= b || doc[j] != '@' {
		return 0
	}
	j++
	for {
		s := j
		for j < b && (isAlnum(doc[j]) || doc[j] == '-') && j-s < 63 {
			j++
		}
		if j == s || doc[s] == '-' || doc[j-1] == '-' {
			return 0
		}
		if j < b && doc[j] == '.' {
			j++
			continue
		}
		if j < b && doc[j] == '>' {
			return j + 1
		}
		return 0
	}
}
