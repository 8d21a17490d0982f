package lsp

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/urlls/urlls/analysis/checks"
	"github.com/urlls/urlls/analysis/config"
	"github.com/urlls/urlls/analysis/scan"
)

// incrementalLanguages are the languages the differential tests edit: every
// tokenizer, and plain text that reads as AsciiDoc.
var incrementalLanguages = []struct{ name, uri, lang string }{
	{"plaintext", "file:///d/doc.txt", "plaintext"},
	{"markdown", "file:///d/doc.md", "markdown"},
	{"html", "file:///d/doc.html", "html"},
	{"go", "file:///d/doc.go", "go"},
	{"python", "file:///d/doc.py", "python"},
	{"rst", "file:///d/doc.rst", "restructuredtext"},
	{"asciidoc", "file:///d/doc.adoc", "asciidoc"},
	{"unknown language", "file:///d/doc.xyz", "xyz"},
}

// incrementalPieces are what the random documents and edits are made of:
// URLs good and bad, every wrapper, blank lines in every line ending,
// and the block constructs and suppression comments that make a far line
// mean something else.
var incrementalPieces = []string{
	"http://a.org/x ", "https://b.org/%zz ", "ftp://c.org/~u;type=b ", "http://x.org:99999/ ", "mailto:a@b.org ",
	"<URL:http://w.org/a\n  b/c>", "<URL:", "<http://a.org/", ">", "<", "\n", "\n\n", "\r\n", "\r\n\r\n", "\r", " \n \n", "  ",
	"word ", "x", "%", "\"", "'", "(", ")", "[", "]", "`", "```\n", "~~~\n", "    ", "\t",
	"<!--", "-->", "<!-- urlls-disable -->", "<!-- urlls-enable -->", "# urlls-disable-next-line\n", "// urlls-disable-line ",
	"/*", "*/", "//", "#", "<pre>", "</pre>", "<a href=\"http://h.org/%zz\">", "</a>",
	"[t](http://l.org/a b)", "[r]: http://ref.org/%41\n", ".. _t: http://rst.org/%zz\n", "::\n\n", "----\n", "....\n",
	"link:http://adoc.org/%zz[x] ", ":attr: http://attr.org/\n", "[source]\n", "= Title\n",
	"\"http://s.org/%zz\" ", "{{ .X }}", "é", "😀",
	// Markdown's block structure: lists, block quotes, HTML blocks,
	// tables, headings, reference links and their definitions.
	"- ", "1. ", "2) ", "> ", "> > ", "  - ", "\n- ", "\n> ", "<div>\n", "</div>\n", "<script>\n", "</script>\n",
	"<!-- x\n", "| a | http://t.org/%zz |\n|---|---|\n", "| c | d |\n", "Title\n===\n", "---\n", "## h http://h.org/%zz\n",
	"[r]", "[x][r]", "[R][]", "[q]: http://q.org/%zz\n", "[R]: <http://r2.org/a b>\n", "[r]:\n  http://r3.org/%zz\n  \"t\"\n",
	"<base href=\"http://base.org/d/\">\n", "[l](rel/%zz \"t\")", "<http://auto.org/%zz>", "`http://code.org/%zz`", "\\",
	"<!-- urlls-disable-next-line -->\n", "<!-- urlls-disable bad-escape -->", "<!-- urlls-enable bad-escape -->\n",
}

func randomPiece(r *rand.Rand) string {
	return incrementalPieces[r.IntN(len(incrementalPieces))]
}

func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(randomPiece(r))
	}
	return b.String()
}

