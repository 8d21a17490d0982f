package scan

// angleRule says which <…> wrappers hold a URL.
type angleRule uint8

const (
	// angleText: "<URL:…>", and "<" then a scheme in use (inUse) and ":",
	// or any scheme and "://" (plain text: "<irc://host>",
	// "<mailto:a@b.c>"; not "<note: prose>", "<user:password>" or
	// "<T: Clone>").
	angleText angleRule = iota
	// angleComment: as angleText, and in "<URL:…>" the inside must start
	// with a scheme too (comments of code, where "<URL:…>" is as often
	// prose about wrappers).
	angleComment
	// angleURLOnly: only "<URL:…>" (Markdown, where CommonMark's own rules
	// make the autolinks).
	angleURLOnly
)

// maxWrapperLines is how many line breaks a <…> or <URL:…> wrapper may hold:
// RFC 1738's appendix breaks long URLs over lines inside them, but a "<"
// whose ">" is more than 8 lines away (or after a blank line, or after
// another "<") is a less-than sign, not a wrapper.
const maxWrapperLines = 8

// scanText finds the URLs of plain text in doc[a:b]: wrappers and bare
// URLs.
func (sc *scanner) scanText(a, b int, o bareOpts, rule angleRule) {
	doc := sc.doc
	seg, i := a, a
	for i < b {
		k := indexByte(doc[i:b], '<')
		if k < 0 {
			break
		}
		lt := i + k
		if end, ok := sc.wrapper(lt, b, rule); ok {
			sc.scanBare(seg, lt, o)
			seg, i = end, end
			continue
		}
		i = lt + 1
	}
	sc.scanBare(seg, b, o)
}

// wrapper recognises the wrapper of RFC 1738's appendix "Recommendations
// for URLs in Context" at doc[lt] == '<': "<URL:" (any case, with or without
// white space after it) or, by rule, "<scheme:", then anything but "<" up to
// the ">". The URL is what is inside, without the "URL:" prefix; its white
// space is removed ("The whitespace should be ignored when extracting the
// URL"), and a hyphen before a line break is kept (the appendix says the
// hyphen "may or may not actually be part of the URL"; it is the writer's,
// and the checks see it). Nothing inside is trimmed: the brackets delimit the
// URL, which is their point. It emits the candidate (none for an empty
// wrapper) and returns the offset after the ">".
//
// Inside "<URL:…>" any white space may stand: the writer said it is a URL.
// "<scheme:…>" needs a scheme in use (see schemeAt) followed by "//", by
// the syntax of its bareSchemes entry, or (a scheme of the registry alone)
// by more than an XML qualified name. Inside "<scheme:…>", white space may only break the URL over lines, as
// in RFC 3986 Appendix C's "<ftp://foo.example.\n   com/rfc/>": a line
// break right after a URL character, then the next line's indentation. A
// space within a line means prose ("<note: this is prose>", "<T: Clone>"),
// and the "<" is a less-than sign.
func (sc *scanner) wrapper(lt, b int, rule angleRule) (int, bool) {
	doc := sc.doc
	p := lt + 1
	ctx := Angle
	if hasPrefixFold(doc[p:b], "URL:") {
		p += 4
		ctx = Wrapped
		if rule == angleComment {
			// In comments, "<URL:…>" is as often prose about wrappers:
			// the inside must start with a scheme too.
			k := p
			for k < b && isSpace(doc[k]) {
				k++
			}
			if !schemeAt(doc, k, b, true) {
				return 0, false
			}
		}
	} else if rule == angleURLOnly || !schemeAt(doc, p, b, true) {
		return 0, false
	}
	strict := ctx == Angle
	// A scheme of bareSchemes needs its syntax ("<news: today>" is prose);
	// one of the registry alone, more than an XML qualified name
	// ("<content:encoded>", "<app:layout_behavior>").
	if strict {
		j := p
		for isSchemeChar(doc[j]) {
			j++
		}
		if !hasPrefix(doc[j:b], "://") {
			if syn, ok := lookupSyntax(doc[p:j]); ok {
				if !fits(doc, syn, j+1, b) {
					return 0, false // "<news: today>", "<file:line>"
				}
			} else {
				k := j + 1
				for k < b && (isAlnum(doc[k]) || doc[k] == '-' || doc[k] == '_' || doc[k] == '.') {
					k++
				}
				if k < b && doc[k] == '>' {
					return 0, false
				}
			}
		}
	}
	lines := 0
	indent := false // in the indentation after a line break
	q := p
	for ; q < b && doc[q] != '>'; q++ {
		switch c := doc[q]; {
		case c == '<':
			return 0, false
		case c == ' ' || c == '\t' || c == '\f' || c == '\v':
			if strict && !indent {
				return 0, false
			}
		case c == '\r' && q+1 < b && doc[q+1] == '\n':
			// the "\r" of a CRLF: the "\n" counts
		case c == '\n' || c == '\r':
			k := q - 1
			if c == '\n' && doc[k] == '\r' {
				k--
			}
			if strict && (doc[k] == ' ' || doc[k] == '\t' || doc[k] == '\f' || doc[k] == '\v') {
				return 0, false // a line break after white space
			}
			indent = true
			lines++
			if lines > maxWrapperLines {
				return 0, false
			}
			r := q + 1
			for r < b && (doc[r] == ' ' || doc[r] == '\t' || doc[r] == '\r') {
				r++
			}
			if r < b && doc[r] == '\n' {
				return 0, false // a blank line
			}
			continue
		default:
			indent = false
		}
	}
	if q >= b {
		return 0, false
	}
	sc.emitWrapped(p, q, ctx)
	return q + 1, true
}

