package scan

// adoc is the state of the AsciiDoc scanner: block structure line by line
// (delimited blocks, block attribute lines, attribute entries, block
// macros, literal paragraphs, comments), paragraph text by the inline rules
// of Asciidoctor.
type adoc struct {
	sc  *scanner
	doc []byte
	b   int

	regionStart, regionEnd int // the open paragraph, regionStart < 0 if none

	// delim is the delimiter line of the block being skipped (nil if
	// none); comment says it is a comment block, recorded from
	// commentStart, its body from commentBody.
	delim                     []byte
	comment                   bool
	commentStart, commentBody int
	// para: a literal (or styled) paragraph is being skipped, to the next
	// blank line; paraComment says it is a [comment] paragraph.
	para, paraComment bool
	lastEnd           int // the end of the last line skipped

	style string // the block style of the last block attribute line
	table bool   // inside a table (|===)

	// The last answer of targetEnd: no "[" or white space in
	// doc[teFrom:teAt], and teAt is one or teLim.
	teFrom, teAt, teLim int
}

// targetEnd returns the offset of the first "[" or white space in
// doc[k:lim], or lim: where a macro's target ends. It remembers its last
// answer, which holds for every k up to it, so that a run of macro names
// without a "[" ("mailto:mailto:…") costs linear time, not quadratic.
func (d *adoc) targetEnd(k, lim int) int {
	if d.teFrom <= k && k <= d.teAt && lim == d.teLim && d.teAt > 0 {
		return d.teAt
	}
	e := k
	for e < lim && d.doc[e] != '[' && !isSpace(d.doc[e]) {
		e++
	}
	d.teFrom, d.teAt, d.teLim = k, e, lim
	return e
}

// adocLiteralStyles are the block styles whose paragraph or open block is
// not AsciiDoc text.
var adocLiteralStyles = map[string]bool{
	"source": true, "listing": true, "literal": true, "pass": true, "comment": true, "stem": true,
	"latexmath": true, "asciimath": true, "plantuml": true, "graphviz": true, "ditaa": true,
	"mermaid": true, "d2": true,
}

// adocSkipMacros are the inline macros whose target and text hold no URL
// to check (cross references, keyboard and UI text, math, index terms) or
// text that is passed through unprocessed.
var adocSkipMacros = map[string]bool{
	"xref": true, "anchor": true, "kbd": true, "btn": true, "menu": true, "pass": true,
	"stem": true, "latexmath": true, "asciimath": true, "icon": true, "indexterm": true,
	"indexterm2": true,
}

// scanAsciiDoc finds the URLs of an AsciiDoc document in doc[a:b]:
//   - URL macros and bare URLs, "https://example.org[text]": the URL ends
//     at "[" (AsciiDoc never writes one in a URL), and the bracketed text is
//     not part of it; "<https://example.org>" is the URL inside; context
//     Bare (Quoted after a quote), by the same rules as plain text;
//   - link:target[text] (the target may be relative: context Link,
//     Relative set), mailto:address[text];
//   - image:target[…] and image::target[…] (context Link, Relative set),
//     and the link=URL attribute of an image;
//   - attribute entries ":url-repo: https://…", whose value is scanned as
//     text: the URL is checked where it is defined.
//
// A URL that starts with an attribute reference ("{url-repo}/issues[…]",
// link:{url-repo}/x[…], image:{badge}[…]) is skipped with its text: what the
// reference stands for is checked at its attribute entry, and a candidate
// "{url-repo}/issues" would be a relative reference to nowhere (the editor
// would link it to a file). A reference inside a URL stays in it
// ("https://github.com/{org}/x" is one candidate), and the checks mask it
// as a placeholder.
//
// In URLs, backslash escapes of ASCII punctuation and character references
// are decoded, as in Markdown: "{url-repo}/compare/v1\...v2" is
// ".../compare/v1...v2" (the backslash keeps "..." from becoming an
// ellipsis), and Text and Offsets say so.
//
// Skipped: listing, literal, passthrough and comment blocks ("----",
// "....", "++++", "////", "```", and an open block "--" or paragraph
// styled [source], [listing], [literal], [pass], [comment], [stem], …),
// literal paragraphs (indented), line comments "//" (recorded, as comment
// blocks are, for the suppression directives), preprocessor directives and
// block macros other than image (include::, ifdef::, toc::, video::, …),
// passthroughs ("+…+", "++…++", "+++…+++", "pass:[…]", "$$…$$"), literal
// monospace "`+…+`", cross references ("<<id>>", xref:), escaped text
// ("\https://…") and the text of kbd:, btn:, menu:, stem: and kin.
func (sc *scanner) scanAsciiDoc(a, b int) {
	d := &adoc{sc: sc, doc: sc.doc, b: b, regionStart: -1}
	for ls := a; ls < b; {
		ls = d.line(ls)
	}
	d.endSkip(b)
	d.flush()
}

