package scan

// attr is an attribute of a tag: its name and the span of its value in the
// document, quotes excluded (vs < 0 when it has none).
type attr struct {
	ns, ne, vs, ve int
}

// tag is a parsed start or end tag.
type tag struct {
	ns, ne int // the tag name
	end    int // offset after the ">" (or the input's end)
	attrs  []attr
	closed bool // ended by ">"
	self   bool // "/>"
}

// urlAttrs are the HTML attributes whose value is one URL (HTML §2.4 and
// the URL-valued attributes of HTML 4.01 and SVG). "data" counts on <object>
// only and "icon" on <menuitem> and <command> only (HTML 5.1; elsewhere it
// is an application's, such as a class list of icon fonts on an AngularJS
// directive: <modal icon="fas fa-heart">); srcset, imagesrcset, ping and
// itemtype hold several.
var urlAttrs = map[string]bool{
	"href": true, "src": true, "action": true, "cite": true, "poster": true,
	"formaction": true, "background": true, "longdesc": true, "usemap": true,
	"manifest": true, "codebase": true, "profile": true,
	"classid": true, "xlink:href": true, "lowsrc": true, "dynsrc": true,
}

// codeElements are the HTML elements whose text is code or program output
// (HTML §4.5.12–4.5.15, §4.4.3): bare URLs there are examples.
var codeElements = map[string]bool{"pre": true, "code": true, "samp": true, "kbd": true, "listing": true}

// scanHTML finds the URLs of HTML in doc[a:b], following the HTML
// tokenizer (HTML §13.2.5) where it matters and never failing:
//   - the values of URL attributes (urlAttrs, srcset, ping, …), with
//     character references decoded (Text holds the characters, Offsets map
//     them back) and leading and trailing white space left out; context Attr
//     (Base for <base href>), Relative set;
//   - bare URLs with a known scheme in text, references decoded, except in
//     the text of an <a href> element, which repeats its href more often than
//     not (up to its </a>, or the end tag of a block such as </p>), and in
//     code: <pre>, <code>, <samp> and <kbd> hold examples more often than
//     links, as Markdown's code blocks do (their attributes are checked); an
//     end tag ends the last open element of its name and the code elements
//     opened in it (see codeScope.close);
//   - script contents as JavaScript (comments and strings), style contents
//     as CSS, textarea and title contents as text; comments, and the raw
//     text of xmp, iframe, noembed and noframes, are skipped.
//
// A quoted value runs to its closing quote, over lines and ">" if need be,
// as in a browser; a tag or value still open at the end of the input gives
// no candidate for that value.
//
// HTML files are often templates (Go and Hugo, Jinja, Django, Handlebars).
// A template action "{{ … }}" or "{% … %}" (see actionAt) in text is not
// markup: a "<" inside it does not start a tag ({{ printf "<a href=%q>" $x
// }} holds no href). In an attribute value an action is part of the value,
// quotes inside it included (src="{{ (resources.Get "x.png").RelPermalink
// }}"), and srcset, ping and itemtype do not split an action at its
// spaces; such values stay candidates, and the checks mask the actions.
func (sc *scanner) scanHTML(a, b int) {
	doc := sc.doc
	text := a
	inA := false
	// The code elements open at i, and the blocks opened inside them: an
	// end tag closes the last open element of its name and those opened
	// after it (an unclosed <code> ends with the <pre> or block around
	// it), not those around it (Sphinx's viewcode pages put <div
	// class="viewcode-block"> … </div> inside their <pre>).
	var code codeScope
	flush := func(end int) {
		if !inA && !code.inCode() && text < end {
			sc.scanBare(text, end, bareOpts{mode: decHTMLText})
		}
	}
	i := a
	for i < b {
		k := indexByte(doc[i:b], '<')
		if k < 0 {
			break
		}
		lt := i + k
		if end := sc.actionBefore(i, lt, b); end > 0 {
			i = end // a "<" inside a template action is not markup
			continue
		}
		c := byte(0)
		if lt+1 < b {
			c = doc[lt+1]
		}
		if c != '!' && c != '?' && c != '/' && !isAlpha(c) {
			i = lt + 1 // a "<" of text
			continue
		}
		flush(lt)
		next := 0
		switch {
		case hasPrefix(doc[lt:b], "<!--"):
			next = sc.htmlComment(lt, b)
		case c == '!' || c == '?':
			next = sc.untilGT(lt+2, b) // doctype, CDATA, bogus comments
		case c == '/' && lt+2 < b && isAlpha(doc[lt+2]):
			t := sc.parseTag(lt+2, b, false)
			var lb [32]byte
			n := appendLower(lb[:0], doc[t.ns:t.ne])
			if equalFold(n, "a") || blockEnds[string(n)] {
				inA = false // a block's end tag ends an unclosed <a> too
			}
			if code.inCode() {
				code.close(string(n))
			}
			next = t.end
		case c == '/':
			next = sc.untilGT(lt+2, b) // "</>" and bogus comments
		default:
			t := sc.parseTag(lt+1, b, false)
			sc.tagURLs(&t)
			name := doc[t.ns:t.ne]
			next = t.end
			if equalFold(name, "a") && !t.self && t.has(doc, "href") {
				inA = true
			}
			var lb [32]byte
			switch lname := string(appendLower(lb[:0], name)); {
			case t.self:
			case codeElements[lname], code.inCode() && blockEnds[lname]:
				code.open(lname)
			}
			if !t.closed {
				break
			}
			switch {
			case equalFold(name, "script"), equalFold(name, "style"), equalFold(name, "textarea"),
				equalFold(name, "title"), equalFold(name, "xmp"), equalFold(name, "iframe"),
				equalFold(name, "noembed"), equalFold(name, "noframes"), equalFold(name, "plaintext"):
				ce := b
				if !equalFold(name, "plaintext") {
					ce = sc.rawTextEnd(t.end, b, name)
				}
				switch {
				case equalFold(name, "script"):
					sc.scanCode(t.end, ce, languages["javascript"])
				case equalFold(name, "style"):
					sc.scanCode(t.end, ce, languages["css"])
				case equalFold(name, "textarea"), equalFold(name, "title"):
					sc.scanBare(t.end, ce, bareOpts{mode: decHTMLText})
				}
				next = ce
			}
		}
		text, i = next, next
	}
	flush(b)
}

