package scan

// rst is the state of the reStructuredText scanner. Like the Markdown one
// it builds no tree: it follows the block structure line by line, by
// indentation, closely enough to know what is literal (skipped), what is
// an explicit markup construct (targets, directives, comments) and what is
// paragraph text, which is scanned by the inline rules.
type rst struct {
	sc  *scanner
	doc []byte
	b   int

	// The open paragraph: [regionStart, regionEnd), regionStart < 0 if
	// none; paraIndent is the column of its text, colons whether its last
	// line ends in "::".
	regionStart, regionEnd int
	paraIndent             int
	colons                 bool

	// literal: after a paragraph ending in "::" and a blank line, the
	// column the literal block must be indented beyond (-1 when none).
	literal int

	// skip: lines indented beyond skipIndent (and blank lines) are skipped
	// (a literal block, the content of a code directive, a comment).
	skip       bool
	skipIndent int
	toBlank    bool // the skipped block ends at a blank line (doctest)
	// comment: the skipped block is a comment, [commentStart, commentEnd)
	// with its body from commentBody.
	comment                               bool
	commentStart, commentBody, commentEnd int

	skips []span // inline scratch
}

// rstLiteralDirectives are the directives whose content is not
// reStructuredText but code, math or data: it is skipped like a literal
// block. ("raw" is handled apart: its HTML is scanned as HTML.)
var rstLiteralDirectives = map[string]bool{
	"code": true, "code-block": true, "sourcecode": true, "literalinclude": true, "highlight": true,
	"math": true, "productionlist": true, "doctest": true, "testcode": true, "testsetup": true,
	"testcleanup": true, "testoutput": true, "graphviz": true, "graph": true, "digraph": true,
	"uml": true, "plantuml": true, "mermaid": true, "ipython": true, "jupyter-execute": true,
	"code-cell": true, "prompt": true, "jinja": true, "include": true, "literal": true,
}

// rstURIOptions are the directive options whose value is a URI (docutils
// "directives.uri"): the target of an image or figure, the url of raw and
// csv-table.
var rstURIOptions = map[string]bool{"target": true, "url": true}

// scanRST finds the URLs of a reStructuredText document in doc[a:b]:
//   - external hyperlink targets ".. _name: URI" and anonymous ones
//     (".. __: URI", "__ URI"), whose URI may continue on indented lines
//     and loses its white space, as docutils does: context RefDef,
//     Relative set (a target may be relative); a target whose link block
//     ends in "_" is an indirect target (a reference name), and one with
//     no link block an internal target: neither is a URL;
//   - embedded URIs of hyperlink references, "`text <URI>`_",
//     "`text <URI>`__" and "`<URI>`_", white space removed too: context
//     Link, Relative set; "<name_>" is an alias, not a URI;
//   - the URI argument of the image and figure directives (also in
//     substitution definitions, ".. |logo| image:: logo.png") and the
//     values of the URI options :target: (image, figure) and :url: (raw,
//     csv-table): context Link, Relative set;
//   - standalone URLs in paragraph text, which docutils recognises as
//     plain text does (bare URLs and <…> wrappers, the same rules);
//   - the content of ".. raw:: html", scanned as HTML.
//
// Skipped: literal blocks (after a paragraph ending in "::" and a blank
// line, the lines indented beyond the paragraph; doctest blocks ">>>"),
// the content of code and other non-reST directives (rstLiteralDirectives),
// inline literals "“…“", interpreted text and roles (":ref:`x <label>`"
// names a label, not a URL), and comments (an explicit markup start ".."
// that is no directive, target, substitution definition, footnote or
// citation, with its indented block), which are recorded for the
// suppression directives.
func (sc *scanner) scanRST(a, b int) {
	r := &rst{sc: sc, doc: sc.doc, b: b, regionStart: -1, literal: -1}
	for ls := a; ls < b; {
		ls = r.line(ls)
	}
	r.endSkip()
	r.flush()
}

// rstIndent returns the column of the first non-blank character of the line
// doc[p:le] (tabs stop every 8 columns, as in docutils) and its offset.
func rstIndent(doc []byte, p, le int) (int, int) {
	col := 0
	for ; p < le; p++ {
		switch doc[p] {
		case ' ':
			col++
		case '\t':
			col += 8 - col%8
		default:
			return col, p
		}
	}
	return col, p
}