// line scans the line at ls and returns the start of the next one.
func (d *adoc) line(ls int) int {
	doc := d.doc
	le, next := d.sc.lineEnd(ls, d.b)
	e := le
	for e > ls && (doc[e-1] == ' ' || doc[e-1] == '\t') {
		e--
	}
	if d.delim != nil {
		if string(doc[ls:e]) == string(d.delim) {
			d.lastEnd = ls
			d.endSkip(le)
		} else {
			d.lastEnd = le
		}
		return next
	}
	p := ls
	for p < le && (doc[p] == ' ' || doc[p] == '\t') {
		p++
	}
	blank := p >= le
	if d.para {
		if blank {
			d.endSkip(d.lastEnd)
		} else {
			d.lastEnd = le
			return next
		}
	}
	if blank {
		d.flush()
		return next
	}
	line := doc[ls:e]
	// Delimited blocks.
	if kind, ok := delimiter(line); ok {
		d.flush()
		style := d.style
		d.style = ""
		switch {
		case kind == '-' && len(line) == 2: // an open block
			if adocLiteralStyles[style] {
				d.startBlock(line, ls, le, style == "comment")
			}
		case kind == '-', kind == '.', kind == '+', kind == '`':
			d.startBlock(line, ls, le, false)
		case kind == '/':
			d.startBlock(line, ls, le, true)
		case kind == '|':
			d.table = !d.table
		default: // example, sidebar, quote: their content is text
			if adocLiteralStyles[style] {
				d.startBlock(line, ls, le, style == "comment")
			}
		}
		return next
	}
	if p == ls {
		switch {
		case hasPrefix(line, "//") && !hasPrefix(line, "///"):
			d.flush()
			d.sc.comment(ls, le, ls+2, le)
			return next
		case line[0] == ':' && d.regionStart < 0:
			if vs, ok := attributeEntry(line); ok {
				d.attribute(ls+vs, e)
				return next
			}
		case line[0] == '[' && line[len(line)-1] == ']' && d.regionStart < 0:
			d.blockAttributes(ls, e)
			return next
		case d.regionStart < 0:
			if end, ok := d.blockMacro(ls, e); ok {
				return end
			}
		}
	}
	if d.regionStart < 0 {
		style := d.style
		d.style = ""
		if adocLiteralStyles[style] || p > ls && !adocListItem(doc, p, le) {
			// A styled or an indented (literal) paragraph.
			d.para, d.paraComment = true, style == "comment"
			d.commentStart, d.commentBody, d.lastEnd = ls, ls, le
			return next
		}
		d.regionStart = ls
	}
	d.regionEnd = le
	return next
}

// delimiter reports whether line is the delimiter of a block, and which:
// four or more of "-", ".", "+", "/", "=", "*" or "_", "--" (an open
// block), "```", or a table "|===" (",===", ":===", "!===").
func delimiter(line []byte) (byte, bool) {
	n := len(line)
	if n == 2 && line[0] == '-' && line[1] == '-' {
		return '-', true
	}
	if n == 3 && string(line) == "```" || n > 3 && hasPrefix(line, "```") && isAlpha(line[3]) {
		return '`', true
	}
	if n >= 4 && (line[0] == '|' || line[0] == ',' || line[0] == ':' || line[0] == '!') {
		for _, c := range line[1:] {
			if c != '=' {
				return 0, false
			}
		}
		return '|', true
	}
	if n < 4 {
		return 0, false
	}
	switch c := line[0]; c {
	case '-', '.', '+', '/', '=', '*', '_':
		for _, x := range line {
			if x != c {
				return 0, false
			}
		}
		return c, true
	}
	return 0, false
}

// startBlock starts skipping a delimited block whose opening delimiter is
// the line [ls, le).
func (d *adoc) startBlock(line []byte, ls, le int, comment bool) {
	if line[0] == '`' {
		line = line[:3] // "```ruby" is closed by "```"
	}
	d.delim, d.comment = line, comment
	d.commentStart, d.commentBody, d.lastEnd = ls, le, le
}

