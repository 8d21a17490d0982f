package scan

import (
	"bytes"
	"slices"
	"sort"
	"strings"
	"sync"
)

// md is the state of the Markdown scanner. It follows the block structure
// of CommonMark and GFM closely enough to know what is code, raw HTML, a
// table cell, a link reference definition or paragraph text, without
// building a tree: like the parsing strategy of the CommonMark spec
// (appendix A, phase 1), it keeps the stack of open containers (block
// quotes and list items) and matches each line against it, but the leaf
// blocks are dealt with as their lines come. Only the lines of the open
// paragraph are kept, until it ends: its reference definitions are then
// taken from its start, and the rest is one inline region (so is a heading
// or a table cell), scanned for links by the CommonMark inline rules at
// the end of the document, when every reference definition is known.
type md struct {
	sc  *scanner
	doc []byte

	open   []container // the open block quotes and list items, outermost first
	pstart int         // the lines of the open paragraph are rlines[pstart:]: content start, line end

	fenceOpen bool // a fenced code block, in the innermost open container
	fenceChar byte
	fenceLen  int

	// The inline regions (paragraphs, headings, table cells) wait for the
	// end of the document, when the labels of every reference definition,
	// which a reference link may use before it, are known.
	regions []region
	rlines  []span         // the lines of the paragraph regions, then of the open paragraph
	labels  map[string]int // normalised (normLabel): how many definitions have each
	label   []byte         // scratch for hasLabel

	// What a later re-scan needs (Outline), recorded when out is set.
	out        *Outline
	end        int  // where the block pass ended
	afterBlank bool // the last line the block pass took was blank, outside any container or fence

	// inline scratch
	skips, noBare []span
	seps          []int // the ":" and "/" of the inline region outside its structure, in order
	stack         []opener
	lastBracket   int           // the last "[" or "]" of the inline region seen
	runs          map[int][]int // the backtick strings of the inline region by length, once runsIndexed
	runsIndexed   bool
	lines         []span // the lines of the inline region being scanned, if a paragraph's
	region        span   // the inline region being scanned
	breaks        []int  // its line breaks, once lineEndAt needs them (breaksIndexed)
	breaksIndexed bool
	closes        [2]span  // the last "}}" and "%}" templateEnd found: searched from start, found at end
	special       []uint64 // the bitmap of its bytes in mdSpecial, from its start (nibbleSet.markBits)
}

// maxContainers bounds the nesting of block quotes and list items, which
// every line is matched with: a blank line continues every list item, so
// without a bound 1 MB of "1. " and then 1 MB of line breaks would take
// quadratic time. Deeper markers are paragraph text.
const maxContainers = 64

// region is an inline region waiting to be scanned; a paragraph's has its
// lines, rlines[lines.start:lines.end], for what crosses a line break.
type region struct{ text, lines span }

// container is an open block quote or list item.
type container struct {
	item  bool // a list item, else a block quote
	width int  // a list item's content indentation, from where its container's content starts on each line
	empty bool // a list item that began with a blank line and holds nothing yet
}

// cursor is a place in a line: doc[p] is the first byte not yet taken by
// container markers and indentation, col its column (tabs stop every 4
// columns). A tab that is partly taken (by the space after a block quote
// marker, or up to a list item's content column) stays at p, with col
// inside it.
type cursor struct{ p, col int }

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
//     HTML; the text of an inline <a> element is not scanned;
//   - template actions of site generators in destinations: "{{…}}" and
//     "{%…%}" closed on their line (templateEnd), with the white space,
//     "<", ">" and quotes in them, are part of a link destination, a
//     reference definition's, a <…> destination or an autolink whose URL
//     starts with one ("[x]({{< ref "a.md" >}})", "<{{% eturl x %}}>"):
//     Hugo or Jekyll replaces them before the Markdown is rendered;
//   - inline link and image destinations with white space outside template
//     actions, "[About](https://example.com/about us)": CommonMark makes
//     text of them, but the writer meant a link, so the destination is a
//     candidate (context Link, Relative, Text with the white space) with
//     Unrendered set, when it looks like one: on the line of "(", before
//     the ")" that closes it, no brackets, "<", ">" or backquotes in it,
//     no title-like quote or "(" after white space, and a scheme, a path
//     or a file name in it (spacedTail, looksLikeDest). A title at its end
//     is not part of it.
//
// Code spans, fenced and indented code blocks are skipped: they are
// literal text, examples more often than links. So are HTML comments, but
// for suppression directives.
//
// The block structure is CommonMark's (§4, §5), line by line: block quotes
// and list items nest to any depth, a list item's lines are those indented
// to its content column (so are the fenced and indented code blocks in
// it), a paragraph continues lazily into a line that would otherwise close
// its containers, and a container's end ends the code block or HTML block
// in it. GFM tables need a delimiter row with as many cells as the header
// row, and may interrupt a paragraph.
//
// Inline regions are scanned once the block structure of the whole
// document is known, with the labels of its reference definitions: the
// text of a reference link ("[text][label]", "[label][]", "[label]") is
// link text, not scanned for bare URLs, and "(…)" after a shortcut
// reference is text, as CommonMark renders them.
//
// Known approximations: an inline region spans the container markers of
// its continuation lines, which link destinations skip but a link title,
// link text or code span that goes on after a "> " holds; and labels are
// case folded by Go's simple folding, not Unicode's full one ("ẞ" does not
// match "SS").
func (sc *scanner) scanMarkdown(a, b int) {
	m := sc.markdownBlocks(a, b, nil, nil)
	m.inlines()
	m.release()
}

// markdownBlocks runs the block pass of scanMarkdown over doc[a:b], from a
// restart point (see Outline), and returns the scanner with its inline
// regions waiting. With out set, it records in it the restart points and
// reference definitions it passes; stop, when not nil, is asked at each
// restart point after a whether the pass ends there (its end is then
// m.end, else b).
func (sc *scanner) markdownBlocks(a, b int, out *Outline, stop func(ls int, blank int) bool) *md {
	m := newMD(sc)
	m.out, m.end = out, b
	// Room for the inline regions and paragraph lines of most documents
	// at once, not by doubling; a pass that may stop early (a window of
	// an edit, see Outline) grows them as it goes.
	size := b - a
	if stop != nil {
		size = min(size, 16<<10)
	}
	if n := size/128 + 16; cap(m.regions) < n {
		m.regions = make([]region, 0, n)
	}
	if n := size/64 + 16; cap(m.rlines) < n {
		m.rlines = make([]span, 0, n)
	}
	blank := a // the start of the last blank line
	for ls := a; ls < b; {
		if m.afterBlank && ls > a {
			if stop != nil && stop(ls, blank) {
				m.end = ls
				break
			}
			if out != nil {
				out.restarts = append(out.restarts, ls)
			}
		}
		blank = ls
		ls = m.line(ls, b)
	}
	m.flush()
	return m
}

// inlines scans the inline regions that the block pass left waiting.
func (m *md) inlines() {
	for _, r := range m.regions {
		m.lines = m.rlines[r.lines.start:r.lines.end]
		m.inline(r.text.start, r.text.end)
	}
}

