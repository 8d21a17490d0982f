package lsp

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestUTF16Ranges: CJK text and emoji (astral characters, two UTF-16 code
// units each) before the URLs, over the wire. Every expected character
// below is counted by hand in UTF-16 code units, where the document's
// bytes would give other numbers (漢 is 3 bytes and 1 unit, 😀 4 bytes and
// 2 units).
func TestUTF16Ranges(t *testing.T) {
	// line 0: 漢 字 😀 = 1+1+2 = 4 units, a space: the URL starts at 5.
	//   "http://" 5-12, "x" 12-13, "." 13, "org" 14-17, "/" 17, "a" 18,
	//   "%zz" 19-22 (the URL ends at 22); " 😀 " 22-26;
	//   "https://" 26-34, 例 34, え 35, ".jp/" 36-40.
	// line 1: "[" 0, 😀😀 1-5, "](" 5-7, "http://" 7-14, "x.org" 14-19,
	//   "/" 19, "%41" 20-23, ")" 23, " " 24, 👍 25-27, 🏽 27-29, " " 29,
	//   "<" 30, "http://" 31-38, "x.org" 38-43, ":" 43, "99999" 44-49,
	//   "/" 49, ">" 50.
	const doc = "漢字😀 http://x.org/a%zz 😀 https://例え.jp/\n" +
		"[😀😀](http://x.org/%41) 👍🏽 <http://x.org:99999/>\n"

	c := newTestClient(t, clientOptions{})
	// The fix-all fixes errors and warnings: raise the information and
	// the hint of this document so that it edits all four spans.
	c.initialize(capabilities{options: map[string]any{"severity": map[string]any{"non-ascii": "warning", "redundant-escape": "warning"}}})
	u := c.uri("utf16.md")
	c.didOpen(u, "markdown", 1, doc)

	type diag struct {
		code string
		r    protocol.Range
	}
	want := []diag{
		{"bad-escape", rng(0, 19, 0, 22)},
		{"non-ascii", rng(0, 34, 0, 36)}, // 例え, one finding for the run
		{"redundant-escape", rng(1, 20, 1, 23)},
		{"port-range", rng(1, 44, 1, 49)},
	}
	p := c.waitDiagnostics(u, 1, nil)
	var got []diag
	for _, d := range p.Diagnostics {
		got = append(got, diag{fmt.Sprint(d.Code), d.Range})
	}
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics:\n got %v\nwant %v", got, want)
	}

	hovers := []struct {
		at   protocol.Position
		rule string // "" for a null hover
		r    protocol.Range
	}{
		{pos(0, 14), "toplabel", rng(0, 14, 0, 17)},
		{pos(0, 12), "domainlabel", rng(0, 12, 0, 13)},
		{pos(1, 21), "escape", rng(1, 20, 1, 23)},
		{pos(1, 44), "port", rng(1, 44, 1, 49)},
		{pos(1, 48), "port", rng(1, 44, 1, 49)},
		{pos(0, 3), "", protocol.Range{}},  // inside the surrogate pair of 😀
		{pos(1, 26), "", protocol.Range{}}, // inside the surrogate pair of 👍
		{pos(0, 22), "", protocol.Range{}}, // just after the first URL
		{pos(1, 50), "", protocol.Range{}}, // the ">" after the last URL
	}
	for _, h := range hovers {
		got := c.hover(u, h.at)
		switch {
		case h.rule == "" && got != nil:
			t.Errorf("hover at %s: %s, want null", fmtPos(h.at), got.Contents.Value)
		case h.rule == "":
		case got == nil:
			t.Errorf("hover at %s: null, want %s", fmtPos(h.at), h.rule)
		case !strings.HasPrefix(got.Contents.Value, "**"+h.rule+"**"):
			t.Errorf("hover at %s: %q, want the rule %s", fmtPos(h.at), got.Contents.Value, h.rule)
		case got.Range == nil || *got.Range != h.r:
			t.Errorf("hover at %s: range %v, want %s", fmtPos(h.at), got.Range, fmtRange(h.r))
		}
	}

	wantLinks := []string{
		"0:5-0:22 http://x.org/a%zz",
		"0:26-0:40 https://例え.jp/",
		"1:7-1:23 http://x.org/%41",
		"1:31-1:50 http://x.org:99999/",
	}
	var gotLinks []string
	for _, l := range c.links(u) {
		gotLinks = append(gotLinks, fmtRange(l.Range)+" "+string(l.Target))
	}
	if !slices.Equal(gotLinks, wantLinks) {
		t.Errorf("links:\n got %q\nwant %q", gotLinks, wantLinks)
	}

	// Semantic tokens, decoded from their relative form.
	wantTokens := []string{
		"0:5+4 scheme", "0:12+5 host", "0:18+4 path",
		"0:26+5 scheme", "0:34+5 host", // 例え.jp
		"1:7+4 scheme", "1:14+5 host", "1:20+3 escape",
		"1:31+4 scheme", "1:38+5 host", "1:44+5 port",
	}
	legend := []string{"scheme", "host", "port", "path", "query", "fragment", "escape"}
	var gotTokens []string
	var line, char uint32
	data := c.tokens(u).Data
	for i := 0; i+4 < len(data); i += 5 {
		if data[i] > 0 {
			line, char = line+data[i], data[i+1]
		} else {
			char += data[i+1]
		}
		gotTokens = append(gotTokens, fmt.Sprintf("%d:%d+%d %s", line, char, data[i+2], legend[data[i+3]]))
	}
	if !slices.Equal(gotTokens, wantTokens) {
		t.Errorf("tokens:\n got %q\nwant %q", gotTokens, wantTokens)
	}

	// The fix-all edits, applied by the client, land on the right bytes.
	var all *protocol.CodeAction
	for _, a := range c.codeActions(u, rng(0, 0, 0, 0), fixAllKind) {
		if a.Kind == fixAllKind {
			all = &a
		}
	}
	if all == nil {
		t.Fatal("no source.fixAll.urlls action")
	}
	fixed, err := applyEdits(doc, all.Edit.Changes[u])
	if err != nil {
		t.Fatal(err)
	}
	// The IRI host is fixed to its IDNA form: the edit replaces 例え exactly.
	wantFixed := "漢字😀 http://x.org/a%25zz 😀 https://xn--r8jz45g.jp/\n" +
		"[😀😀](http://x.org/A) 👍🏽 <http://x.org:99999/>\n"
	if fixed != wantFixed {
		t.Errorf("fixed:\n got %q\nwant %q", fixed, wantFixed)
	}
}

