package scan

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// unmark2 removes two layers of marks, ⟦⟧ and ⟪⟫ (so that spans may
// overlap), and returns the spans ordered by start.
func unmark2(t *testing.T, s string) (string, [][2]int) {
	t.Helper()
	var b strings.Builder
	var spans [][2]int
	open := map[rune]int{'⟦': -1, '⟪': -1}
	closer := map[rune]rune{'⟧': '⟦', '⟫': '⟪'}
	for _, r := range s {
		switch r {
		case '⟦', '⟪':
			open[r] = b.Len()
		case '⟧', '⟫':
			o := closer[r]
			if open[o] < 0 {
				t.Fatalf("unbalanced marks in %q", s)
			}
			spans = append(spans, [2]int{open[o], b.Len()})
			open[o] = -1
		default:
			b.WriteRune(r)
		}
	}
	slices.SortStableFunc(spans, func(x, y [2]int) int { return x[0] - y[0] })
	return b.String(), spans
}

func TestSuppressions(t *testing.T) {
	for _, tc := range []struct {
		name, lang, doc string
		codes           [][]string // per span, in order; nil = all codes
	}{
		{"next line in go", "go", "// urlls-disable-next-line\n⟦x := \"http://a.com/%zz\"\n⟧y := 1\n", [][]string{nil}},
		{"next line with codes and reason", "go",
			"x := 1 // urlls-disable-next-line bad-escape, unsafe-char -- legacy link\n⟦\"http://a.com/%zz\"\n⟧",
			[][]string{{"bad-escape", "unsafe-char"}}},
		{"this line", "python", "⟦u = 'http://a.com/%zz'  # urlls-disable-line bad-escape\n⟧v = 1\n", [][]string{{"bad-escape"}}},
		{"last line without newline", "python", "v = 1\n⟦u = 'x'  # urlls-disable-line⟧", [][]string{nil}},
		{"next line at the end", "go", "// urlls-disable-next-line⟦⟧", [][]string{nil}},
		{"disable and enable", "html", "a ⟦<!-- urlls-disable -->\n<a href=\"%zz\">\n⟧<!-- urlls-enable -->\n", [][]string{nil}},
		{"disable to the end", "markdown", "text\n⟦<!-- urlls-disable unsafe-char -->\nhttp://a.com/|\n⟧", [][]string{{"unsafe-char"}}},
		{"enable one of two codes", "javascript",
			"⟦⟪/* urlls-disable a b */\n⟫// urlls-enable a\n⟧",
			[][]string{{"a"}, {"b"}}},
		{"all-codes region ignores a partial enable", "go", "⟦// urlls-disable\n// urlls-enable x\n⟧", [][]string{nil}},
		{"block comment next line", "c", "/* urlls-disable-next-line\n   because */\n⟦char *u = \"http://a.com/%zz\";\n⟧", [][]string{nil}},
		{"jsdoc decoration", "typescript", "/** urlls-disable-next-line */\n⟦x\n⟧", [][]string{nil}},
		{"sql and lua comments", "sql", "-- urlls-disable-next-line\n⟦SELECT 'http://a.com/%zz';\n⟧", [][]string{nil}},
		{"lisp comment", "clojure", ";; urlls-disable-next-line\n⟦\"http://a.com/%zz\"\n⟧", [][]string{nil}},
		{"shell hash", "shellscript", "⟦curl http://a.com/%zz # urlls-disable-line\n⟧", [][]string{nil}},
		{"CRLF lines", "go", "// urlls-disable-next-line\r\n⟦x\r\n⟧y\r\n", [][]string{nil}},
		{"plain text markers", "plaintext", "# urlls-disable-next-line\n⟦http://a.com/%zz\n⟧// urlls-disable-next-line\n⟦x\n⟧  ; urlls-disable-next-line unsafe-char\n⟦y\n⟧", [][]string{nil, nil, {"unsafe-char"}}},
		{"markdown html comment", "markdown", "<!-- urlls-disable-next-line bad-escape -->\n⟦http://a.com/%zz\n⟧", [][]string{{"bad-escape"}}},
		{"markdown inline comment this line", "markdown", "⟦See http://a.com/%zz <!-- urlls-disable-line --> now.\n⟧Next.", [][]string{nil}},
		{"not the first word", "go", "// see urlls-disable-next-line in the docs\nx\n", nil},
		{"mention in a string", "go", "s := \"// urlls-disable-next-line\"\nx\n", nil},
		{"directive in a code block", "markdown", "```\n<!-- urlls-disable -->\n```\nhttp://a.com/%zz\n", nil},
		{"directive in a code span", "markdown", "`<!-- urlls-disable -->` http://a.com/%zz\n", nil},
		{"prefix of another word", "go", "// urlls-disabled\n// urlls-enabler\n", nil},
		{"plain text needs a marker", "plaintext", "urlls-disable-next-line\nx\n", nil},
		// A comment at a line's end, as in Markdown: after a blank, with
		// blanks only before the directive; a later "urlls-" on the line
		// (one in a URL comes first) is looked at too.
		{"plain text comment this line", "plaintext", "⟦See http://a.com/%zz <!-- urlls-disable-line --> now.\n⟧Next.", [][]string{nil}},
		{"plain text trailing hash", "plaintext", "⟦a https://github.com/x/urlls-foo/%zz  #  urlls-disable-line bad-escape\n⟧b\n", [][]string{{"bad-escape"}}},
		{"plain text trailing next line", "plaintext", "a http://a.com/ // urlls-disable-next-line\n⟦b http://a.com/%zz\n⟧", [][]string{nil}},
		{"plain text trailing doubled hash", "plaintext", "⟦a http://a.com/%zz ## urlls-disable-line\n⟧b\n", [][]string{nil}},
		{"plain text trailing tripled slash", "plaintext", "⟦a http://a.com/%zz /// urlls-disable-line\n⟧b\n", [][]string{nil}},
		{"plain text trailing needs a blank before", "plaintext", "b http://x.org/%zz#urlls-disable-line\nc http://x.org/a;urlls-disable-line\n", nil},
		{"plain text trailing needs a marker", "plaintext", "c http://x.org/%zz urlls-disable-line\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, spans := unmark2(t, tc.doc)
			if len(spans) != len(tc.codes) {
				t.Fatalf("%d spans marked, %d code lists", len(spans), len(tc.codes))
			}
			got := Scan([]byte(doc), tc.lang).Suppressions
			checkSuppressions(t, []byte(doc), got)
			var want []Suppression
			for i, sp := range spans {
				want = append(want, Suppression{sp[0], sp[1], tc.codes[i]})
			}
			if fmt.Sprint(got) != fmt.Sprint(want) || len(got) != len(want) {
				t.Errorf("got  %v\nwant %v", got, want)
			}
			for i := range min(len(got), len(want)) {
				if (got[i].Codes == nil) != (want[i].Codes == nil) {
					t.Errorf("span %d: Codes %#v, want %#v", i, got[i].Codes, want[i].Codes)
				}
			}
		})
	}
}