// mdPool keeps the scratch of Markdown scans (line and region lists,
// delimiter stack, labels) for the next one: a scan of a small document
// would otherwise allocate and clear more for them than it reads.
var mdPool = sync.Pool{New: func() any { return new(md) }}

// maxPooled bounds the scratch kept in mdPool, in elements of a list or
// map, so that one huge document does not hold memory for good.
const maxPooled = 1 << 16

// newMD returns a Markdown scanner for sc, with the scratch of an earlier
// one if there is one (release left it empty).
func newMD(sc *scanner) *md {
	p := mdPool.Get().(*md)
	p.sc, p.doc = sc, sc.doc
	return p
}

// release puts m's scratch back in mdPool, unless it grew too large.
func (m *md) release() {
	if cap(m.regions) > maxPooled || cap(m.rlines) > maxPooled || cap(m.skips) > maxPooled ||
		cap(m.noBare) > maxPooled || cap(m.breaks) > maxPooled || cap(m.seps) > maxPooled || len(m.labels) > maxPooled || len(m.runs) > 64 ||
		cap(m.special) > maxPooled {
		return
	}
	clear(m.labels)
	for n, list := range m.runs {
		if cap(list) > maxPooled {
			delete(m.runs, n)
		}
	}
	*m = md{
		open: m.open[:0], regions: m.regions[:0], rlines: m.rlines[:0], labels: m.labels, label: m.label[:0],
		skips: m.skips[:0], noBare: m.noBare[:0], stack: m.stack[:0], runs: m.runs, breaks: m.breaks[:0], seps: m.seps[:0],
		special: m.special[:0],
	}
	mdPool.Put(m)
}

// flush ends the open paragraph: its reference definitions, then the rest
// as an inline region.
func (m *md) flush() {
	if m.paraOpen() {
		m.endPara()
	}
}

// paraOpen reports whether a paragraph is open.
func (m *md) paraOpen() bool { return len(m.rlines) > m.pstart }

// endPara ends the open paragraph, rlines[pstart:]: its reference
// definitions, then the rest as an inline region, whose lines stay where
// they are. It reports whether there is such a rest.
func (m *md) endPara() bool {
	ls := m.rlines[m.pstart:]
	k := m.refDefs(ls)
	rest := k < len(ls)
	if rest {
		m.regions = append(m.regions, region{span{ls[k].start, ls[len(ls)-1].end}, span{m.pstart + k, len(m.rlines)}})
	} else {
		m.rlines = m.rlines[:m.pstart]
	}
	m.pstart = len(m.rlines)
	return rest
}

// addText adds doc[a:b], on one line, as an inline region.
func (m *md) addText(a, b int) {
	m.regions = append(m.regions, region{text: span{a, b}})
}

// setextHeading ends the open paragraph at a setext heading underline
// (CommonMark §4.3): its reference definitions, then the rest as the
// heading's inline region. When the definitions take every line there is
// no heading, and it returns false: the underline is paragraph text.
func (m *md) setextHeading() bool {
	return m.endPara()
}

// para adds the line doc[q:le] to the open paragraph, or opens one.
func (m *md) para(q, le int) {
	m.rlines = append(m.rlines, span{q, le})
}

// lineEnd returns the end of the line at ls (before its line break) and the
// start of the next one.
func lineEnd(doc []byte, ls, b int) (le, next int) {
	le = lineBreak(doc, ls, b)
	next = le
	if next < b {
		next++
		if doc[le] == '\r' && next < b && doc[next] == '\n' {
			next++
		}
	}
	return le, next
}

// indent returns the column of the first non-blank character at or after
// p (tabs stop every 4 columns) and its offset.
func indent(doc []byte, p, le int) (int, int) {
	q, col := nonSpace(doc, cursor{p: p}, le)
	return col, q
}

// nonSpace returns the first byte at or after c that is not a space or a
// tab (le if none) and its column.
func nonSpace(doc []byte, c cursor, le int) (int, int) {
	p, col := c.p, c.col
	for ; p < le; p++ {
		switch doc[p] {
		case ' ':
			col++
		case '\t':
			col += 4 - col%4
		default:
			return p, col
		}
	}
	return p, col
}

// advance takes the white space after c up to column target, splitting a
// tab if it must.
func (c *cursor) advance(doc []byte, le, target int) {
	for c.col < target && c.p < le {
		switch doc[c.p] {
		case ' ':
			c.p++
			c.col++
		case '\t':
			w := 4 - c.col%4
			if c.col+w > target {
				c.col = target
				return
			}
			c.p++
			c.col += w
		default:
			return
		}
	}
}

// quoteMarker takes the block quote marker ">" at doc[q] (column qcol) and
// the one space (or column of a tab) after it (CommonMark §5.1).
func (c *cursor) quoteMarker(doc []byte, q, qcol, le int) {
	c.p, c.col = q+1, qcol+1
	c.advance(doc, le, c.col+1)
}

// continues matches the line at c, whose first byte that is not white
// space is doc[q] in column qcol, with the open container ct and takes what
// belongs to it: a block quote's ">" (indented less than 4 columns), a
// list item's indentation, as wide as its content was from the start of
// its container's content (CommonMark §5.1, §5.2; the container's ">"
// may stand in another column on each line). A blank line continues a
// list item, unless the item began with a blank line and holds nothing
// yet (an item begins with at most one).
func (m *md) continues(c *cursor, q, qcol, le int, ct *container) bool {
	doc := m.doc
	switch {
	case !ct.item:
		if q < le && doc[q] == '>' && qcol-c.col < 4 {
			c.quoteMarker(doc, q, qcol, le)
			return true
		}
		return false
	case q >= le:
		return !ct.empty
	case qcol-c.col >= ct.width:
		c.advance(doc, le, c.col+ct.width)
		return true
	}
	return false
}

// matchOpen matches the line at c with the open containers, advancing c,
// and returns how many it continues and where its content starts.
func (m *md) matchOpen(c *cursor, le int) (matched, q, qcol int) {
	q, qcol = nonSpace(m.doc, *c, le)
	for matched < len(m.open) && m.continues(c, q, qcol, le, &m.open[matched]) {
		if !m.open[matched].item {
			q, qcol = nonSpace(m.doc, *c, le)
		}
		matched++
	}
	return matched, q, qcol
}

// contentStart matches the line at ls with every open container, without
// changing them (to look ahead), and returns where its content starts,
// its end and the start of the next line; ok is false when the line does
// not continue them all.
func (m *md) contentStart(ls, b int) (q, le, next int, ok bool) {
	le, next = m.sc.lineEnd(ls, b)
	c := cursor{p: ls}
	matched, q, _ := m.matchOpen(&c, le)
	return q, le, next, matched == len(m.open)
}

// openContainer ends the open containers from the k-th on and the open
// paragraph, and opens ct inside the others.
func (m *md) openContainer(k int, ct container) {
	m.flush()
	if k > 0 {
		m.open[k-1].empty = false // a list item that holds a container is not empty
	}
	m.open = append(m.open[:k], ct)
}