// emitWrapped emits the URL of a wrapper's inside doc[p:q] without its
// white space. A wrapped URL without a scheme is a relative reference: the
// writer said it is a URL.
func (sc *scanner) emitWrapped(p, q int, ctx Context) {
	sc.emitJoined(p, q, ctx, ctx == Wrapped)
}

// emitJoined emits doc[p:q], without its leading and trailing white space,
// as a URL whose inner white space is not part of it (RFC 1738 appendix
// wrappers).
func (sc *scanner) emitJoined(p, q int, ctx Context, rel bool) {
	sc.emitURI(p, q, ctx, rel, false)
}

// emitDocutilsURI emits the URI doc[p:q] of a reStructuredText hyperlink
// target, embedded URI or directive argument as docutils reads it
// (docutils.parsers.rst.directives.uri and the same code for targets and
// embedded URIs): the white space of a URI broken over lines is removed, a
// backslash escapes the character after it and is removed
// ("Translation_unit_\(programming\)" is ".../Translation_unit_(programming)"),
// and an escaped white space character stays, as a space.
func (sc *scanner) emitDocutilsURI(p, q int, ctx Context) {
	sc.emitURI(p, q, ctx, true, true)
}

// emitURI emits doc[p:q] without its leading and trailing white space and,
// inside, without white space (joined) and, when unescape is set, without
// the backslashes that escape a character (docutils).
func (sc *scanner) emitURI(p, q int, ctx Context, rel, unescape bool) {
	doc := sc.doc
	for p < q && isSpace(doc[p]) {
		p++
	}
	for q > p && isSpace(doc[q-1]) {
		q--
	}
	if p >= q {
		return
	}
	c := Candidate{Start: p, End: q, Context: ctx, Relative: rel}
	changed := false
	for k := p; k < q; k++ {
		if isSpace(doc[k]) || unescape && doc[k] == '\\' {
			changed = true
			break
		}
	}
	if !changed {
		c.Text = string(doc[p:q])
	} else {
		buf := sc.text[:0]
		offs := make([]int, 0, q-p+1)
		for k := p; k < q; k++ {
			switch {
			case unescape && doc[k] == '\\' && k+1 < q:
				k++ // the escaped byte stands for itself, white space as a space
				b := doc[k]
				if isSpace(b) {
					b = ' '
				}
				buf = append(buf, b)
				offs = append(offs, k)
			case !isSpace(doc[k]):
				buf = append(buf, doc[k])
				offs = append(offs, k)
			}
		}
		c.Text = string(buf)
		c.Offsets = append(offs, q)
		// An escaped byte's offset is its own, the backslash before it
		// going with the unit before: a URI that starts with an escape
		// ("\0") starts at the byte it escapes.
		c.Start = c.Offsets[0]
		sc.text = buf
	}
	sc.cands = append(sc.cands, c)
}

// schemeAt reports whether an RFC 1738 §2.1 scheme name and ":" start at
// doc[p]; when inuse is set, the scheme must be in use (inUse), or be
// followed by "//".
func schemeAt(doc []byte, p, b int, inuse bool) bool {
	j := p
	if j >= b || !isAlpha(doc[j]) {
		return false
	}
	for j < b && isSchemeChar(doc[j]) {
		j++
	}
	if j >= b || doc[j] != ':' {
		return false
	}
	return !inuse || inUse(doc[p:j]) || j+2 < b && doc[j+1] == '/' && doc[j+2] == '/'
}
