package scan

import (
	"fmt"
	"testing"
)

// bareWords is the byte-at-a-time reader of scanBare, kept as the reference
// its jump search is tested against: every letter starts a word of scheme
// characters, and a word followed by ":" or "/" at a word boundary is
// offered to bareAt.
func (sc *scanner) bareWords(a, b int, o bareOpts) {
	doc := sc.doc
	i := a
	for i < b {
		c := doc[i]
		if !isAlpha(c) {
			i++
			continue
		}
		j := i + 1
		for j < b && isSchemeChar(doc[j]) {
			j++
		}
		if j >= b || doc[j] != ':' && doc[j] != '/' || !schemeBoundary(doc, i) {
			i = j
			continue
		}
		if end, ok := sc.bareAt(i, j, b, o); ok {
			i = end
		} else {
			i = j
		}
	}
}

// bareOptsVariants are the contexts scanBare runs in.
var bareOptsVariants = []bareOpts{
	{}, {ctx: Code}, {ctx: Code, mode: decComment}, {mode: decHTMLText}, {mode: decMarkdown, entityTail: true},
	{mode: decMarkdown, brackets: true, pipe: true}, {ctx: Code, code: true, mode: decString},
}

// FuzzScanBareJump: scanBare, which jumps from ":" to "/", finds what the
// byte-at-a-time reader finds, in every region of the document (a region
// may start or end inside a word or a URL), in every context.
func FuzzScanBareJump(f *testing.F) {
	for _, s := range []string{
		"see http://a.com/x and mailto:a@b.c, urn:isbn:123 or https//host.example",
		"1-2ahttp://x 3.http://y _http://z_ a_http://w x+https://v (http://a.com/(b))",
		"http://a.com.:y http::host.example file:/etc file:line C://x ab.cd://e",
		"éhttp://x 詳細はhttp://y.org/ \"http://q.org\" 'http://s.org' http://a.com&amp;b:c/d",
		"http://x.org/%s/{id}${v}#{w} https://{{ .Site }}/a <http://a> a/b:c//d e:/f",
	} {
		f.Add([]byte(s), uint8(0), uint8(0), uint8(0))
	}
	f.Fuzz(func(t *testing.T, doc []byte, from, to, opt uint8) {
		a, b := int(from)%(len(doc)+1), int(to)%(len(doc)+1)
		if a > b {
			a, b = b, a
		}
		o := bareOptsVariants[int(opt)%len(bareOptsVariants)]
		fast, ref := &scanner{doc: doc}, &scanner{doc: doc}
		fast.scanBare(a, b, o)
		ref.bareWords(a, b, o)
		if fmt.Sprint(fast.cands) != fmt.Sprint(ref.cands) {
			t.Errorf("doc %q [%d:%d] %+v:\njump %v\nstep %v", doc, a, b, o, fast.cands, ref.cands)
		}
	})
}

// TestByteSetIndex: byteSet.index finds the first byte of the set at
// every offset, across the eight-byte steps and the tail.
func TestByteSetIndex(t *testing.T) {
	set := newByteSet("\\`<![]")
	for n := 0; n <= 40; n++ {
		for at := -1; at < n; at++ {
			b := make([]byte, n)
			for i := range b {
				b[i] = 'a' + byte(i%26)
			}
			if at >= 0 {
				b[at] = '['
				if at+3 < n {
					b[at+3] = '`'
				}
			}
			if got := set.index(b); got != at {
				t.Errorf("index(%q) = %d, want %d", b, got, at)
			}
		}
	}
}