// maxAction bounds the length of a template action in HTML.
const maxAction = 4096

// actionAt returns the end of the template action at doc[p] in HTML, or
// 0: "{{" (Go, Hugo, Handlebars, Jinja) or "{%" (Jinja, Django, Liquid),
// up to its "}}" or "%}", which must come before the next "{{" or "{%"
// (actions do not nest) and within maxAction bytes; it may span lines.
// The searches are remembered (nextIndex), so that scanning stays linear.
func (sc *scanner) actionAt(p, b int) int {
	doc := sc.doc
	if p+1 >= b || doc[p] != '{' || doc[p+1] != '{' && doc[p+1] != '%' {
		return 0
	}
	key, open, close := "html}}", "{{", "}}"
	if doc[p+1] == '%' {
		key, open, close = "html%}", "{%", "%}"
	}
	e := sc.nextIndex(key, p+2, b, close)
	if e < 0 || e+2-p > maxAction {
		return 0
	}
	if n := sc.nextIndex(key+open, p+2, b, open); n >= 0 && n < e {
		return 0
	}
	end := e + 2
	if close == "}}" && end < b && doc[end] == '}' && doc[p+2] == '{' {
		end++ // "{{{ … }}}"
	}
	return end
}

// actionBefore returns the end of the template action that starts in
// doc[i:lt] and holds the "<" at doc[lt] (or the end of the first action
// there, so that the caller moves on), or 0 when there is none: in
// "{{ printf "<a href=%q>" $x }}" the "<a" is a string of the template, not
// a tag.
func (sc *scanner) actionBefore(i, lt, b int) int {
	for {
		// The next "{" at or after i, remembered: this runs at every "<".
		if sc.brace < i || sc.braceLim != b {
			sc.brace, sc.braceLim = b, b
			if k := indexByte(sc.doc[i:b], '{'); k >= 0 {
				sc.brace = i + k
			}
		}
		t := sc.brace
		if t >= lt {
			return 0
		}
		if end := sc.actionAt(t, b); end > 0 {
			return end
		}
		i = t + 1
	}
}