// closeFrom ends the open containers from the k-th on, and the paragraph
// in them.
func (m *md) closeFrom(k int) {
	if k < len(m.open) {
		m.flush()
		m.open = m.open[:k]
	}
}

// line scans the line at ls and returns the start of the next line to
// scan. It follows phase 1 of the CommonMark parsing strategy: match the
// open containers, then open new ones, then either add the line lazily to
// the open paragraph or close the containers it did not match, and deal
// with the rest of the line as a leaf block.
func (m *md) line(ls, b int) int {
	if m.fenceOpen && len(m.open) == 0 {
		return m.skipFence(ls, b)
	}
	doc := m.doc
	le, next := m.sc.lineEnd(ls, b)
	c := cursor{p: ls}
	if len(m.open) == 0 && !m.fenceOpen {
		// Outside containers and code, a line whose first character
		// starts no block is paragraph text (or indented code), the
		// common case: none of the tests below applies to it, nor to a
		// line indented 4 columns or more. A blank line ends the open
		// paragraph.
		q, qcol := nonSpace(doc, c, le)
		if q >= le {
			m.flush()
			m.afterBlank = true
			return next
		}
		if qcol >= 4 || !blockStart[doc[q]] {
			m.afterBlank = false
			if qcol < 4 {
				// Most lines are not followed by a table's delimiter
				// row: its first byte says so without a call of table.
				if next < b && delimiterStart[doc[next]] {
					if end, ok := m.table(q, le, next, b); ok {
						return end
					}
				}
			} else if !m.paraOpen() {
				return next // indented code
			}
			m.para(q, le)
			return next
		}
	}
	matched, q, qcol := m.matchOpen(&c, le)
	if m.fenceOpen {
		if matched == len(m.open) {
			if q < le && qcol-c.col < 4 && closesFence(doc, q, le, m.fenceChar, m.fenceLen) {
				m.fenceOpen = false
			}
			return next
		}
		m.fenceOpen = false // its container ended
	}
	paraOpen := m.paraOpen()
	// A new list item interrupts a paragraph of the innermost container
	// only if it is not empty and, ordered, starts at 1 (§5.2).
	interrupting := paraOpen && matched == len(m.open)
	opened := false
	for q < le && qcol-c.col < 4 && len(m.open) < maxContainers {
		if doc[q] == '>' {
			m.openContainer(matched, container{})
			matched = len(m.open)
			c.quoteMarker(doc, q, qcol, le)
		} else {
			if thematicBreak(doc, q, le) || interrupting && setextUnderline(doc, q, le) {
				break
			}
			it, ok := listItem(doc, q, le, qcol)
			if !ok || interrupting && (it.blank || !it.one) {
				break
			}
			m.openContainer(matched, container{item: true, width: it.ccol - c.col, empty: it.blank})
			matched = len(m.open)
			c = it.c
		}
		q, qcol = nonSpace(doc, c, le)
		opened, interrupting = true, false
	}
	if q >= le { // a blank line
		m.closeFrom(matched)
		m.flush()
		m.afterBlank = len(m.open) == 0
		return next
	}
	m.afterBlank = false
	ind := qcol - c.col
	if !opened && matched < len(m.open) && paraOpen && !m.interrupts(q, le, ind) {
		m.para(q, le) // a lazy continuation line (§5.1)
		return next
	}
	m.closeFrom(matched)
	if n := len(m.open); n > 0 {
		m.open[n-1].empty = false
	}
	paraOpen = m.paraOpen()
	if ind >= 4 {
		if paraOpen {
			m.para(q, le) // indented code cannot interrupt a paragraph
		}
		return next // indented code
	}
	if ch, n := fenceStart(doc, q, le); n > 0 {
		m.flush()
		m.fenceOpen, m.fenceChar, m.fenceLen = true, ch, n
		return next
	}
	if doc[q] == '<' {
		if end, ok := m.htmlBlock(q, le, next, b, paraOpen); ok {
			return end
		}
	}
	if atxHeading(doc, q, le) {
		m.flush()
		m.addText(q, le)
		return next
	}
	if thematicBreak(doc, q, le) {
		m.flush()
		return next
	}
	if paraOpen && setextUnderline(doc, q, le) {
		if !m.setextHeading() {
			m.para(q, le) // after reference definitions only: paragraph text
		}
		return next
	}
	if end, ok := m.table(q, le, next, b); ok {
		return end
	}
	m.para(q, le)
	return next
}

// skipFence takes the lines of the fenced code block open outside any
// container from the line at ls on, to the line that closes it, and
// returns the start of the line after that one (b if none closes it).
// Rather than read each line, it searches for the fence character: a
// line closes the block when it starts with at most 3 spaces and that
// character (a tab takes it to column 4: then it is code), and
// closesFence accepts the rest.
func (m *md) skipFence(ls, b int) int {
	doc, c := m.doc, m.fenceChar
	for p := ls; p < b; {
		k := nextByte(doc, p, b, c)
		if k >= b {
			return b
		}
		j := k // the start of k's line, if only spaces stand before k
		for j > ls && doc[j-1] == ' ' && k-j < 3 {
			j--
		}
		if j == ls || doc[j-1] == '\n' || doc[j-1] == '\r' {
			le, next := m.sc.lineEnd(j, b)
			if closesFence(doc, k, le, c, m.fenceLen) {
				m.fenceOpen = false
				return next
			}
		}
		for p = k; p < b && doc[p] == c; p++ {
		}
	}
	return b
}

// blockStart are the first characters of the lines that may start or
// continue a block other than a paragraph: block quotes, list items,
// thematic breaks, setext underlines, code fences, HTML blocks and ATX
// headings.
var blockStart = func() (t [256]bool) {
	for _, c := range ">-+*0123456789_=`~<#" {
		t[c] = true
	}
	return t
}()