func TestSuppresses(t *testing.T) {
	s := Suppression{Start: 10, End: 20, Codes: []string{"bad-escape"}}
	for _, tc := range []struct {
		off  int
		code string
		want bool
	}{
		{10, "bad-escape", true}, {19, "bad-escape", true}, {20, "bad-escape", false}, {9, "bad-escape", false},
		{15, "unsafe-char", false},
	} {
		if got := s.Suppresses(tc.off, tc.code); got != tc.want {
			t.Errorf("Suppresses(%d, %q) = %v", tc.off, tc.code, got)
		}
	}
	if !(Suppression{Start: 0, End: 5}).Suppresses(3, "anything") {
		t.Error("nil Codes must suppress every code")
	}
}

// TestScanOnePass: one Scan finds both the URLs and the suppressions of a
// document, in every language mode.
func TestScanOnePass(t *testing.T) {
	for _, tc := range []struct{ lang, doc string }{
		{"markdown", "<!-- urlls-disable-next-line -->\n⟦See http://a.com/%zz.\n⟧"},
		{"html", "<!-- urlls-disable-next-line -->\n⟦<a href=\"http://a.com/%zz\">a</a>\n⟧"},
		{"plaintext", "# urlls-disable-next-line\n⟦http://a.com/%zz\n⟧"},
		{"restructuredtext", ".. urlls-disable-next-line\n⟦See http://a.com/%zz.\n⟧"},
		{"asciidoc", "// urlls-disable-next-line\n⟦See http://a.com/%zz.\n⟧"},
		{"go", "// urlls-disable-next-line\n⟦u := \"http://a.com/%zz\"\n⟧"},
		{"python", "# urlls-disable-next-line\n⟦u = 'http://a.com/%zz'\n⟧"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			doc, spans := unmark2(t, tc.doc)
			r := Scan([]byte(doc), tc.lang)
			if len(r.Candidates) != 1 || r.Candidates[0].Text != "http://a.com/%zz" {
				t.Errorf("candidates %v", r.Candidates)
			}
			want := []Suppression{{spans[0][0], spans[0][1], nil}}
			if fmt.Sprint(r.Suppressions) != fmt.Sprint(want) {
				t.Errorf("suppressions %v, want %v", r.Suppressions, want)
			}
		})
	}
}

// TestTextCommentsLines: plain text's comments are found from the
// directives they hold, on lines ended by "\n", "\r\n" or "\r", and a line
// that holds several is read once.
func TestTextCommentsLines(t *testing.T) {
	doc, spans := unmark2(t, "x urlls-disable\r# urlls-disable-next-line a, urlls-enable\r⟦y\r⟧z\r\n"+
		"⟦; urlls-disable-line -- urlls-enable\r\n⟧# urlls-disable urlls-disable")
	got := Scan([]byte(doc), "plaintext").Suppressions
	want := []Suppression{{spans[0][0], spans[0][1], []string{"a", "urlls-enable"}}, {spans[1][0], spans[1][1], nil},
		{len(doc) - len("# urlls-disable urlls-disable"), len(doc), []string{"urlls-disable"}}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}