// htmlComment skips the comment at doc[lt:] == "<!--", recording it, and
// returns its end (HTML §13.2.5.43: "<!-->" and "<!--->" are empty
// comments; an unclosed one runs to the end).
func (sc *scanner) htmlComment(lt, b int) int {
	doc := sc.doc
	bs := lt + 4
	switch {
	case hasPrefix(doc[bs:b], ">"):
		sc.comment(lt, bs+1, bs, bs)
		return bs + 1
	case hasPrefix(doc[bs:b], "->"):
		sc.comment(lt, bs+2, bs, bs)
		return bs + 2
	}
	if k := indexString(doc[bs:b], "-->"); k >= 0 {
		sc.comment(lt, bs+k+3, bs, bs+k)
		return bs + k + 3
	}
	sc.comment(lt, b, bs, b)
	return b
}

// untilGT returns the offset after the next ">" (or b).
func (sc *scanner) untilGT(i, b int) int {
	if k := indexByte(sc.doc[i:b], '>'); k >= 0 {
		return i + k + 1
	}
	return b
}

// rawTextEnd returns the offset of the end tag "</name" (followed by white
// space, "/" or ">") that ends raw text started at i, or b.
func (sc *scanner) rawTextEnd(i, b int, name []byte) int {
	doc := sc.doc
	for i < b {
		k := indexByte(doc[i:b], '<')
		if k < 0 {
			return b
		}
		p := i + k
		e := p + 2 + len(name)
		if e <= b && doc[p+1] == '/' && hasPrefixFold(doc[p+2:e], string(name)) &&
			(e == b || isSpace(doc[e]) || doc[e] == '/' || doc[e] == '>') {
			return p
		}
		i = p + 1
	}
	return b
}

// parseTag parses the tag whose name starts at doc[p] (after "<" or "</").
//
// Not strict, it follows the HTML tokenizer: the name runs to white space,
// "/" or ">"; attribute names to white space, "/", ">" or "="; values are
// quoted or run to white space or ">"; it never fails, and a tag open at the
// end of the input has closed false (a value whose quote is not closed is
// then dropped).
//
// Strict, it is CommonMark's raw HTML open tag (spec §6.6): a name of
// letters, digits and "-", attributes after white space with names
// [A-Za-z_:][A-Za-z0-9_.:-]*, unquoted values without white space and
// "\"'=<>`", and ">" or "/>"; anything else is not a tag (closed false).
func (sc *scanner) parseTag(p, b int, strict bool) tag {
	doc := sc.doc
	t := tag{ns: p, attrs: sc.attrs[:0]}
	defer func() { sc.attrs = t.attrs[:0] }()
	j := p
	if strict {
		for j < b && (isAlnum(doc[j]) || doc[j] == '-') {
			j++
		}
	} else {
		for j < b && !isSpace(doc[j]) && doc[j] != '/' && doc[j] != '>' {
			j++
		}
	}
	t.ne = j
	for {
		ws := j
		for j < b && isSpace(doc[j]) {
			j++
		}
		if !strict {
			for j < b && (isSpace(doc[j]) || doc[j] == '/') {
				j++
			}
		}
		if j >= b {
			t.end = b
			return t
		}
		if doc[j] == '>' {
			t.end, t.closed = j+1, true
			t.self = j > p && doc[j-1] == '/'
			return t
		}
		if strict && doc[j] == '/' {
			if j+1 < b && doc[j+1] == '>' {
				t.end, t.closed, t.self = j+2, true, true
			}
			return t
		}
		if strict && (j == ws || !(isAlpha(doc[j]) || doc[j] == '_' || doc[j] == ':')) {
			return t // attributes must be separated by white space
		}
		a := attr{ns: j, vs: -1, ve: -1}
		j++
		for j < b && !isSpace(doc[j]) && doc[j] != '/' && doc[j] != '>' && doc[j] != '=' {
			if strict && !(isAlnum(doc[j]) || doc[j] == '_' || doc[j] == '.' || doc[j] == ':' || doc[j] == '-') {
				return t
			}
			j++
		}
		a.ne = j
		k := j
		for k < b && isSpace(doc[k]) {
			k++
		}
		if k < b && doc[k] == '=' {
			k++
			for k < b && isSpace(doc[k]) {
				k++
			}
			if k >= b {
				t.end = b
				return t
			}
			switch q := doc[k]; q {
			case '"', '\'':
				key := "\"attr"
				if q == '\'' {
					key = "'attr"
				}
				e := sc.quoteEnd(key, k+1, b, q, strict)
				if e < 0 {
					t.end = b // the value runs to the end: no tag
					return t
				}
				a.vs, a.ve = k+1, e
				j = e + 1
			case '>':
				if strict {
					return t
				}
				a.vs, a.ve = k, k // a missing value
				j = k
			default:
				s := k
				for k < b && !isSpace(doc[k]) && doc[k] != '>' {
					if strict && (doc[k] == '"' || doc[k] == '\'' || doc[k] == '=' || doc[k] == '<' || doc[k] == '`') {
						return t
					}
					if !strict && doc[k] == '{' {
						if end := sc.actionAt(k, b); end > 0 {
							k = end // href={{ .URL }}
							continue
						}
					}
					k++
				}
				a.vs, a.ve = s, k
				j = k
			}
		}
		t.attrs = append(t.attrs, a)
	}
}