// FuzzByteSetIndex: byteSet.index and byteSet.next agree with a
// byte-at-a-time search.
func FuzzByteSetIndex(f *testing.F) {
	f.Add([]byte("hello [world] `code` <tag> !x \\y"), "\\`<![]")
	f.Fuzz(func(t *testing.T, b []byte, set string) {
		want := -1
		for i, c := range b {
			if indexByte([]byte(set), c) >= 0 {
				want = i
				break
			}
		}
		if got := newByteSet(set).index(b); got != want {
			t.Errorf("index(%q, %q) = %d, want %d", b, set, got, want)
		}
		// next, from every offset, to the end and to the bounds near it.
		bs := newByteSet(set)
		hit := make([]int, len(b)+2) // the first byte of the set at or after each offset
		hit[len(b)], hit[len(b)+1] = len(b), len(b)
		for i := len(b) - 1; i >= 0; i-- {
			hit[i] = hit[i+1]
			if indexByte([]byte(set), b[i]) >= 0 {
				hit[i] = i
			}
		}
		for from := 0; from <= len(b)+1; from++ {
			for lim := max(0, from-1); lim <= len(b); lim++ {
				if lim > from+17 && lim < len(b) {
					continue
				}
				want := lim
				if from < lim {
					want = min(hit[from], lim)
				}
				if got := bs.next(b, from, lim); got != want {
					t.Fatalf("next(%q, %q, %d, %d) = %d, want %d", b, set, from, lim, got, want)
				}
			}
		}
	})
}