// analyzeFrom analyses text as version v of the document, incrementally
// from base when base is not nil.
func analyzeFrom(t testing.TB, s *Server, uri, lang string, v int32, text []byte, base *analysis) *analysis {
	t.Helper()
	snap := newSnapshot(protocol.DocumentURI(uri), lang, v, uint64(v), text, nil)
	a, err := s.analyze(context.Background(), snap, base)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// published is what the client gets of an analysis: the diagnostics as
// published, the document links and the candidates behind hovers and
// tokens.
func published(t testing.TB, s *Server, a *analysis) string {
	t.Helper()
	diags := s.diagnostics(a, settings{codeDescription: true})
	var b strings.Builder
	for _, d := range diags {
		fmt.Fprintf(&b, "%s %v %s %q %v\n", fmtRange(d.Range), d.Severity, d.Code, d.Message, d.Data)
	}
	for _, c := range a.candidates {
		fmt.Fprintf(&b, "url %d-%d %q %v %v %v %v\n", c.Start, c.End, c.Text, c.Offsets, c.Context, c.Relative, c.Unrendered)
	}
	// All the findings (the fix-all's), past maxFindings too.
	for _, f := range a.findings {
		fmt.Fprintf(&b, "finding %d-%d %s %v %q %v\n", f.Start, f.End, f.Code, f.Severity, f.URL, f.Fixes())
	}
	// The fix-all, which takes the findings' fixes as config.FixAll
	// moves them (config.Finding.FixShift).
	edits, n := config.FixAll(a.findings)
	fmt.Fprintf(&b, "fix-all %d %v\n", n, edits)
	fmt.Fprintf(&b, "findings %d\nbase %d %q\n", len(a.findings), a.baseIdx, *a.docBase)
	return b.String()
}

// checkIncremental applies edits one by one, analysing each version both
// incrementally, from the previous incremental analysis, and from scratch,
// and fails when what the client would get differs.
func checkIncremental(t testing.TB, s *Server, uri, lang string, text string, edits func(i int, text string) (string, bool)) {
	t.Helper()
	base := analyzeFrom(t, s, uri, lang, 1, []byte(text), nil)
	for i := 0; ; i++ {
		next, ok := edits(i, text)
		if !ok {
			return
		}
		v := int32(i + 2)
		inc := analyzeFrom(t, s, uri, lang, v, []byte(next), base)
		full := analyzeFrom(t, s, uri, lang, v, []byte(next), nil)
		if d := cmp.Diff(published(t, s, full), published(t, s, inc)); d != "" {
			t.Fatalf("edit %d of %q\nto %q:\nincremental differs from a full analysis (-full +incremental):\n%s", i, text, next, d)
		}
		checkHoverNear(t, s, uri, lang, v, text, next, base, full)
		text, base = next, inc
	}
}

// randomEdit replaces a random span of text (up to 12 bytes) by up to three
// pieces; a few edits change far more.
func randomEdit(r *rand.Rand, text string) string {
	start := r.IntN(len(text) + 1)
	end := min(len(text), start+r.IntN(13))
	if r.IntN(20) == 0 {
		end = min(len(text), start+r.IntN(400))
	}
	return text[:start] + randomText(r, r.IntN(4)) + text[end:]
}

// TestIncrementalMatchesFull: for every language, random edit sequences on
// random documents give, after every edit, the same diagnostics,
// candidates and findings incrementally as from scratch.
func TestIncrementalMatchesFull(t *testing.T) {
	s := newServer(nopClient{}, Options{Logger: zap.NewNop(), Debounce: time.Hour})
	docs, steps := 40, 40
	if testing.Short() {
		docs, steps = 8, 20
	}
	for _, l := range incrementalLanguages {
		t.Run(l.name, func(t *testing.T) {
			nearWindows, nearUnbuilt = 0, 0
			for seed := range uint64(docs) {
				r := rand.New(rand.NewPCG(seed, 12))
				text := randomText(r, 20+r.IntN(120))
				checkIncremental(t, s, l.uri, l.lang, text, func(i int, text string) (string, bool) {
					return randomEdit(r, text), i < steps
				})
			}
			if l.lang == "markdown" && nearUnbuilt < nearWindows/4 {
				t.Fatalf("of %d hovers' windows, %d were re-scanned without the text: rescanWindow is not tested", nearWindows, nearUnbuilt)
			}
		})
	}
}

// TestIncrementalCases are the edits that make a far line mean something
// else, one by one.
func TestIncrementalCases(t *testing.T) {
	s := newServer(nopClient{}, Options{Logger: zap.NewNop(), Debounce: time.Hour})
	para := "see http://a.org/%zz and http://b.org/~x\n\n"
	line := strings.Repeat("http://x.org/a%zz https://x.org/b%41 (http://p.org/q) tp://y.org/ ", 20) + "\n"
	cases := []struct {
		name, before, after string
	}{
		{"wrapper opened across a blank line", para + "<URL:http://w.org/\n" + para, para + "<URL:http://w.org/\nx>" + para},
		{"wrapper closed", para + "<URL:http://w.org/a\n  b" + para, para + "<URL:http://w.org/a\n  b>" + para},
		{"blank line removed", para + "<URL:http://w.org/a\n\nb>\n" + para, para + "<URL:http://w.org/a\nb>\n" + para},
		{"blank line of spaces", para + "<URL:http://w.org/a\n \t\nb>\n", para + "<URL:http://w.org/a\n \tx\nb>\n"},
		{"crlf blank line", "<URL:http://w.org/a\r\n\r\nb>\r\n", "<URL:http://w.org/a\r\nx\r\nb>\r\n"},
		{"cr line breaks", "<URL:http://w.org/a\r\rb>\r", "<URL:http://w.org/a\rx\rb>\r"},
		{"suppression region opened", "# urlls-disable\n\n" + para + para, "# urlls-enable\n\n" + para + para},
		{"asciidoc by sniffing", para + "link:http://a.org/%zz[a]\n:x: y\n[source]\n----\nhttp://c.org/%zz\n----\n", "x" + para + "link:http://a.org/%zz[a]\n:x: y\n[source]\n----\nhttp://c.org/%zz\n----\n"},
		{"fence opened", para + "x\n\n" + para, para + "```\n\n" + para},
		{"html comment opened", para + "x\n\n" + para, para + "<!--\n\n" + para},
		{"definition added far from its use", "see [x][r] and [r]\n\n" + para + para, "see [x][r] and [r]\n\n" + para + para + "[r]: http://r.org/%zz\n"},
		{"definition removed", "[r]\n\n" + para + "[r]: http://r.org/%zz\n\n" + para, "[r]\n\n" + para + "[s]: http://r.org/%zz\n\n" + para},
		{"definition duplicated", "[r]\n\n" + para + "[r]: http://r.org/%zz\n\n" + para, "[r]\n\n" + para + "[r]: http://r.org/%zz\n[r]: http://r2.org/\n\n" + para},
		{"list continued across a blank line", "- a\n\n" + para, "- a\n\n  " + para},
		{"block quote lazy line", "> a\n" + para, "> a\nb\n" + para},
		{"html block opened", para + "x\n\n" + para, para + "<div>\n" + para},
		{"html comment block across blank lines", para + "<!-- a\n\n" + para + "-->\n\n" + para, para + "<!-- a\n\n" + para + "->\n\n" + para},
		{"suppression region closed far", "<!-- urlls-disable -->\n\n" + para + para + "<!-- urlls-enable -->\n\n" + para, "<!-- urlls-disable -->\n\n" + para + para + "<!-- urlls-enble -->\n\n" + para},
		{"crlf paragraphs", "a\r\n\r\nhttp://a.org/%zz\r\n\r\n[r]\r\n", "a\r\n\r\nhttp://a.org/%zz\r\n\r\n[r]\r\n\r\n[r]: http://x.org/\r\n"},
		{"cr made crlf", "a\r\rhttp://a.org/%zz\r\r", "a\r\r\nhttp://a.org/%zz\r\r"},
		{"table row added", para + "| a | b |\n|---|---|\n\n" + para, para + "| a | b |\n|---|---|\n| http://t.org/%zz |\n\n" + para},
		{"empty document", "", para},
		{"to empty", para, ""},
		// Edits inside a long line, which plain text re-scans word by
		// word (wordWindow).
		{"url split", line, strings.Replace(line, "x.org/a%zz", "x.org/ a%zz", 1)},
		{"urls joined", line, strings.Replace(line, "a%zz http", "a%zzhttp", 1)},
		{"url typed into", line, strings.Replace(line, "/b%41 ", "/b%4 ", 1)},
		{"scheme typed", line, strings.Replace(line, " tp://y.org", " http://y.org", 1)},
		{"quote before a url", line, strings.Replace(line, " tp://y.org", " \"http://y.org", 1)},
		{"wrapper opened in a long line", line, strings.Replace(line, " tp://y.org", " <URL:tp://y.org", 1)},
		{"wrapper closed in a long line", strings.Replace(line, " tp://y.org", " <URL:tp://y.org", 1), strings.Replace(line, " tp://y.org/", " <URL:tp://y.org/>", 1)},
		{"wrapper lines above", "<URL:http://w.org/a\n  b\n" + line, "<URL:http://w.org/a\n  b\n" + strings.Replace(line, "/b%41 ", "/b%4 ", 1)},
		{"wrapper across lines edited", "<URL:http://w.org/a\n  b/c>\n" + line, "<URL:http://w.org/a\n  bx/c>\n" + line},
		{"wrapper across lines opened", line + "<URL:http://w.org/a\n" + line + "  b/c>\n" + line, line + "<URL:http://w.org/a\n" + strings.Replace(line, "/b%41 ", "/b%4> ", 1) + "  b/c>\n" + line},
		{"template in a long line", line, strings.Replace(line, "/b%41 ", "/{{ .X }}/b%41 ", 1)},
		{"placeholder in a long line", line, strings.Replace(line, "/b%41 ", "/<user>/b%41 ", 1)},
		{"line broken", line, strings.Replace(line, "a%zz http", "a%zz\nhttp", 1)},
		{"non-breaking space", line, strings.Replace(line, "a%zz http", "a%zz\u00a0http", 1)},
	}
	for _, l := range incrementalLanguages {
		for _, tc := range cases {
			t.Run(l.name+"/"+tc.name, func(t *testing.T) {
				steps := []string{tc.after, tc.before, tc.after + tc.after}
				checkIncremental(t, s, l.uri, l.lang, tc.before, func(i int, _ string) (string, bool) {
					if i >= len(steps) {
						return "", false
					}
					return steps[i], true
				})
			})
		}
	}
}

// longLinePieces make long lines of words and URLs, with the constructs
// that reach across white space now and then.
var longLinePieces = []string{
	"http://a.org/x", "https://b.org/%zz", "mailto:a@b.org", "news:comp.lang", "urn:isbn:123", "x", "word", "%",
	" ", " ", " ", "  ", "\t", "\n", "\r\n", "\u00a0", "\"", "'", "(", ")", "[", "]", "_", ":", "//", ".", "é", "a:b",
	"<URL:", "<http://w.org/", ">", "<", "{{ .X }}", "{", "}", "<%= p %>", "\n\n",
}

// TestIncrementalLongLines: edits of long plain-text lines of URLs, which
// wordWindow re-scans a word at a time, give what a full analysis gives;
// and most of them take the narrow window.
func TestIncrementalLongLines(t *testing.T) {
	s := newServer(nopClient{}, Options{Logger: zap.NewNop(), Debounce: time.Hour})
	narrowed, edits := 0, 0
	for seed := range uint64(60) {
		r := rand.New(rand.NewPCG(seed, 13))
		piece := func() string {
			if r.IntN(8) == 0 {
				return longLinePieces[r.IntN(len(longLinePieces))]
			}
			return longLinePieces[r.IntN(16)] // mostly URLs, words and spaces
		}
		var b strings.Builder
		for range 100 + r.IntN(300) {
			b.WriteString(piece())
		}
		checkIncremental(t, s, "file:///d/doc.txt", "plaintext", b.String(), func(i int, text string) (string, bool) {
			start := r.IntN(len(text) + 1)
			end := min(len(text), start+r.IntN(6))
			next := text[:start] + piece() + text[end:]
			ch := diffTexts([]byte(text), []byte(next))
			p0, p1 := paragraphStart([]byte(next), ch.start), paragraphEnd([]byte(next), ch.newEnd)
			if w0, w1 := wordWindow([]byte(text), []byte(next), ch, p0, p1); w0 != p0 || w1 != p1 {
				narrowed++
			}
			edits++
			return next, i < 30
		})
	}
	if narrowed < edits/3 {
		t.Errorf("only %d of %d edits re-scanned fewer than their paragraphs", narrowed, edits)
	}
}

// FuzzIncremental edits a document and compares the incremental analysis
// of the edited text with a full one, in the language the first byte
// picks.
func FuzzIncremental(f *testing.F) {
	f.Add(byte(0), "see http://a.org/%zz\n\n<URL:http://w.org/\n\nx>\n", uint16(20), uint16(2), "y\n")
	f.Add(byte(1), "```\nhttp://a.org/%zz\n```\n\nhttp://b.org/%zz\n", uint16(0), uint16(0), "x")
	f.Add(byte(2), "<!-- x -->\n<a href=\"http://a.org/%zz\">\n", uint16(4), uint16(3), "\n\n")
	f.Add(byte(5), "a\n\n::\n\n  http://a.org/%zz\n", uint16(3), uint16(2), "b")
	f.Add(byte(1), "[r]\n\n- a\n\n  http://a.org/%zz\n\n> q\n\n[r]: http://r.org/%zz\n", uint16(12), uint16(0), "[s]: http://s.org/\n")
	f.Add(byte(1), "<!-- urlls-disable -->\n\n<!-- a\n\nhttp://a.org/%zz\n-->\n\nhttp://b.org/%zz\r\n\r\n", uint16(40), uint16(3), "")
	f.Add(byte(0), "a http://a.org/%zz b http://b.org/x_(y) c \"http://c.org/\" d\n", uint16(22), uint16(1), " ")
	f.Add(byte(0), "<URL:http://w.org/a\n b>\nx http://a.org/%zz y http://b.org/ z\n", uint16(40), uint16(0), "<")
	s := newServer(nopClient{}, Options{Logger: zap.NewNop(), Debounce: time.Hour})
	f.Fuzz(func(t *testing.T, which byte, text string, at, del uint16, insert string) {
		l := incrementalLanguages[int(which)%len(incrementalLanguages)]
		start := min(int(at), len(text))
		end := min(len(text), start+int(del))
		next := text[:start] + insert + text[end:]
		checkIncremental(t, s, l.uri, l.lang, text, func(i int, _ string) (string, bool) { return next, i == 0 })
	})
}

// poisons counts the calls of checkHoverNear, to vary its scratch;
// nearWindows and nearUnbuilt count its Markdown windows, and those
// re-scanned without building the text.
var poisons, nearWindows, nearUnbuilt int

// checkHoverNear checks that a hover right after the edit of text to next
// (hoverAnalysis), at every offset of next, answers what a hover of full,
// the analysis of next from scratch, does: with the candidates near the
// cursor that nearEdit finds from base, the analysis of text, and
// positions mapped through base's line table.
func checkHoverNear(t testing.TB, s *Server, uri, lang string, v int32, text, next string, base, full *analysis) {
	t.Helper()
	// The new text as a didChange makes it: not built.
	ch := diffTexts([]byte(text), []byte(next))
	snap := newSnapshotOf(protocol.DocumentURI(uri), lang, v, uint64(v), editedText(builtText([]byte(text)), ch.start, ch.oldEnd, next[ch.start:ch.newEnd]), nil)
	snap.change = ch
	m := full.mapper
	// Markdown's window is re-scanned from the bytes near the edit, in a
	// buffer whose other bytes are anything (rescanWindow): here pieces
	// of documents, and a few bytes around the edit at first, so that a
	// scan that read a byte it must not gets it wrong.
	poisons++
	poison := incrementalPieces[poisons%len(incrementalPieces)]
	scratch := &scratchText{span: 1 + poisons%13, margin: 2, poison: func(b []byte) {
		for i := range b {
			b[i] = poison[i%len(poison)]
		}
	}}
	n := newNearEdit(base, snap, scratch)
	if n == nil {
		return // the hover waits for the analysis
	}
	if n.window != nil {
		nearWindows++
		if n.unbuilt {
			nearUnbuilt++
		}
	}
	// Offsets outside the lines the edit changed first: in plain text
	// their hovers read the bytes near the edit only, and must not build
	// the new text (a hover in the changed lines, or over a URL that
	// reaches them, maps positions there through the new text's own line
	// table).
	var offsets []int
	changed := func(off int) bool {
		v := n.mapper.view
		if v == nil || off >= v.rs && off < v.stop {
			return true
		}
		// A hover's range maps its URL's ends.
		c, ok := candidateAt(full, off)
		return ok && c.Start <= v.stop && c.End >= v.rs
	}
	for pass := range 2 {
		for off := 0; off <= len(next); off++ {
			if changed(off) == (pass == 1) {
				offsets = append(offsets, off)
			}
		}
	}
	checkUnbuilt := func() {
		snap.text.mu.Lock()
		built := snap.text.source == nil
		snap.text.mu.Unlock()
		if (n.plain || n.unbuilt) && built {
			t.Fatalf("edit of %q\nto %q: the hovers right after the edit, away from its lines, built the new text", text, next)
		}
	}
	for i, off := range offsets {
		if i == 0 || !changed(offsets[i-1]) && changed(off) {
			checkUnbuilt()
		}
		pos := m.OffsetPosition(off)
		if off > 0 && pos == m.OffsetPosition(off-1) {
			continue // inside a character or a line break
		}
		near := n.analysis(pos)
		if got := near.mapper.PositionOffset(pos); got != off {
			t.Fatalf("edit of %q\nto %q: position %v maps to %d, want %d", text, next, pos, got, off)
		}
		gc, gok := candidateAt(near, off)
		wc, wok := candidateAt(full, off)
		if gok != wok || fmt.Sprint(gc) != fmt.Sprint(wc) {
			t.Fatalf("edit of %q\nto %q: the candidate at %d right after the edit is %v %+v, want %v %+v", text, next, off, gok, gc, wok, wc)
		}
		if documentBase(near, protocol.DocumentURI(uri)) != documentBase(full, protocol.DocumentURI(uri)) {
			t.Fatalf("edit of %q\nto %q: the base right after the edit is %q, want %q", text, next,
				documentBase(near, protocol.DocumentURI(uri)), documentBase(full, protocol.DocumentURI(uri)))
		}
		if !wok || off != wc.Start && off%7 != 0 {
			continue // the whole hover: at the start of each URL, and here and there
		}
		p := &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: protocol.DocumentURI(uri)}, Position: pos}}
		got, want := s.hover(near, p), s.hover(full, p)
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("edit of %q\nto %q: the hover at %v (offset %d) right after the edit differs (-full +near):\n%s", text, next, pos, off, d)
		}
	}
}