// quoteEnd returns the offset of the quote q that closes an attribute
// value starting at vs, or -1. Outside strict mode (templates are HTML
// files, not Markdown), a quote inside a template action is not the value's
// end: in src="{{ (resources.Get "x.png").RelPermalink }}" the value is the
// whole action.
func (sc *scanner) quoteEnd(key string, vs, b int, q byte, strict bool) int {
	for {
		e := sc.index(key, vs, b, string(q))
		if e < 0 || strict {
			return e
		}
		t := sc.nextIndex("attr{", vs, e, "{")
		for t >= 0 {
			end := sc.actionAt(t, b)
			if end > e {
				break // the quote is inside the action
			}
			if end == 0 {
				end = t + 1
			}
			t = sc.nextIndex("attr{", end, e, "{")
		}
		if t < 0 {
			return e
		}
		vs = sc.actionAt(t, b)
	}
}

// blockEnds are the elements whose end tag also ends the text of an
// unclosed <a> for scanHTML, so that one missing </a> does not hide the rest
// of a document.
var blockEnds = map[string]bool{
	"p": true, "div": true, "li": true, "ul": true, "ol": true, "dl": true, "dd": true, "dt": true,
	"td": true, "th": true, "tr": true, "table": true, "section": true, "article": true, "aside": true,
	"header": true, "footer": true, "nav": true, "main": true, "body": true, "html": true,
	"blockquote": true, "pre": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
}

// codeScopeNames are the names of codeElements and blockEnds, the
// elements codeScope holds, and codeScopeIDs their indexes there.
var codeScopeNames, codeScopeIDs = func() ([]string, map[string]uint8) {
	ids := map[string]uint8{}
	var names []string
	for _, m := range []map[string]bool{codeElements, blockEnds} {
		for n := range m {
			if _, ok := ids[n]; !ok {
				ids[n] = uint8(len(names))
				names = append(names, n)
			}
		}
	}
	return names, ids
}()

// maxCodeScopeNames bounds len(codeScopeNames).
const maxCodeScopeNames = 64

func init() {
	if len(codeScopeNames) > maxCodeScopeNames {
		panic("scan: maxCodeScopeNames is too small")
	}
}

// codeScope is the stack of the elements scanHTML keeps open inside code:
// the code elements (codeElements), and the blocks (blockEnds) opened
// inside them, innermost last.
type codeScope struct {
	stack []uint8                   // codeScopeIDs
	count [maxCodeScopeNames]uint32 // how many of each are on the stack
}

// inCode reports whether a code element is open.
func (s *codeScope) inCode() bool { return len(s.stack) > 0 }