// endSkip ends a skipped block or paragraph at end, recording it when it
// is a comment.
func (d *adoc) endSkip(end int) {
	if d.delim != nil && d.comment {
		d.sc.comment(d.commentStart, end, d.commentBody, max(d.commentBody, d.lastEnd))
	}
	if d.para && d.paraComment {
		d.sc.comment(d.commentStart, end, d.commentBody, end)
	}
	d.delim, d.comment, d.para, d.paraComment = nil, false, false, false
}

func (d *adoc) flush() {
	if d.regionStart >= 0 {
		d.inline(d.regionStart, d.regionEnd)
		d.regionStart = -1
	}
}

// adocListItem reports whether an indented line at doc[p] is a list item
// ("* x", "- x", ". x", "1. x", "a) x", "term:: x"), not a literal
// paragraph.
func adocListItem(doc []byte, p, le int) bool {
	k := p
	switch c := doc[k]; {
	case c == '*' || c == '-' || c == '.':
		for k < le && doc[k] == c {
			k++
		}
	case isAlnum(c):
		for k < le && k-p < 8 && isAlnum(doc[k]) {
			k++
		}
		if k < le && (doc[k] == '.' || doc[k] == ')') {
			k++
		} else {
			// a description list term "term::"
			for k < le && doc[k] != ':' {
				k++
			}
			return hasPrefix(doc[k:le], "::")
		}
	default:
		return false
	}
	return k < le && (doc[k] == ' ' || doc[k] == '\t')
}

// attributeEntry parses ":name: value" (":name!:", ":!name:" unset it) and
// returns the offset of the value in line.
func attributeEntry(line []byte) (int, bool) {
	k := 1
	if k < len(line) && line[k] == '!' {
		k++
	}
	s := k
	for k < len(line) && (isWordByte(line[k]) || line[k] == '-') {
		k++
	}
	if k == s {
		return 0, false
	}
	if k < len(line) && line[k] == '!' {
		k++
	}
	if k >= len(line) || line[k] != ':' {
		return 0, false
	}
	return k + 1, true
}

// attribute handles the attribute entry whose value is doc[vs:ve]: it is
// scanned as text.
func (d *adoc) attribute(vs, ve int) {
	doc := d.doc
	for vs < ve && (doc[vs] == ' ' || doc[vs] == '\t') {
		vs++
	}
	if vs < ve {
		d.inline(vs, ve)
	}
}

// blockAttributes handles a block attribute line "[style,…]" doc[ls:e]:
// the style is remembered for the next block, and a link=URL attribute is
// emitted.
func (d *adoc) blockAttributes(ls, e int) {
	doc := d.doc
	s := ls + 1
	if s < e && doc[s] == '[' {
		return // an anchor [[id]]
	}
	k := s
	for k < e-1 && doc[k] != ',' && doc[k] != '#' && doc[k] != '.' && doc[k] != '%' && doc[k] != '=' && doc[k] != ']' {
		k++
	}
	if k < e-1 && doc[k] == '=' {
		d.style = ""
	} else {
		d.style = string(lowerASCII(doc[s:k]))
	}
	d.attrLinks(ls+1, e-1)
}

// blockMacro handles a block macro "name::target[attrs]" at the line
// doc[ls:e]: image:: emits its target and link, the others (include::,
// ifdef::, endif::, toc::, video::, …) are skipped.
func (d *adoc) blockMacro(ls, e int) (int, bool) {
	doc := d.doc
	k := ls
	for k < e && (isAlnum(doc[k]) || doc[k] == '-' || doc[k] == '_') {
		k++
	}
	if k == ls || !hasPrefix(doc[k:e], "::") || doc[e-1] != ']' {
		return 0, false
	}
	for t := k + 2; t < e && doc[t] != '['; t++ {
		if isSpace(doc[t]) {
			return 0, false // a description list item "term:: text [x]"
		}
	}
	_, next := lineEnd(doc, e, d.b)
	d.flush()
	d.style = ""
	if equalFold(doc[ls:k], "image") {
		d.macroTarget(k+2, e, true)
	}
	return next, true
}

// macroTarget emits the target of a macro starting at doc[t] (up to "[",
// without white space) and the link= of its attributes, and returns the
// offset after the "]" (0 when the macro is not closed before lim).
func (d *adoc) macroTarget(t, lim int, image bool) int {
	doc := d.doc
	k := d.targetEnd(t, lim)
	if k >= lim || doc[k] != '[' || k == t {
		return 0
	}
	close := d.sc.nextUnescaped("adoc]", k+1, lim, ']')
	if close < 0 {
		return 0
	}
	d.emitTarget(t, k, Link)
	if image {
		d.attrLinks(k+1, close)
	}
	return close + 1
}