// line scans the line at ls and returns the start of the next one.
func (r *rst) line(ls int) int {
	doc, b := r.doc, r.b
	le, next := lineEnd(doc, ls, b)
	col, p := rstIndent(doc, ls, le)
	blank := p >= le
	if r.skip {
		if r.toBlank && !blank || !r.toBlank && (blank || col > r.skipIndent) {
			if !blank {
				r.commentEnd = le
			}
			return next
		}
		r.endSkip()
	}
	if blank {
		if r.regionStart >= 0 && r.colons {
			r.literal = r.paraIndent
		}
		r.flush()
		return next
	}
	if r.literal >= 0 {
		lit := r.literal
		r.literal = -1
		if col > lit {
			r.startSkip(lit)
			return next
		}
	}
	switch {
	case hasPrefix(doc[p:le], "..") && (p+2 == le || doc[p+2] == ' ' || doc[p+2] == '\t'):
		r.flush()
		return r.explicit(ls, p, le, next, col)
	case hasPrefix(doc[p:le], "__ ") && r.regionStart < 0:
		r.flush()
		return r.target(p+3, le, next, col)
	case hasPrefix(doc[p:le], ">>>") && r.regionStart < 0:
		r.startSkip(col) // a doctest block runs to the blank line
		r.toBlank = true
		return next
	}
	if r.regionStart < 0 {
		r.regionStart = p
		r.paraIndent = textColumn(doc, p, le, col)
	}
	r.regionEnd = le
	r.colons = endsWithColons(doc, p, le)
	return next
}

// textColumn returns the column of the text of a paragraph's first line
// at doc[p] (column col): after a bullet or an enumerator, so that a list
// item's literal block is measured from its text.
func textColumn(doc []byte, p, le, col int) int {
	k := p
	switch c := doc[k]; {
	case c == '-' || c == '*' || c == '+':
		k++
	case c == '(' || isAlnum(c) || c == '#':
		if c == '(' {
			k++
		}
		s := k
		for k < le && k-s < 8 && (isAlnum(doc[k]) || doc[k] == '#') {
			k++
		}
		if k == s || k >= le || doc[k] != '.' && doc[k] != ')' {
			return col
		}
		k++
	default:
		return col
	}
	if k >= le || doc[k] != ' ' {
		return col
	}
	for k < le && doc[k] == ' ' {
		k++
	}
	return col + (k - p)
}

// endsWithColons reports whether the line doc[p:le] ends in "::" (before
// trailing white space): the paragraph introduces a literal block.
func endsWithColons(doc []byte, p, le int) bool {
	for le > p && (doc[le-1] == ' ' || doc[le-1] == '\t') {
		le--
	}
	return le-p >= 2 && doc[le-1] == ':' && doc[le-2] == ':'
}

func (r *rst) startSkip(indent int) {
	r.skip, r.skipIndent, r.comment, r.toBlank = true, indent, false, false
}

// endSkip ends the skipped block, recording it when it is a comment.
func (r *rst) endSkip() {
	if r.skip && r.comment {
		r.sc.comment(r.commentStart, r.commentEnd, r.commentBody, r.commentEnd)
	}
	r.skip, r.comment = false, false
}

// flush scans the open paragraph.
func (r *rst) flush() {
	if r.regionStart >= 0 {
		r.inline(r.regionStart, r.regionEnd)
		r.regionStart = -1
	}
	r.colons = false
}

// explicit handles the explicit markup block whose ".." is at doc[p], on
// the line [ls, le) at column col, and returns where to go on.
func (r *rst) explicit(ls, p, le, next, col int) int {
	doc := r.doc
	q := p + 2
	for q < le && (doc[q] == ' ' || doc[q] == '\t') {
		q++
	}
	switch {
	case q >= le:
		// ".." alone: a comment if an indented block follows at once,
		// else an empty comment.
		if next < r.b {
			nle, _ := lineEnd(doc, next, r.b)
			if ncol, np := rstIndent(doc, next, nle); np < nle && ncol > col {
				r.startComment(p, q, le, col)
				return next
			}
		}
		r.sc.comment(p, le, q, le)
		return next
	case doc[q] == '_':
		if hasPrefix(doc[q:le], "__:") {
			return r.target(q+3, le, next, col)
		}
		if e, ok := targetName(doc, q+1, le); ok {
			return r.target(e, le, next, col)
		}
	case doc[q] == '[':
		// A footnote or citation: its text is paragraph text.
		if k := indexByte(doc[q:le], ']'); k > 0 {
			r.regionStart, r.regionEnd = q+k+1, le
			r.paraIndent = col + 3
			r.colons = endsWithColons(doc, q, le)
			return next
		}
	case doc[q] == '|':
		// A substitution definition: ".. |name| directive:: …".
		if k := indexByte(doc[q+1:le], '|'); k >= 0 {
			d := q + 1 + k + 1
			for d < le && doc[d] == ' ' {
				d++
			}
			if name, args, ok := directiveName(doc, d, le); ok {
				return r.directive(name, args, le, next, col)
			}
		}
	default:
		if name, args, ok := directiveName(doc, q, le); ok {
			return r.directive(name, args, le, next, col)
		}
	}
	r.startComment(p, q, le, col)
	return next
}