// open pushes the element named name, one of codeScopeNames.
func (s *codeScope) open(name string) {
	id := codeScopeIDs[name]
	s.stack = append(s.stack, id)
	s.count[id]++
}

// close applies the end tag of the element named name: it closes the last
// open element of that name and those opened after it (HTML §13.2.6.4.7,
// "pop elements from the stack of open elements until an element with the
// same tag name has been popped"). An end tag with no open element of its
// name closes nothing (the parser ignores it), except a block's: that
// block was opened before the code, which ends with it (an unclosed
// <code> or <kbd> ends with its paragraph). The counts keep it linear: it
// looks through the stack only to pop what it looked at.
func (s *codeScope) close(name string) {
	id, ok := codeScopeIDs[name]
	switch {
	case !ok:
		return
	case s.count[id] == 0:
		if blockEnds[name] {
			s.popTo(0)
		}
		return
	}
	j := len(s.stack) - 1
	for s.stack[j] != id {
		j--
	}
	s.popTo(j)
}

// popTo closes the elements from the j-th on.
func (s *codeScope) popTo(j int) {
	for _, id := range s.stack[j:] {
		s.count[id]--
	}
	s.stack = s.stack[:j]
}

// has reports whether the tag has the attribute.
func (t *tag) has(doc []byte, name string) bool {
	for _, a := range t.attrs {
		if equalFold(doc[a.ns:a.ne], name) {
			return true
		}
	}
	return false
}

// tagURLs emits the URLs of a start tag's attributes.
func (sc *scanner) tagURLs(t *tag) {
	doc := sc.doc
	name := doc[t.ns:t.ne]
	var refresh bool
	if equalFold(name, "meta") {
		for _, a := range t.attrs {
			if a.vs >= 0 && equalFold(doc[a.ns:a.ne], "http-equiv") {
				v := sc.trim(sc.decodeSeq(a.vs, a.ve, decHTMLAttr))
				refresh = sc.seqEqualFold(v, "refresh")
			}
		}
	}
	for _, a := range t.attrs {
		if a.vs < 0 {
			continue
		}
		an := doc[a.ns:a.ne]
		var buf [16]byte
		if len(an) > len(buf) {
			continue
		}
		for k, c := range an {
			buf[k] = lower(c)
		}
		key := string(buf[:len(an)])
		switch {
		case urlAttrs[key] || key == "data" && equalFold(name, "object") ||
			key == "icon" && (equalFold(name, "menuitem") || equalFold(name, "command")):
			ctx := Attr
			if key == "href" && equalFold(name, "base") {
				ctx = Base
			}
			sc.emit(sc.trim(sc.decodeSeq(a.vs, a.ve, decHTMLAttr)), ctx, true)
		case key == "srcset" || key == "imagesrcset":
			sc.srcset(sc.decodeSeq(a.vs, a.ve, decHTMLAttr))
		case key == "ping" || key == "itemtype":
			q := sc.decodeSeq(a.vs, a.ve, decHTMLAttr)
			it := q.iter(doc)
			s := -1
			act := 0 // the end of the template action the units are in
			for {
				u, ok := it.next()
				if ok && u.start >= act {
					if end := sc.unitAction(u, q.end); end > 0 {
						act = end
					}
				}
				if !ok || unitSpace(u) && u.start >= act {
					if s >= 0 {
						e := q.end
						if ok {
							e = u.start
						}
						sc.emit(q.sub(s, e), Attr, true)
						s = -1
					}
					if !ok {
						break
					}
					continue
				}
				if s < 0 {
					s = u.start
				}
			}
		case key == "content" && refresh:
			sc.refresh(sc.decodeSeq(a.vs, a.ve, decHTMLAttr))
		}
	}
}

// unitAction returns the end of the template action that starts at the
// unit u of an attribute value ending at end, or 0.
func (sc *scanner) unitAction(u unit, end int) int {
	if u.r != '{' || u.dec {
		return 0
	}
	return sc.actionAt(u.start, end)
}

// unitSpace is ASCII white space, as HTML strips it from URLs (HTML §2.4.1:
// "a valid URL potentially surrounded by spaces").
func unitSpace(u unit) bool {
	return u.r == ' ' || u.r == '\t' || u.r == '\n' || u.r == '\f' || u.r == '\r'
}