// TestLineBreaksAndSurrogates: CRLF, a lone CR and no final line break,
// with emoji at the start of each line, and incremental edits whose
// ranges are in UTF-16 around astral characters.
func TestLineBreaksAndSurrogates(t *testing.T) {
	// line 0: "😀 a" then CRLF; line 1: 😀 0-2, " " 2, "http://" 3-10,
	// "x.org" 10-15, "/" 15, "%zz" 16-19, then a lone CR; line 2: 😀 0-2,
	// " " 2, "http://" 3-10, "x.org" 10-15, ":" 15, "70000" 16-21, "/" 21,
	// and no line break at the end.
	const doc = "😀 a\r\n😀 http://x.org/%zz\r😀 http://x.org:70000/"
	c := newTestClient(t, clientOptions{})
	c.initialize(capabilities{})
	u := c.uri("breaks.txt")
	c.didOpen(u, "plaintext", 1, doc)
	check := func(version int32, want ...string) {
		t.Helper()
		p := c.waitDiagnostics(u, version, nil)
		var got []string
		for _, d := range p.Diagnostics {
			got = append(got, fmt.Sprintf("%v %s", d.Code, fmtRange(d.Range)))
		}
		if !slices.Equal(got, want) {
			t.Errorf("version %d:\n got %q\nwant %q", version, got, want)
		}
	}
	check(1, "bad-escape 1:16-1:19", "port-range 2:16-2:21")

	// Replace the emoji of line 1 (units 0-2) by "é" (1 unit): the escape
	// moves one unit left.
	text := "😀 a\r\né http://x.org/%zz\r😀 http://x.org:70000/"
	c.didChange(u, 2, &text, change{Range: &protocol.Range{Start: pos(1, 0), End: pos(1, 2)}, Text: "é"})
	check(2, "bad-escape 1:15-1:18", "port-range 2:16-2:21")

	// Insert an emoji before the port, in the last line (no line break):
	// 🙂 is 2:15-2:17 and pushes ":" to 17 and the port to 18-23.
	text = "😀 a\r\né http://x.org/%zz\r😀 http://x.org🙂:70000/"
	c.didChange(u, 3, &text, change{Range: &protocol.Range{Start: pos(2, 15), End: pos(2, 15)}, Text: "🙂"})
	check(3, "bad-escape 1:15-1:18", "non-ascii 2:12-2:17", "port-range 2:18-2:23")

	// Delete the CRLF at the end of line 0 (😀 a is 4 units): lines 0 and
	// 1 join, "é " follows at 4-6 and the escape is at 19-22.
	text = "😀 aé http://x.org/%zz\r😀 http://x.org🙂:70000/"
	c.didChange(u, 4, &text, change{Range: &protocol.Range{Start: pos(0, 4), End: pos(1, 0)}, Text: ""})
	check(4, "bad-escape 0:19-0:22", "non-ascii 1:12-1:17", "port-range 1:18-1:23")
}