// emitTarget emits doc[s:e], a macro target, unless it starts with an
// attribute reference (see scanAsciiDoc) or is passed through ("++…++").
func (d *adoc) emitTarget(s, e int, ctx Context) {
	doc := d.doc
	if s >= e || doc[s] == '+' || doc[s] == '{' && attrRef(doc, s, e) > 0 {
		return
	}
	d.sc.emit(d.sc.decodeSeq(s, e, decMarkdown), ctx, true)
}

// attrLinks emits the link= attribute of the attribute list doc[s:e]
// ("project chat,link=https://…", link="…").
func (d *adoc) attrLinks(s, e int) {
	doc := d.doc
	for k := s; k < e; {
		// An attribute starts after "," (or at s), past white space.
		for k < e && (doc[k] == ' ' || doc[k] == '\t') {
			k++
		}
		if hasPrefixFold(doc[k:e], "link=") {
			v := k + 5
			if v < e && (doc[v] == '"' || doc[v] == '\'') {
				q := doc[v]
				ve := v + 1
				for ve < e && doc[ve] != q {
					ve++
				}
				d.emitTarget(v+1, ve, Link)
				k = ve
			} else {
				ve := v
				for ve < e && doc[ve] != ',' {
					ve++
				}
				for ve > v && isSpace(doc[ve-1]) {
					ve--
				}
				d.emitTarget(v, ve, Link)
				k = ve
			}
		}
		// To the next attribute, past a quoted value.
		for k < e && doc[k] != ',' {
			if doc[k] == '"' {
				if c := indexByte(doc[k+1:e], '"'); c >= 0 {
					k += c + 1
				}
			}
			k++
		}
		k++
	}
}

// attrRef returns the end of the attribute reference "{name}" at doc[s],
// or 0.
func attrRef(doc []byte, s, e int) int {
	k := s + 1
	if k >= e || !isWordByte(doc[k]) {
		return 0
	}
	for k < e && k-s < 64 && (isWordByte(doc[k]) || doc[k] == '-') {
		k++
	}
	if k < e && doc[k] == '}' {
		return k + 1
	}
	return 0
}

// inline scans the paragraph text doc[a:b].
func (d *adoc) inline(a, b int) {
	sc, doc := d.sc, d.doc
	// Backslash escapes ("\\..." keeps "..." from becoming an ellipsis)
	// and character references are decoded, as in Markdown.
	o := bareOpts{mode: decMarkdown, brackets: true, pipe: d.table}
	word := func(i int) bool { // a word starts at doc[i]
		return i == a || !(isWordByte(doc[i-1]) || doc[i-1] == '\\')
	}
	stepUntil := a // from here on, jump to the next adocSpecial byte
	for i := a; i < b; {
		if i >= stepUntil {
			// Only a special byte, or a word that ends at ":" or "/" (a
			// macro's name or a URL's scheme), starts anything: jump to
			// the next of those bytes, back to the start of the run of
			// scheme characters before it (a word the loop below takes
			// whole), and step from there. What lies between is text.
			k := adocSpecial.next(doc, i, b)
			if k >= b {
				break
			}
			s := k
			for s > i && isSchemeChar(doc[s-1]) {
				s--
			}
			i, stepUntil = s, k+1
		}
		c := doc[i]
		switch {
		case c == '\\':
			// An escaped URL, macro or attribute reference is text.
			k := i + 1
			if k < b && (isAlpha(doc[k]) || doc[k] == '{') {
				for k < b && !isSpace(doc[k]) {
					k++
				}
			}
			i = max(k, i+1)
			continue
		case c == '+' && word(i):
			if end := d.passthrough(i, b); end > 0 {
				i = end
				continue
			}
		case c == '`' && i+1 < b && doc[i+1] == '+':
			if k := sc.nextIndex("adoc+`", i+2, b, "+`"); k >= 0 {
				i = k + 2
				continue
			}
		case c == '$' && i+1 < b && doc[i+1] == '$':
			if k := sc.nextIndex("adoc$$", i+2, b, "$$"); k >= 0 {
				i = k + 2
				continue
			}
		case c == '<' && i+1 < b && doc[i+1] == '<':
			if k := indexString(doc[i+2:min(b, i+256)], ">>"); k >= 0 {
				i = i + 2 + k + 2
				continue
			}
		case c == '{' && word(i):
			if k := attrRef(doc, i, b); k > 0 {
				// "{url-repo}/issues[text]": skipped with its text.
				for k < b && !isSpace(doc[k]) && doc[k] != '[' {
					k++
				}
				i = d.linkText(k, b)
				continue
			}
		case isAlpha(c) && word(i) && schemeBoundary(doc, i):
			j := i + 1
			for j < b && isSchemeChar(doc[j]) {
				j++
			}
			if end, ok := d.macro(i, j, b, o); ok {
				i = end
				continue
			}
			if end, ok := sc.bareAt(i, j, b, o); ok {
				i = d.linkText(end, b)
				continue
			}
			i = j
			continue
		}
		i++
	}
}