// trim drops the leading and trailing white space of q.
func (sc *scanner) trim(q seq) seq {
	a, b := q.start, q.end
	for a < b {
		u := q.at(sc.doc, a)
		if !unitSpace(u) {
			break
		}
		a = u.end
	}
	for b > a {
		u := q.before(sc.doc, b)
		if !unitSpace(u) {
			break
		}
		b = u.start
	}
	return q.sub(a, b)
}

// seqEqualFold reports whether q is the ASCII string s, ignoring case.
func (sc *scanner) seqEqualFold(q seq, s string) bool {
	it := q.iter(sc.doc)
	for k := 0; k < len(s); k++ {
		u, ok := it.next()
		if !ok || u.r >= 0x80 || lower(byte(u.r)) != s[k] {
			return false
		}
	}
	_, more := it.next()
	return !more
}

// srcset emits the URLs of a srcset value, by the parsing algorithm of
// HTML §4.8.4.3.10: each comma-separated image candidate is a URL, then
// descriptors ("2x", "100w") up to a comma outside parentheses; a URL that
// ends in commas loses them.
func (sc *scanner) srcset(q seq) {
	it := q.iter(sc.doc)
	u, ok := it.next()
	for ok {
		for ok && (unitSpace(u) || u.r == ',') {
			u, ok = it.next()
		}
		if !ok {
			return
		}
		s, e := u.start, u.start
		var last unit
		for ok && !unitSpace(u) {
			if end := sc.unitAction(u, q.end); end > 0 {
				for ok && u.start < end { // "{{ $image.RelPermalink }} 2x"
					last, e = u, u.end
					u, ok = it.next()
				}
				continue
			}
			last, e = u, u.end
			u, ok = it.next()
		}
		if last.r == ',' {
			// Trailing commas end the candidate, which has no descriptors.
			sub := q.sub(s, e)
			for sub.end > sub.start {
				p := sub.before(sc.doc, sub.end)
				if p.r != ',' {
					break
				}
				sub = q.sub(s, p.start)
			}
			sc.emit(sub, Attr, true)
			continue
		}
		sc.emit(q.sub(s, e), Attr, true)
		depth := 0
		for ok {
			if u.r == '(' {
				depth++
			} else if u.r == ')' && depth > 0 {
				depth--
			} else if u.r == ',' && depth == 0 {
				break
			}
			u, ok = it.next()
		}
	}
}

// refresh emits the URL of <meta http-equiv="refresh" content="5;
// url=…">, parsed as HTML §4.2.5.3 says: a time, ";" or ",", an optional
// "url=" and the URL, quoted or not.
func (sc *scanner) refresh(q seq) {
	doc := sc.doc
	it := q.iter(doc)
	u, ok := it.next()
	skip := func() {
		for ok && unitSpace(u) {
			u, ok = it.next()
		}
	}
	skip()
	for ok && (u.r >= '0' && u.r <= '9' || u.r == '.') {
		u, ok = it.next()
	}
	skip()
	if ok && (u.r == ';' || u.r == ',') {
		u, ok = it.next()
	}
	skip()
	if !ok {
		return
	}
	start := u.start
	// An optional "url" "=": look ahead without losing the place.
	look := it
	v, vok := u, ok
	match := true
	for k := 0; k < 3; k++ {
		if !vok || v.r >= 0x80 || lower(byte(v.r)) != "url"[k] {
			match = false
			break
		}
		v, vok = look.next()
	}
	if match {
		for vok && unitSpace(v) {
			v, vok = look.next()
		}
		if vok && v.r == '=' {
			it = look
			u, ok = it.next()
			skip()
			if !ok {
				return
			}
			start = u.start
		}
	}
	end := q.end
	if u.r == '"' || u.r == '\'' {
		quote := u.r
		start = u.end
		for u, ok = it.next(); ok; u, ok = it.next() {
			if u.r == quote {
				end = u.start
				break
			}
		}
	}
	if start < end {
		sc.emit(sc.trim(q.sub(start, end)), Attr, true)
	}
}