// TestApplyConfigAgainstApply: applyConfig, which keeps config.Decide's
// decisions on the diagnostics in place, makes of thousands of them (codes
// turned off, URLs ignored, suppressions by code and for all codes) the
// findings config.Apply makes of them.
func TestApplyConfigAgainstApply(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	codes := []string{"bad-escape", "unsafe-char", "bad-port", "upper-scheme"}
	urls := []string{"http://a.org/%zz", "http://ignored.org/x", "http://b.org/ x"}
	cfg := config.Config{Severity: map[string]config.Level{"bad-port": {Off: true}, "unsafe-char": {Severity: checks.Hint}},
		Ignore: []string{"http://ignored.org/*"}}
	var diags []checks.Diagnostic
	for i := range 3500 {
		diags = append(diags, checks.Diagnostic{Start: 10 * i, End: 10*i + 3, Code: codes[r.IntN(len(codes))], URL: urls[r.IntN(len(urls))],
			Message: "m", SuggestedFixes: []checks.SuggestedFix{{Message: "f", Edits: []checks.TextEdit{{Start: 10 * i, End: 10*i + 1, NewText: "x"}}}}})
	}
	var sups []scan.Suppression
	for range 12 {
		s := r.IntN(35000)
		sup := scan.Suppression{Start: s, End: s + r.IntN(1500)}
		if r.IntN(2) == 0 {
			sup.Codes = []string{codes[r.IntN(len(codes))]}
		}
		sups = append(sups, sup)
	}
	want := cfg.Apply(slices.Clone(sups), diags)
	all := make([]config.Finding, len(diags))
	for i, d := range diags {
		all[i] = config.Finding{Diagnostic: d}
	}
	got, kept := applyConfig(cfg, slices.Clone(sups), all, nil, textChange{}, nil)
	if len(want) == len(diags) || len(want) < len(diags)/4 {
		t.Fatalf("the configuration keeps %d findings of %d: the test does not test it", len(want), len(diags))
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("applyConfig differs from config.Apply (-Apply +applyConfig):\n%s", d)
	}
	n := 0
	for _, k := range kept {
		if k > 0 {
			n++
		}
	}
	if n != len(want) {
		t.Fatalf("kept says %d findings, Apply made %d", n, len(want))
	}
}