// inlineStepwise is AsciiDoc's inline scan as it was before it jumped
// (byte at a time), kept as the reference the jump is tested against.
func (d *adoc) inlineStepwise(a, b int) {
	sc, doc := d.sc, d.doc
	// Backslash escapes ("\\..." keeps "..." from becoming an ellipsis)
	// and character references are decoded, as in Markdown.
	o := bareOpts{mode: decMarkdown, brackets: true, pipe: d.table}
	word := func(i int) bool { // a word starts at doc[i]
		return i == a || !(isWordByte(doc[i-1]) || doc[i-1] == '\\')
	}
	for i := a; i < b; {
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

// FuzzAsciiDocInlineJump: AsciiDoc's inline scan, which jumps between its
// special bytes, finds what the byte-at-a-time one finds, in any region.
func FuzzAsciiDocInlineJump(f *testing.F) {
	for _, s := range []string{
		"see https://a.org[text] and link:b.html[x] mailto:a@b.c[m] image:i.png[]",
		"a-+b+ +pass http://x+ ab+cd://e `+http://y+` $$http://z$$ <<ref,http://w>> {url}/x[t]",
		"_a-http://x \\https://esc.org x_http://y 1http://z |http://c.org/x|y",
	} {
		f.Add([]byte(s), uint8(0), uint8(255), false)
	}
	f.Fuzz(func(t *testing.T, doc []byte, from, to uint8, table bool) {
		a, b := int(from)%(len(doc)+1), int(to)%(len(doc)+1)
		if a > b {
			a, b = b, a
		}
		fast, ref := &scanner{doc: doc}, &scanner{doc: doc}
		(&adoc{sc: fast, doc: doc, b: len(doc), regionStart: -1, table: table}).inline(a, b)
		(&adoc{sc: ref, doc: doc, b: len(doc), regionStart: -1, table: table}).inlineStepwise(a, b)
		if fmt.Sprint(fast.cands) != fmt.Sprint(ref.cands) {
			t.Errorf("doc %q [%d:%d]:\njump %v\nstep %v", doc, a, b, fast.cands, ref.cands)
		}
	})
}

// FuzzIndex2: index2 agrees with a byte-at-a-time search, at every
// alignment.
func FuzzIndex2(f *testing.F) {
	f.Add([]byte("line one\r\nline two\n"), byte('\n'), byte('\r'))
	f.Add([]byte("\x80\x81\xff\x00\x01abcdefgh:ijk/"), byte(':'), byte('/'))
	f.Fuzz(func(t *testing.T, b []byte, c1, c2 byte) {
		for off := 0; off <= min(len(b), 8); off++ {
			want := -1
			for i, c := range b[off:] {
				if c == c1 || c == c2 {
					want = i
					break
				}
			}
			if got := index2(b[off:], c1, c2); got != want {
				t.Fatalf("index2(%q, %q, %q) = %d, want %d", b[off:], c1, c2, got, want)
			}
		}
	})
}

// FuzzScannerLineEnd: the line ends of scanner.lineEnd, which remembers the
// next "\r", agree with lineEnd's search for both, for lines visited in
// order, as the line scanners do, and for looks back (each byte of
// steps: 0 visits the next line, another value moves back that many lines
// or to the start).
func FuzzScannerLineEnd(f *testing.F) {
	f.Add([]byte("a\r\nb\rc\n\nd\r\r\n"), []byte{0, 0, 1, 0, 0, 3})
	f.Add([]byte("no carriage return\nat all\n"), []byte{0, 0, 0})
	f.Fuzz(func(t *testing.T, doc []byte, steps []byte) {
		sc := &scanner{doc: doc}
		var starts []int
		ls := 0
		for k := 0; ls < len(doc) && k < 4*len(doc)+8; k++ {
			b := len(doc)
			if k%3 == 2 {
				b = ls + (len(doc)-ls)/2 // a bound before the document's end
			}
			le, next := sc.lineEnd(ls, b)
			wle, wnext := lineEnd(doc, ls, b)
			if le != wle || next != wnext {
				t.Fatalf("doc %q: lineEnd(%d, %d) = %d, %d, want %d, %d", doc, ls, b, le, next, wle, wnext)
			}
			if b < len(doc) {
				_, next = lineEnd(doc, ls, len(doc))
			}
			starts = append(starts, ls)
			ls = next
			if len(steps) > 0 {
				back := int(steps[0])
				steps = steps[1:]
				if back > 0 {
					ls = starts[max(0, len(starts)-back)]
				}
			}
		}
	})
}

// FuzzMarkdownBareGaps: the bare URLs that inline finds in the gaps
// between a region's structure, at the ":" and "/" its first pass noted
// (only those after a scheme character, and a "/" only before another),
// are those scanBare finds in the same gaps; and a region that inline
// leaves at once, without a special byte, holds none.
func FuzzMarkdownBareGaps(f *testing.F) {
	for _, s := range []string{
		"see http://a.com/x and mailto:a@b.c, https//host.example `code` [t](/u) <http://b>",
		"a: b/c //d x:/y \\: \\/ http:\\/\\/a.com [http://in.text](x) <a href=\"h\">http://t</a>",
		"| http://a.com | b:c |\n|---|---|\n| x/y | z://w |\n\n# h http://h.org\n\n> q http://q.org\n",
		"plain words only\n\nhttp//x.org http:/y.org http::host.example urn:isbn:1 file:/etc/x",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		sc := &scanner{doc: doc}
		m := sc.markdownBlocks(0, len(doc), nil, nil)
		defer m.release()
		for _, r := range m.regions {
			a, b := r.text.start, r.text.end
			m.lines = m.rlines[r.lines.start:r.lines.end]
			ref := &scanner{doc: doc}
			first := len(sc.cands)
			if i := m.markSpecial(a, b); i < b {
				m.structure(a, b, i)
				first = len(sc.cands)
				m.bareGaps(a, b)
				g := a
				for _, s := range m.skips {
					if s.start > g {
						ref.scanBare(g, s.start, mdBare)
					}
					g = max(g, s.end)
				}
				if g < b {
					ref.scanBare(g, b, mdBare)
				}
				m.region = span{}
			} else {
				ref.scanBare(a, b, mdBare)
			}
			if got, want := fmt.Sprint(sc.cands[first:]), fmt.Sprint(ref.cands); got != want {
				t.Fatalf("doc %q, region [%d:%d]:\ngaps    %v\nscanBare %v", doc, a, b, got, want)
			}
		}
	})
}

// TestDelimiterStart: a line that starts with a byte outside
// delimiterStart never makes the line before it a table's header row, as
// md.line assumes when it does not call table.
func TestDelimiterStart(t *testing.T) {
	for c := 0; c < 256; c++ {
		if delimiterStart[c] {
			continue
		}
		doc := []byte("a | b\n?--|--\n| x | y |\n")
		doc[6] = byte(c)
		m := newMD(&scanner{doc: doc})
		if _, ok := m.table(0, 5, 6, len(doc)); ok {
			t.Errorf("a row before a line that starts with %q is a table", byte(c))
		}
		m.release()
	}
	// The bytes of delimiterStart may start one.
	for _, next := range []string{"--|--", " --|--", "\t--|--", "|--|--|", ":--|--:"} {
		doc := []byte("a | b\n" + next + "\n")
		m := newMD(&scanner{doc: doc})
		if _, ok := m.table(0, 5, 6, len(doc)); !ok {
			t.Errorf("no table with the delimiter row %q", next)
		}
		m.release()
	}
}

// rawDestStepwise is rawDest as it was before rawDestStop, byte at a time:
// the reference rawDest is tested against.
func (m *md) rawDestStepwise(p, b int) (int, bool) {
	doc := m.doc
	depth := 0
	for p < b {
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

// FuzzRawDest: rawDest, which steps over the bytes outside rawDestStop by
// a table, ends where the byte-at-a-time reader ends, from every offset.
func FuzzRawDest(f *testing.F) {
	f.Add([]byte("http://a.com/(b)/c\\)d{{ x }}e f"))
	f.Add([]byte("((((x)))) \x7f\x00 {% a %}"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		m := newMD(&scanner{doc: doc})
		defer m.release()
		for p := 0; p < len(doc); p++ {
			b := nextLine(doc, p)
			if b > p && (doc[b-1] == '\n' || doc[b-1] == '\r') {
				b-- // rawDest reads within a line
			}
			e, ok := m.rawDest(p, b)
			we, wok := m.rawDestStepwise(p, b)
			if e != we || ok != wok {
				t.Fatalf("doc %q: rawDest(%d, %d) = %d, %v, want %d, %v", doc, p, b, e, ok, we, wok)
			}
		}
	})
}

// skipFenceStepwise is md.line on the lines of a fenced code block outside
// containers, one line at a time: the reference skipFence is tested
// against.
func (m *md) skipFenceStepwise(ls, b int) int {
	for ls < b {
		le, next := lineEnd(m.doc, ls, b)
		q, qcol := nonSpace(m.doc, cursor{p: ls}, le)
		ls = next
		if q < le && qcol < 4 && closesFence(m.doc, q, le, m.fenceChar, m.fenceLen) {
			m.fenceOpen = false
			break
		}
	}
	return ls
}

// FuzzSkipFence: skipFence, which searches for the fence character, ends
// the block where reading it line by line ends it, from every line start,
// for fences of "`" and "~" of 3 to 5 characters.
func FuzzSkipFence(f *testing.F) {
	f.Add([]byte("code\n  ```\n```` x\n   ````  \nafter\n"), uint8(0))
	f.Add([]byte("a\r\n\t```\r    ```\r\n ~~~\r\n```"), uint8(3))
	f.Fuzz(func(t *testing.T, doc []byte, kind uint8) {
		c, n := byte('`'), 3+int(kind>>1)%3
		if kind&1 == 1 {
			c = '~'
		}
		for ls := 0; ls < len(doc); ls = nextLine(doc, ls) {
			fast, ref := newMD(&scanner{doc: doc}), newMD(&scanner{doc: doc})
			fast.fenceOpen, fast.fenceChar, fast.fenceLen = true, c, n
			ref.fenceOpen, ref.fenceChar, ref.fenceLen = true, c, n
			got, want := fast.skipFence(ls, len(doc)), ref.skipFenceStepwise(ls, len(doc))
			if got != want || fast.fenceOpen != ref.fenceOpen {
				t.Fatalf("doc %q, fence %q×%d from %d: skipFence = %d (open %v), want %d (open %v)",
					doc, c, n, ls, got, fast.fenceOpen, want, ref.fenceOpen)
			}
			fast.release()
			ref.release()
		}
	})
}