func (r *rst) startComment(p, body, le, col int) {
	r.startSkip(col)
	r.comment = true
	r.commentStart, r.commentBody, r.commentEnd = p, body, le
}

// targetName returns the offset after the ":" that ends the name of a
// hyperlink target starting at doc[k] (after ".. _"): a phrase in
// backquotes, or text up to a ":" that is not escaped and is followed by
// white space or the end of the line.
func targetName(doc []byte, k, le int) (int, bool) {
	if k < le && doc[k] == '`' {
		e := indexByte(doc[k+1:le], '`')
		if e < 0 || k+1+e+1 >= le || doc[k+1+e+1] != ':' {
			return 0, false
		}
		return k + 1 + e + 2, true
	}
	for j := k; j < le; j++ {
		switch doc[j] {
		case '\\':
			j++
		case ':':
			if j > k && (j+1 >= le || doc[j+1] == ' ' || doc[j+1] == '\t') {
				return j + 1, true
			}
		}
	}
	return 0, false
}

// target emits the URI of the hyperlink target whose link block starts at
// doc[s] (on the line ending at le; continuation lines are indented beyond
// col) and returns the offset of the line after the block.
func (r *rst) target(s, le, next, col int) int {
	doc, b := r.doc, r.b
	end := le
	for next < b {
		nle, nnext := lineEnd(doc, next, b)
		ncol, np := rstIndent(doc, next, nle)
		if np >= nle || ncol <= col {
			break
		}
		end, next = nle, nnext
	}
	for s < end && isSpace(doc[s]) {
		s++
	}
	e := end
	for e > s && isSpace(doc[e-1]) {
		e--
	}
	if s >= e {
		return next // an internal target
	}
	if doc[e-1] == '_' && (e-2 < s || doc[e-2] != '\\') {
		return next // an indirect target: a reference name
	}
	r.sc.emitDocutilsURI(s, e, RefDef)
	return next
}

// directiveName parses "name::" at doc[q] (docutils' simple names: word
// characters joined by "-", "_", ".", "+" or ":") and returns the name and
// the offset of its arguments.
func directiveName(doc []byte, q, le int) ([]byte, int, bool) {
	j := q
	for j < le && (isAlnum(doc[j]) || doc[j] == '-' || doc[j] == '_' || doc[j] == '.' || doc[j] == '+' || doc[j] == ':' && !hasPrefix(doc[j:le], "::")) {
		j++
	}
	if j == q || !hasPrefix(doc[j:le], "::") || j+2 < le && doc[j+2] != ' ' && doc[j+2] != '\t' {
		return nil, 0, false
	}
	return doc[q:j], j + 2, true
}

// directive handles the directive name whose arguments start at
// doc[args] on the line ending at le, at column col.
func (r *rst) directive(name []byte, args, le, next, col int) int {
	doc, b := r.doc, r.b
	lname := string(lowerASCII(name))
	if i := indexByte(name, ':'); i >= 0 {
		lname = string(lowerASCII(name[i+1:])) // "rst:directive", "py:function"
		if lname == "code-block" || lname == "sourcecode" {
			lname = "code"
		}
	}
	switch lname {
	case "image", "figure":
		// The URI may continue on the lines before the options.
		end := le
		for next < b {
			nle, nnext := lineEnd(doc, next, b)
			ncol, np := rstIndent(doc, next, nle)
			if np >= nle || ncol <= col || doc[np] == ':' {
				break
			}
			end, next = nle, nnext
		}
		s, e := args, end
		for s < e && isSpace(doc[s]) {
			s++
		}
		for e > s && isSpace(doc[e-1]) {
			e--
		}
		if s < e {
			r.sc.emitDocutilsURI(s, e, Link)
		}
	default:
		if !rstLiteralDirectives[lname] && lname != "raw" {
			// The rest of the line is text (".. note:: see http://…").
			if s := skipBlanks(doc, args, le); s < le {
				r.regionStart, r.regionEnd = s, le
				r.paraIndent = col + 3
				r.colons = false
			}
		}
	}
	next = r.options(next, col)
	switch {
	case lname == "raw":
		// The content: HTML is scanned as HTML, anything else skipped.
		start, end := next, next
		for next < b {
			nle, nnext := lineEnd(doc, next, b)
			ncol, np := rstIndent(doc, next, nle)
			if np < nle && ncol <= col {
				break
			}
			end, next = nle, nnext
		}
		if f := skipBlanks(doc, args, le); hasPrefixFold(doc[f:le], "html") {
			r.sc.scanHTML(start, end)
		}
		return next
	case rstLiteralDirectives[lname]:
		r.startSkip(col)
	}
	return next
}