// interrupts reports whether the line content at q, indented ind columns
// past its containers, starts a leaf block that ends a paragraph (and so
// cannot be a lazy continuation line): a code fence, an ATX heading, a
// thematic break or an HTML block of types 1 to 6.
func (m *md) interrupts(q, le, ind int) bool {
	doc := m.doc
	if ind >= 4 {
		return false
	}
	if _, n := fenceStart(doc, q, le); n > 0 {
		return true
	}
	if atxHeading(doc, q, le) || thematicBreak(doc, q, le) {
		return true
	}
	_, ok := m.htmlStart(q, le, true)
	return ok
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

// closesFence reports whether the line content at q closes a fence of n
// characters c: at least n of them, then white space only.
func closesFence(doc []byte, q, le int, c byte, n int) bool {
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

// itemStart is what listItem found.
type itemStart struct {
	ccol  int    // the item's content column
	c     cursor // after the marker and the white space that goes with it
	blank bool   // nothing follows the marker on its line
	one   bool   // a bullet, or an ordered item numbered 1: it may interrupt a paragraph
}

// listItem recognises a list marker at q, in column qcol: "-", "+", "*",
// or 1 to 9 digits and "." or ")", then white space or the end of the line
// (CommonMark §5.2). The content column is the column after the marker and
// 1 to 4 columns of white space; with 5 or more, the content is indented
// code and the content column is one past the marker.
func listItem(doc []byte, q, le, qcol int) (itemStart, bool) {
	j := q
	one := true
	switch c := doc[q]; {
	case c == '-' || c == '+' || c == '*':
		j++
	case isDigit(c):
		n := 0
		for j < le && isDigit(doc[j]) && j-q < 9 {
			n = n*10 + int(doc[j]-'0')
			j++
		}
		if j >= le || doc[j] != '.' && doc[j] != ')' {
			return itemStart{}, false
		}
		one = n == 1
		j++
	default:
		return itemStart{}, false
	}
	mcol := qcol + (j - q)
	if j < le && doc[j] != ' ' && doc[j] != '\t' {
		return itemStart{}, false
	}
	k, kcol := nonSpace(doc, cursor{j, mcol}, le)
	if k >= le {
		return itemStart{ccol: mcol + 1, c: cursor{le, kcol}, blank: true, one: one}, true
	}
	if kcol-mcol > 4 {
		c := cursor{j, mcol}
		c.advance(doc, le, mcol+1)
		return itemStart{ccol: mcol + 1, c: c, one: one}, true
	}
	return itemStart{ccol: kcol, c: cursor{k, kcol}, one: one}, true
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

// The end conditions of HTML blocks that htmlStart returns besides the end
// markers of types 2 to 5.
const (
	htmlEndTag   = "</" // type 1: a line with </script>, </pre>, </style> or </textarea>
	htmlEndBlank = ""   // types 6 and 7: a blank line
)

// htmlStart recognises the start of a CommonMark HTML block (spec §4.6) at
// doc[q] == '<' and returns its end condition: htmlEndTag, the end marker
// of types 2 to 5 ("-->", "?>", ">", "]]>"), or htmlEndBlank. A block of
// type 7 cannot interrupt a paragraph.
func (m *md) htmlStart(q, le int, paraOpen bool) (string, bool) {
	doc := m.doc
	if doc[q] != '<' {
		return "", false
	}
	name := func(p int) (int, int) {
		e := p
		for e < le && isAlnum(doc[e]) {
			e++
		}
		return p, e
	}
	endsName := func(e int) bool { return e == le || isSpace(doc[e]) || doc[e] == '>' }
	switch {
	case hasPrefix(doc[q:le], "<!--"):
		return "-->", true
	case hasPrefix(doc[q:le], "<?"):
		return "?>", true
	case hasPrefix(doc[q:le], "<![CDATA["):
		return "]]>", true
	case q+2 < le && doc[q+1] == '!' && isAlpha(doc[q+2]):
		return ">", true
	}
	if q+1 < le && isAlpha(doc[q+1]) {
		s, e := name(q + 1)
		for _, n := range []string{"script", "pre", "style", "textarea"} {
			if equalFold(doc[s:e], n) && endsName(e) {
				return htmlEndTag, true
			}
		}
	}
	p := q + 1
	if p < le && doc[p] == '/' {
		p++
	}
	s, e := name(p)
	var lb [32]byte
	if e > s && htmlBlocks[string(appendLower(lb[:0], doc[s:e]))] && (endsName(e) || hasPrefix(doc[e:le], "/>")) {
		return htmlEndBlank, true
	}
	if !paraOpen && completeTagLine(m, q, le) {
		return htmlEndBlank, true
	}
	return "", false
}

// htmlBlock recognises a CommonMark HTML block (spec §4.6) starting at
// doc[q] == '<', scans it as HTML and returns the start of the line after
// it. The block ends with the line that holds its end condition, before a
// blank line (types 6 and 7), or where its container ends.
func (m *md) htmlBlock(q, le, next, b int, paraOpen bool) (int, bool) {
	end, ok := m.htmlStart(q, le, paraOpen)
	if !ok {
		return 0, false
	}
	m.flush()
	e, n := le, next
	if end == htmlEndBlank || !htmlEnds(m.doc, q, le, end) {
		for n < b {
			q2, le2, n2, ok := m.contentStart(n, b)
			if !ok || end == htmlEndBlank && q2 >= le2 {
				break
			}
			e, n = le2, n2
			if end != htmlEndBlank && htmlEnds(m.doc, q2, le2, end) {
				break
			}
		}
	}
	m.sc.scanHTML(q, e)
	return n, true
}

// htmlEnds reports whether doc[p:le] holds the end condition end of an
// HTML block of types 1 to 5.
func htmlEnds(doc []byte, p, le int, end string) bool {
	if end != htmlEndTag {
		return indexString(doc[p:le], end) >= 0
	}
	for i := p; i < le; {
		k := indexByte(doc[i:le], '<')
		if k < 0 {
			return false
		}
		p := i + k
		if p+1 < le && doc[p+1] == '/' {
			s, e := p+2, p+2
			for e < le && isAlpha(doc[e]) {
				e++
			}
			n := doc[s:e]
			if e < le && doc[e] == '>' && (equalFold(n, "script") || equalFold(n, "pre") || equalFold(n, "style") || equalFold(n, "textarea")) {
				return true
			}
		}
		i = p + 1
	}
	return false
}

// appendLower appends b to dst with its ASCII letters in lower case: with
// dst on the stack, a map of names is looked up without an allocation.
func appendLower(dst, b []byte) []byte {
	for _, c := range b {
		dst = append(dst, lower(c))
	}
	return dst
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

// table recognises a GFM table (GFM §4.10) at the line content doc[q:le]:
// a header row, then a delimiter row with as many cells on the next line
// of the same containers; its rows go on to a blank line, the end of a
// container or the start of another block. Each cell of each row is an
// inline region of its own (the pipes split cells before inline parsing).
// A table may interrupt a paragraph.
func (m *md) table(q, le, next, b int) (int, bool) {
	doc := m.doc
	if next >= b {
		return 0, false
	}
	// Most lines are not followed by a delimiter row: look at the first
	// byte of the next line that is not white space before searching this
	// one for a pipe. It is the first of the row's content, or the ">" of
	// a block quote that holds the table.
	p, _ := nonSpace(doc, cursor{p: next}, b)
	if p >= b {
		return 0, false
	}
	switch doc[p] {
	case '|', '-', ':':
	case '>':
		if len(m.open) == 0 {
			return 0, false // a block quote starts: not a row of this table
		}
	default:
		return 0, false
	}
	if indexByte(doc[q:le], '|') < 0 {
		return 0, false
	}
	q2, le2, n2, ok := m.contentStart(next, b)
	if !ok || q2 >= le2 || !delimiterRow(doc, q2, le2) || countCells(doc, q, le) != countCells(doc, q2, le2) {
		return 0, false
	}
	m.flush()
	m.cells(q, le)
	ls := n2
	for ls < b {
		q3, le3, n3, ok := m.contentStart(ls, b)
		if !ok || q3 >= le3 || doc[q3] == '>' || m.interrupts(q3, le3, 0) {
			break
		}
		if it, ok := listItem(doc, q3, le3, 0); ok && !it.blank && it.one {
			break // a list item that would interrupt a paragraph
		}
		m.cells(q3, le3)
		ls = n3
	}
	return ls, true
}

// delimiterStart are the bytes a line may start with that is a table's
// delimiter row (delimiterRow), or white space before one.
var delimiterStart = func() (t [256]bool) {
	for _, c := range " \t|-:" {
		t[c] = true
	}
	return t
}()

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

// countCells counts the cells of the table row doc[q:le]: its unescaped
// pipes split it, a leading and a trailing pipe are optional.
func countCells(doc []byte, q, le int) int {
	for le > q && (doc[le-1] == ' ' || doc[le-1] == '\t') {
		le--
	}
	n := 1
	for k := q; k < le; k++ {
		switch doc[k] {
		case '\\':
			k++
		case '|':
			if k > q && k < le-1 {
				n++
			}
		}
	}
	return n
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
				m.addText(s, k)
			}
			s = k + 1
		}
	}
	if s < le {
		m.addText(s, le)
	}
}

// refDefs recognises the link reference definitions at the start of a
// paragraph whose lines are ls (CommonMark §4.7: the definitions of a
// paragraph are taken from its start, one after the other) and emits their
// destinations. It returns how many lines they take.
func (m *md) refDefs(ls []span) int {
	k := 0
	for k < len(ls) {
		n := m.refDef(ls[k:])
		if n == 0 {
			break
		}
		k += n
	}
	return k
}

// paraReader reads the lines of a paragraph, from the content start of
// each: doc[p] is in line ls[k], or p is its end.
type paraReader struct {
	doc []byte
	ls  []span
	k   int
	p   int
}

func (r *paraReader) eol() bool { return r.p >= r.ls[r.k].end }

// nextLine moves to the start of the next line, if there is one.
func (r *paraReader) nextLine() bool {
	if r.k+1 >= len(r.ls) {
		return false
	}
	r.k++
	r.p = r.ls[r.k].start
	return true
}

// space skips spaces and tabs with at most one line break, and reports
// whether it skipped anything.
func (r *paraReader) space() bool {
	p, k := r.p, r.k
	for !r.eol() && (r.doc[r.p] == ' ' || r.doc[r.p] == '\t') {
		r.p++
	}
	if r.eol() && r.nextLine() {
		for !r.eol() && (r.doc[r.p] == ' ' || r.doc[r.p] == '\t') {
			r.p++
		}
	}
	return r.p != p || r.k != k
}

// blankRest reports whether the rest of the line holds only white space.
func (r *paraReader) blankRest() bool {
	for p := r.p; p < r.ls[r.k].end; p++ {
		if r.doc[p] != ' ' && r.doc[p] != '\t' {
			return false
		}
	}
	return true
}

// refDef recognises a link reference definition at the start of the
// paragraph lines ls (CommonMark §4.7): "[label]:" (the label may span
// lines, up to 999 characters), white space with at most one line break,
// a destination, then an optional title that may span lines and must end
// its line; without a valid title, the definition ends with its
// destination's line if nothing follows on it. A footnote definition
// "[^1]:" is not one. It emits the destination and returns the number of
// lines the definition takes, or 0.
func (m *md) refDef(ls []span) int {
	doc := m.doc
	r := &paraReader{doc: doc, ls: ls, p: ls[0].start}
	if r.eol() || doc[r.p] != '[' || r.p+1 < ls[0].end && doc[r.p+1] == '^' {
		return 0
	}
	r.p++
	ls0 := r.p
	n, blank := 0, true
	for {
		if r.eol() {
			if !r.nextLine() {
				return 0
			}
			n++
			continue
		}
		c := doc[r.p]
		if c == ']' {
			break
		}
		switch {
		case c == '[':
			return 0
		case c == '\\' && r.p+1 < ls[r.k].end:
			r.p++
			n++
			blank = false
		case c != ' ' && c != '\t':
			blank = false
		}
		r.p++
		if n++; n > 999 {
			return 0
		}
	}
	label := doc[ls0:r.p]
	r.p++
	if blank || r.eol() || doc[r.p] != ':' {
		return 0
	}
	r.p++
	r.space()
	if r.eol() {
		return 0
	}
	lim := ls[r.k].end
	var ds, de int
	if doc[r.p] == '<' {
		k, ok := m.angleDest(r.p, lim)
		if !ok {
			return 0
		}
		ds, de, r.p = r.p+1, k, k+1
	} else {
		k, ok := m.rawDest(r.p, lim)
		if !ok || k == r.p {
			return 0
		}
		ds, de, r.p = r.p, k, k
	}
	destLine, endsHere := r.k, r.blankRest()
	lines := 0
	if r.space() && !r.eol() {
		if c := doc[r.p]; c == '"' || c == '\'' || c == '(' {
			if r.title() && r.blankRest() {
				lines = r.k + 1
			}
		}
	}
	if lines == 0 {
		if !endsHere {
			return 0
		}
		lines = destLine + 1
	}
	m.sc.emit(m.sc.decodeSeq(ds, de, decMarkdown), RefDef, true)
	if m.labels == nil {
		m.labels = map[string]int{}
	}
	norm := normLabel(label)
	m.labels[norm]++
	if m.out != nil {
		m.out.defs = append(m.out.defs, labelDef{ds, norm})
	}
	return lines
}

// hasLabel reports whether the label b is defined, without building its
// normal form when b is in it already (the common case: lower-case ASCII
// words with single spaces between them).
func (m *md) hasLabel(b []byte) bool {
	if normalLabel(b) {
		return m.labels[string(b)] > 0
	}
	if buf, ok := appendNormLabel(m.label[:0], b); ok {
		m.label = buf
		return m.labels[string(buf)] > 0
	}
	return m.labels[normLabel(b)] > 0
}

// normalLabel reports whether the label b is its own normal form
// (normLabel): ASCII without upper-case letters or controls, words with
// single spaces between them.
func normalLabel(b []byte) bool {
	for i, c := range b {
		if c >= 0x80 || 'A' <= c && c <= 'Z' || c < ' ' || c == ' ' && (i == 0 || i == len(b)-1 || b[i-1] == ' ') {
			return false
		}
	}
	return true
}

// normLabel normalises a link label for matching (CommonMark §4.7): case
// folded, white space trimmed and collapsed to one space. The case folding
// is Go's simple one (upper, then lower case), not Unicode's full folding
// ("ẞ" does not match "SS"). An ASCII label, the common case, is
// normalised in one pass: its white space is what strings.Fields splits
// at, and folding it lower-cases its letters.
func normLabel(b []byte) string {
	if normalLabel(b) {
		return string(b)
	}
	var scratch [64]byte // most labels fit: one allocation, the string's
	if buf, ok := appendNormLabel(scratch[:0], b); ok {
		return string(buf)
	}
	return strings.ToLower(strings.ToUpper(strings.Join(strings.Fields(string(b)), " ")))
}

// appendNormLabel appends the normal form of the ASCII label b to buf, or
// reports false when b is not ASCII.
func appendNormLabel(buf, b []byte) ([]byte, bool) {
	for _, c := range b {
		switch {
		case c >= 0x80:
			return buf, false
		case isSpace(c):
			if len(buf) > 0 && buf[len(buf)-1] != ' ' {
				buf = append(buf, ' ')
			}
		default:
			buf = append(buf, lower(c))
		}
	}
	if len(buf) > 0 && buf[len(buf)-1] == ' ' {
		buf = buf[:len(buf)-1]
	}
	return buf, true
}

// title reads a link title opened at r.p, over lines, and reports whether
// it closes (CommonMark §6.3: in parentheses, an unescaped "(" is not
// allowed).
func (r *paraReader) title() bool {
	open := r.doc[r.p]
	close := open
	if open == '(' {
		close = ')'
	}
	r.p++
	for {
		if r.eol() {
			if !r.nextLine() {
				return false
			}
			continue
		}
		switch c := r.doc[r.p]; {
		case c == '\\' && r.p+1 < r.ls[r.k].end:
			r.p++
		case c == close:
			r.p++
			return true
		case open == '(' && c == '(':
			return false
		}
		r.p++
	}
}

// rawDest scans a link destination without angle brackets (CommonMark
// §6.3) at doc[p:b]: no white space or controls, parentheses balanced (at
// most 32 deep, as cmark) or escaped. A template action (templateEnd) is
// taken whole, with the white space in it.
func (m *md) rawDest(p, b int) (int, bool) {
	doc := m.doc
	depth := 0
	for p < b {
		if !rawDestStop[doc[p]] {
			p++
			continue
		}
		c := doc[p]
		switch {
		case c == '{':
			if e := m.templateEnd(p, b); e > 0 {
				p = e
				continue
			}
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

// rawDestStop are the bytes rawDest looks at: the others are part of the
// destination.
var rawDestStop = func() (t [256]bool) {
	for c := 0; c <= ' '; c++ {
		t[c] = true
	}
	for _, c := range "{\\()\x7f" {
		t[c] = true
	}
	return t
}()

// angleDest scans a link destination in angle brackets at doc[p] == '<'
// (CommonMark §6.3: no line break, no unescaped "<" or ">") and returns the
// offset of its ">". A template action (templateEnd) is taken whole, "<"
// and ">" in it included ("<{{< ref "x" >}}>").
func (m *md) angleDest(p, b int) (int, bool) {
	doc := m.doc
	le := m.lineEndAt(p, b)
	for k := p + 1; k < le; k++ {
		switch c := doc[k]; {
		case c == '>':
			return k, true
		case c == '<':
			return 0, false
		case c == '{':
			if e := m.templateEnd(k, le); e > 0 {
				k = e - 1
			}
		case c == '\\' && k+1 < le && isASCIIPunct(doc[k+1]):
			k++
		}
	}
	return 0, false
}

// templateEnd returns the end of the template action that starts at
// doc[p] and closes on its line within doc[:b], or 0: "{{ … }}" (Go
// templates and Hugo, with its shortcodes "{{< … >}}" and "{{% … %}}";
// Jinja, Liquid, Handlebars) or "{% … %}" (Jinja, Liquid, Django), which
// the site generator replaces before the Markdown is rendered, so that
// the white space in it does not end a link destination. These are the
// template actions of Placeholders, which the checks use to leave them
// alone; like it, the first close delimiter ends an action. The search for
// it remembers its misses (scanner.index) and its last find, so that no
// search runs over the same bytes twice.
func (m *md) templateEnd(p, b int) int {
	doc := m.doc
	if p+1 >= b || doc[p] != '{' || doc[p+1] != '{' && doc[p+1] != '%' {
		return 0
	}
	close, key, last := "}}", "md}}", &m.closes[0]
	if doc[p+1] == '%' {
		close, key, last = "%}", "md%}", &m.closes[1]
	}
	le := m.lineEndAt(p, b)
	if last.start <= p+2 && p+2 <= last.end && last.end+len(close) <= le {
		return last.end + len(close) // the same first close delimiter
	}
	if k := m.sc.index(key, p+2, le, close); k >= 0 {
		*last = span{p + 2, k}
		return k + len(close)
	}
	return 0
}

// lineEndAt returns the end of the line that holds doc[p], or b if it
// is after b. Inside the inline region being scanned, the region's line
// breaks are indexed once, so that no search runs to a line's end twice;
// elsewhere b must be the end of p's line.
func (m *md) lineEndAt(p, b int) int {
	if p < m.region.start || p >= m.region.end {
		return b
	}
	if !m.breaksIndexed {
		m.breaksIndexed = true
		m.breaks = m.breaks[:0]
		for k := m.region.start; ; k++ {
			if k = lineBreak(m.doc, k, m.region.end); k >= m.region.end {
				break
			}
			m.breaks = append(m.breaks, k)
		}
	}
	if x := sort.SearchInts(m.breaks, p); x < len(m.breaks) {
		return min(m.breaks[x], b)
	}
	return b
}

// spacedTail recognises what linkTail does not, at doc[p] == '(': "("
// right before a destination with white space, on the same line, then ")"
// (with parentheses balanced in between, and an optional "…" or '…' title
// at the end). CommonMark makes text of it, but the writer meant a link:
// "[About](https://example.com/about us)". It returns the destination only
// when it looks like one (looksLikeDest) and has white space outside its
// template actions (where there is none, the white space is the template's
// and linkTail takes it; a destination that starts with one is taken as
// it is), and not when brackets, "<", ">" or a backquote
// stand in it outside template actions: then it is likely prose.
func (m *md) spacedTail(p, b int) (ds, de, end int, ok bool) {
	doc := m.doc
	le := m.lineEndAt(p, b)
	i := p + 1
	if i >= le || doc[i] == ' ' || doc[i] == '\t' {
		return 0, 0, 0, false
	}
	depth, k := 0, i
	space := false // white space outside template actions
scan:
	for ; k < le; k++ {
		switch c := doc[k]; {
		case c == '{':
			if e := m.templateEnd(k, le); e > 0 {
				k = e - 1
			}
		case c == '\\' && k+1 < le && isASCIIPunct(doc[k+1]):
			k++
		case c == ' ' || c == '\t':
			space = true
		case c == '(':
			if depth++; depth > 32 {
				return 0, 0, 0, false
			}
		case c == ')':
			if depth == 0 {
				break scan
			}
			depth--
		case c == '[' || c == ']' || c == '<' || c == '>' || c == '`' || c < ' ' || c == 0x7f:
			return 0, 0, 0, false
		}
	}
	if k >= le || !space {
		return 0, 0, 0, false
	}
	end, de = k+1, k
	for de > i && (doc[de-1] == ' ' || doc[de-1] == '\t') {
		de--
	}
	if q := doc[de-1]; de-i >= 2 && (q == '"' || q == '\'') {
		// A title: drop it, from the quote that follows white space.
		for t := de - 2; t > i; t-- {
			if doc[t] == q && (doc[t-1] == ' ' || doc[t-1] == '\t') {
				for de = t; de > i && (doc[de-1] == ' ' || doc[de-1] == '\t'); de-- {
				}
				break
			}
		}
	}
	if !m.spacedOutside(i, de) || m.templateEnd(i, de) == 0 && !looksLikeDest(doc[i:de]) {
		return 0, 0, 0, false
	}
	return i, de, end, true
}

// spacedOutside reports white space in doc[a:b] outside template actions,
// and none before a quote or "(": that is a title, maybe a broken one
// ("[a](/url "title "and" title")"), not white space in the destination.
func (m *md) spacedOutside(a, b int) bool {
	doc, space := m.doc, false
	for k := a; k < b; k++ {
		switch doc[k] {
		case '{':
			if e := m.templateEnd(k, b); e > 0 {
				k = e - 1
			}
		case ' ', '\t':
			if c := doc[k+1]; c == '"' || c == '\'' || c == '(' {
				return false
			}
			space = true
		}
	}
	return space
}

// looksLikeDest reports whether d, a link destination with white space,
// looks like a URL or a path rather than prose in parentheses after a
// bracket: it starts with a scheme and "//" or a scheme urlls knows
// ("mailto:"), or with "/", "./", "../" or "#"; its first
// word holds a "/"; it holds "://" (a URL after words: a translation that
// went wrong); or it ends with a file name extension ("my file.md").
func looksLikeDest(d []byte) bool {
	if len(d) == 0 {
		return false
	}
	if isAlpha(d[0]) {
		k := 1
		for k < len(d) && isSchemeChar(d[k]) {
			k++
		}
		if k < len(d) && d[k] == ':' && (hasPrefix(d[k+1:], "//") || registryInUse(string(lowerASCII(d[:k])))) {
			return true
		}
	}
	if d[0] == '/' || d[0] == '#' || hasPrefix(d, "./") || hasPrefix(d, "../") {
		return true
	}
	first := d
	if k := bytes.IndexAny(d, " \t"); k >= 0 {
		first = d[:k]
	}
	if indexByte(first, '/') >= 0 || bytes.Contains(d, []byte("://")) {
		return true
	}
	return FileNameEnd(string(d))
}

// FileNameEnd reports whether s ends with a file name extension: "." after
// a character that is not white space, then 1 to 5 letters or digits, one
// a letter ("my notes.md", "v1.2.tar.gz"; not "costs 1.50").
func FileNameEnd(s string) bool {
	dot := strings.LastIndexByte(s, '.')
	if dot <= 0 || len(s)-dot-1 < 1 || len(s)-dot-1 > 5 || s[dot-1] == ' ' {
		return false
	}
	letter := false
	for i := dot + 1; i < len(s); i++ {
		if !isAlnum(s[i]) {
			return false
		}
		letter = letter || isAlpha(s[i])
	}
	return letter
}

// mdSpecial are the bytes that may start inline structure, and the ":"
// and "/" that end the scheme-shaped word of a bare URL: the inline scan
// marks them in a bitmap of its region (markBits) and steps from one to
// the next.
var mdSpecial = newNibbleSet(mdSpecialBytes)

const mdSpecialBytes = "\\`<![]:/"

// inline scans the inline region doc[a:b] (a paragraph, heading or table
// cell) in two passes: first the structure CommonMark gives precedence over
// text (code spans, autolinks, raw HTML, links and images, with the
// delimiter stack of spec appendix A: a link may not contain a link), then
// bare URLs in the text between. The first pass notes the ":" and "/" it
// meets outside the structure (seps), where the second looks for them.
func (m *md) inline(a, b int) {
	i := m.markSpecial(a, b)
	if i >= b {
		return // no structure, and no ":" or "/" for a bare URL
	}
	m.structure(a, b, i)
	first := len(m.sc.cands)
	m.bareGaps(a, b)
	m.region = span{}
	m.dropLinkText(first)
}

// markSpecial marks the bytes of the inline region doc[a:b] in mdSpecial
// (m.special, which structure steps through) and returns the offset of the
// first, or b.
func (m *md) markSpecial(a, b int) int {
	m.special = mdSpecial.markBits(m.special, m.doc[a:b])
	return nextBit(m.special, a, a, b)
}

// structure is the first pass of inline over doc[a:b], from its first
// special byte doc[i] (markSpecial): it emits the destinations of links and
// autolinks and the URLs of raw HTML, and leaves in skips the structure,
// sorted, and in seps the ":" and "/" between.
func (m *md) structure(a, b, i int) {
	doc := m.doc
	m.skips, m.noBare, m.stack, m.seps, m.runsIndexed = m.skips[:0], m.noBare[:0], m.stack[:0], m.seps[:0], false
	m.region, m.breaksIndexed, m.lastBracket = span{a, b}, false, -1
	watermark := 0 // openers below it are inactive (inside a link)
	aOpen := -1    // the start of an open inline <a> element
	for ; ; i = nextBit(m.special, a, i, b) {
		if i >= b {
			break
		}
		switch doc[i] {
		case ':', '/':
			// Only after a scheme character may it end the scheme-shaped
			// word of a bare URL (bareStep), and a "/" only before another
			// ("https//host", schemeStart): the others, and the escaped
			// ones ("\:" is never after one), are not noted.
			if i > a && isSchemeChar(doc[i-1]) && (doc[i] == ':' || i+1 < b && doc[i+1] == '/') {
				m.seps = append(m.seps, i)
			}
			i++
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
				m.lastBracket = i + 1
				i += 2
			} else {
				i++
			}
		case '[':
			watermark = m.push(opener{i, false}, watermark)
			m.lastBracket = i
			i++
		case ']':
			next := m.closeBracket(i, b, &watermark)
			m.lastBracket = i
			i = next
		default:
			// Not in mdSpecial: only a wrong bitmap marks it, and the
			// loop would stay on it for good.
			i++
		}
	}
	if bySpanStart := func(x, y span) int { return x.start - y.start }; !slices.IsSortedFunc(m.skips, bySpanStart) {
		slices.SortFunc(m.skips, bySpanStart) // a link's "[" comes after the structure in its text
	}
}

// mdBare are the rules of bare URLs in Markdown text.
var mdBare = bareOpts{mode: decMarkdown, entityTail: true}

// bareGaps finds the bare URLs of the inline region doc[a:b] in the gaps
// between the structure that structure left in skips.
func (m *md) bareGaps(a, b int) {
	g, k := a, 0
	for _, s := range m.skips {
		if s.start > g {
			k = m.bareGap(g, s.start, k, mdBare)
		}
		g = max(g, s.end)
	}
	if g < b {
		m.bareGap(g, b, k, mdBare)
	}
}

// dropLinkText drops the candidates from the first-th on that stand in
// link text or the text of an <a> element (noBare).
func (m *md) dropLinkText(first int) {
	sc := m.sc
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
	// Zeroed, the candidates dropped past the ones kept: ScanInto's
	// caller empties the candidates (their length) for its next scan,
	// and would keep their texts in the memory past it.
	clear(sc.cands[len(out):])
	sc.cands = out
}

// bareGap finds the bare URLs of the gap doc[g:e] between inline
// structure, as scanBare does, at the ":" and "/" the first pass of inline
// found there, from seps[k] on: every one outside the structure, in order.
// It returns the index of the first one after the gap.
func (m *md) bareGap(g, e, k int, o bareOpts) int {
	i := g
	for ; k < len(m.seps) && m.seps[k] < e; k++ {
		if j := m.seps[k]; j >= i {
			i = m.sc.bareStep(i, j, e, o)
		}
	}
	return k
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
	olen := 1
	if top.image {
		olen = 2
	}
	var ds, de, end int
	ok, unrendered := false, false
	if i+1 < b && m.doc[i+1] == '(' {
		ds, de, end, ok = m.linkTail(i+1, b)
	}
	if !ok {
		end, ok = m.refLink(top.pos+olen, i, b)
		ds, de = 0, 0
	}
	if !ok && i+1 < b && m.doc[i+1] == '(' {
		ds, de, end, ok = m.spacedTail(i+1, b)
		unrendered = ok
	}
	if !ok {
		*watermark = min(*watermark, len(m.stack))
		return i + 1
	}
	if n := len(m.sc.cands); de > ds {
		m.sc.emit(m.sc.decodeSeq(ds, de, decMarkdown), Link, true)
		if unrendered && len(m.sc.cands) > n {
			m.sc.cands[n].Unrendered = true
		}
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

// refLink recognises a reference link or image whose text is doc[ts:i]
// and whose "]" is doc[i] (CommonMark §6.3): full, "[text][label]", with
// a defined label; collapsed, "[text][]", or shortcut, "[text]" not
// followed by "[]" or a label, with the text a defined label. It returns
// the end of the link. Its destination is its definition's, a candidate
// where it is written; the link matters for what is not a link: its text,
// which GFM does not link, and a "(…)" after a shortcut.
func (m *md) refLink(ts, i, b int) (int, bool) {
	doc := m.doc
	if len(m.labels) == 0 {
		return 0, false
	}
	if i+1 < b && doc[i+1] == '[' {
		k := i + 2
		for k < b && k-i <= 1001 && doc[k] != ']' && doc[k] != '[' {
			if doc[k] == '\\' && k+1 < b {
				k++
			}
			k++
		}
		if k < b && doc[k] == ']' && k-i <= 1001 {
			if k > i+2 {
				// Full: the label decides; a label that is not defined is
				// no link, and not a shortcut either.
				return k + 1, m.hasLabel(doc[i+2 : k])
			}
			if m.textLabel(ts, i) {
				return k + 1, true // collapsed
			}
			return 0, false
		}
	}
	if m.textLabel(ts, i) {
		return i + 1, true // shortcut
	}
	return 0, false
}

// textLabel reports whether the link text doc[ts:i] is a defined label:
// at most 999 characters, no brackets in it (but escaped ones).
func (m *md) textLabel(ts, i int) bool {
	return m.lastBracket < ts && i-ts <= 999 && len(bytes.TrimSpace(m.doc[ts:i])) > 0 && m.hasLabel(m.doc[ts:i])
}

// linkTail parses an inline link's "(destination "title")" at doc[p] ==
// '(' and returns the destination's span (without <>) and the offset
// after ")".
func (m *md) linkTail(p, b int) (ds, de, end int, ok bool) {
	doc := m.doc
	i := m.skipSpaceNL(p+1, b)
	if i < b && doc[i] == ')' {
		return i, i, i + 1, true
	}
	if i >= b {
		return 0, 0, 0, false
	}
	if doc[i] == '<' {
		k, ok := m.angleDest(i, b)
		if !ok {
			return 0, 0, 0, false
		}
		ds, de, i = i+1, k, k+1
	} else {
		k, ok := m.rawDest(i, b)
		if !ok || k == i {
			return 0, 0, 0, false
		}
		ds, de, i = i, k, k
	}
	j := m.skipSpaceNL(i, b)
	if j > i && j < b && (doc[j] == '"' || doc[j] == '\'' || doc[j] == '(') {
		k, ok := m.titleEnd(j, b)
		if !ok {
			return 0, 0, 0, false
		}
		j = m.skipSpaceNL(k, b)
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

// skipSpaceNL skips spaces and tabs, with at most one line break, and the
// container markers and indentation of the paragraph line after it.
func (m *md) skipSpaceNL(i, b int) int {
	doc := m.doc
	nl := false
	for i < b {
		switch doc[i] {
		case ' ', '\t':
		case '\n', '\r':
			if nl {
				return i
			}
			nl = true
			if next := m.nextLineStart(i); next > i {
				i = next
				continue
			}
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

// nextLineStart returns where the content of the paragraph line after the
// line break at doc[e] starts, past its container markers, or 0.
func (m *md) nextLineStart(e int) int {
	ls := m.lines
	x := sort.Search(len(ls), func(k int) bool { return ls[k].end >= e })
	if x+1 < len(ls) && ls[x].end == e {
		return ls[x+1].start
	}
	return 0
}

// codeSpanEnd returns the end of the code span whose opening backtick
// string doc[i:i+n] is, or -1 (CommonMark §6.1: the next backtick string
// of the same length closes it). Most close at the next backtick string;
// for the others, the backtick strings of the region are indexed once by
// length, so that finding a closer never rescans.
func (m *md) codeSpanEnd(a, b, i, n int) int {
	doc := m.doc
	// Most code spans close at the next backtick string: no index needed.
	if k := nextByte(doc, i+n, b, '`'); k < b {
		e := k
		for e < b && doc[e] == '`' {
			e++
		}
		if e-k == n {
			return e
		}
	} else {
		return -1
	}
	if !m.runsIndexed {
		m.runsIndexed = true
		if m.runs == nil {
			m.runs = map[int][]int{}
		}
		for n, list := range m.runs {
			m.runs[n] = list[:0] // reused from the region before
		}
		for k := a; ; {
			if k = nextByte(doc, k, b, '`'); k >= b {
				break
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
	if end := m.templateAutolink(i, b); end > 0 {
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

// templateAutolink returns the end of an autolink whose URL starts with a
// template action at doc[i] == '<', or 0: "<{{% eturl x %}}>",
// "<{{ .Site.BaseURL }}/about>". The site generator makes an autolink of
// it; CommonMark alone sees text. Outside template actions it holds no
// white space, controls, "<" or ">", and it ends on its line.
func (m *md) templateAutolink(i, b int) int {
	doc := m.doc
	le := m.lineEndAt(i, b)
	if m.templateEnd(i+1, le) == 0 {
		return 0
	}
	for k := i + 1; k < le; k++ {
		switch c := doc[k]; {
		case c == '{':
			if e := m.templateEnd(k, le); e > 0 {
				k = e - 1
			}
		case c == '>':
			return k + 1
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