// adocSpecial are the bytes where something may start in AsciiDoc text:
// the cases of inline, and the ":" or "/" that ends a macro's name or a
// URL's scheme.
var adocSpecial = newByteSet("\\+`$<{:/")

// passthrough returns the end of the passthrough "+++…+++", "++…++" or
// constrained "+…+" at doc[i], or 0. A constrained one closes within 256
// bytes, with a "+" after a non-blank and before a non-word character.
func (d *adoc) passthrough(i, b int) int {
	doc := d.doc
	for _, m := range []string{"+++", "++"} {
		if hasPrefix(doc[i:b], m) {
			if k := d.sc.nextIndex("adoc"+m, i+len(m), b, m); k >= 0 {
				return k + len(m)
			}
			return 0
		}
	}
	if i+1 >= b || isSpace(doc[i+1]) {
		return 0
	}
	lim := min(b, i+256)
	for k := i + 2; k < lim; k++ {
		if doc[k] == '+' && !isSpace(doc[k-1]) && (k+1 >= b || !isWordByte(doc[k+1])) {
			return k + 1
		}
	}
	return 0
}

// macro handles an inline macro "name:target[text]" whose name is
// doc[i:j]: link:, mailto:, image: and the skipped ones (adocSkipMacros).
// It returns the offset after the macro.
func (d *adoc) macro(i, j, b int, o bareOpts) (int, bool) {
	doc := d.doc
	if j >= b || doc[j] != ':' || j+1 >= b || doc[j+1] == ':' || isSpace(doc[j+1]) {
		return 0, false
	}
	name := string(lowerASCII(doc[i:j]))
	switch {
	case name == "link" || name == "image":
		if end := d.macroTarget(j+1, b, name == "image"); end > 0 {
			return end, true
		}
	case name == "mailto":
		k := d.targetEnd(j+1, b)
		if k < b && doc[k] == '[' {
			if close := d.sc.nextUnescaped("adoc]", k+1, b, ']'); close >= 0 {
				d.sc.emit(d.sc.decodeSeq(i, k, decMarkdown), Link, false)
				return close + 1, true
			}
		}
	case adocSkipMacros[name]:
		k := d.targetEnd(j+1, b)
		if k < b && doc[k] == '[' {
			if close := d.sc.nextUnescaped("adoc]", k+1, b, ']'); close >= 0 {
				return close + 1, true
			}
		}
	}
	return 0, false
}

// linkText returns the offset after the "[text]" that follows a URL ending
// at doc[end] (a URL macro), or end.
func (d *adoc) linkText(end, b int) int {
	if end < b && d.doc[end] == '[' {
		if close := d.sc.nextUnescaped("adoc]", end+1, b, ']'); close >= 0 {
			return close + 1
		}
	}
	return end
}

// nextUnescaped returns the offset of the first c in doc[from:lim] that is
// not escaped by a backslash, or -1, remembering the answer as nextIndex
// does.
func (sc *scanner) nextUnescaped(key string, from, lim int, c byte) int {
	if sc.next == nil {
		sc.next = make(map[string]found)
	}
	if f, ok := sc.next[key]; ok && f.from <= from {
		switch {
		case f.at >= from:
			if f.at < lim {
				return f.at
			}
			return -1
		case f.at < 0 && lim <= f.lim:
			return -1
		}
	}
	at := -1
	for k := from; k < lim; {
		n := indexByte(sc.doc[k:lim], c)
		if n < 0 {
			break
		}
		if k+n > 0 && sc.doc[k+n-1] == '\\' {
			k += n + 1
			continue
		}
		at = k + n
		break
	}
	sc.next[key] = found{from: from, lim: lim, at: at}
	return at
}