// options scans the option lines (":name: value", indented beyond col)
// that follow a directive's first line, emitting the URI options, and
// returns the offset of the line after them.
func (r *rst) options(next, col int) int {
	doc, b := r.doc, r.b
	for next < b {
		le, nnext := lineEnd(doc, next, b)
		ocol, p := rstIndent(doc, next, le)
		if p >= le || ocol <= col || doc[p] != ':' {
			return next
		}
		k := indexByte(doc[p+1:le], ':')
		if k <= 0 {
			return next
		}
		oname := string(lowerASCII(doc[p+1 : p+1+k]))
		vs := p + 1 + k + 1
		end := le
		next = nnext
		for next < b { // the value may continue on more indented lines
			nle, nn := lineEnd(doc, next, b)
			ncol, np := rstIndent(doc, next, nle)
			if np >= nle || ncol <= ocol {
				break
			}
			end, next = nle, nn
		}
		if rstURIOptions[oname] {
			s, e := skipBlanks(doc, vs, end), end
			for e > s && isSpace(doc[e-1]) {
				e--
			}
			if s < e && !(doc[e-1] == '_' && (e-2 < s || doc[e-2] != '\\')) {
				r.sc.emitDocutilsURI(s, e, Link)
			}
		}
	}
	return next
}

func skipBlanks(doc []byte, p, le int) int {
	for p < le && (doc[p] == ' ' || doc[p] == '\t') {
		p++
	}
	return p
}

// inline scans paragraph text doc[a:b]: inline literals and interpreted
// text are skipped, the embedded URIs of hyperlink references emitted, and
// the rest scanned as plain text.
func (r *rst) inline(a, b int) {
	sc, doc := r.sc, r.doc
	r.skips = r.skips[:0]
	for i := a; i < b; {
		if doc[i] != '`' {
			k := indexByte(doc[i:b], '`')
			if k < 0 {
				break
			}
			i += k
			continue
		}
		if !rstStart(doc, a, i) || i+1 >= b || isSpace(doc[i+1]) {
			i++
			for i < b && doc[i] == '`' {
				i++
			}
			continue
		}
		if doc[i+1] == '`' {
			// An inline literal "“…“": to the next "“".
			if i+2 >= b || isSpace(doc[i+2]) {
				i += 2
				continue
			}
			k := sc.nextIndex("rst``", i+2, b, "``")
			if k < 0 {
				i += 2
				continue
			}
			end := k + 2
			for end < b && doc[end] == '`' {
				end++
			}
			r.skips = append(r.skips, span{i, end})
			i = end
			continue
		}
		// Interpreted text or a hyperlink reference: to the next "`".
		k := sc.nextIndex("rst`", i+1, b, "`")
		if k < 0 || isSpace(doc[k-1]) {
			i++
			continue
		}
		end := k + 1
		if end < b && doc[end] == '_' {
			end++
			if end < b && doc[end] == '_' {
				end++
			}
			r.embedded(i+1, k)
		}
		r.skips = append(r.skips, span{i, end})
		i = end
	}
	g := a
	for _, s := range r.skips {
		if s.start > g {
			sc.scanText(g, s.start, bareOpts{}, angleText)
		}
		g = max(g, s.end)
	}
	if g < b {
		sc.scanText(g, b, bareOpts{}, angleText)
	}
}

// rstStart reports whether inline markup may start at doc[i]: at the start
// of the text, or after white space or one of the punctuation characters
// docutils allows before a start-string ("-:/'\"<([{").
func rstStart(doc []byte, a, i int) bool {
	if i == a {
		return true
	}
	switch c := doc[i-1]; c {
	case ' ', '\t', '\n', '\r', '-', ':', '/', '\'', '"', '<', '(', '[', '{':
		return true
	default:
		return c >= 0x80 // non-ASCII punctuation and spaces: let them start it
	}
}

// embedded emits the embedded URI of the hyperlink reference text
// doc[s:e] (between the backquotes): the text ends with "<URI>", after
// white space or alone.
func (r *rst) embedded(s, e int) {
	doc := r.doc
	if e <= s || doc[e-1] != '>' || e-2 >= 0 && doc[e-2] == '\\' {
		return
	}
	lt := -1
	for k := e - 2; k >= s; k-- {
		if doc[k] == '<' {
			lt = k
			break
		}
	}
	if lt < 0 || lt > s && !isSpace(doc[lt-1]) {
		return
	}
	us, ue := lt+1, e-1
	for us < ue && isSpace(doc[us]) {
		us++
	}
	for ue > us && isSpace(doc[ue-1]) {
		ue--
	}
	if us >= ue || doc[ue-1] == '_' && (ue-2 < us || doc[ue-2] != '\\') {
		return // empty, or an alias "<name_>"
	}
	r.sc.emitDocutilsURI(us, ue, Link)
}
