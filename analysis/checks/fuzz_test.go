package checks

import (
	"strings"
	"testing"

	"github.com/urlls/urlls/analysis/parser"
	"github.com/urlls/urlls/analysis/scan"
)

// FuzzCheckURL checks that CheckURL never panics and keeps its promises on
// any candidate, even one whose offsets a buggy tokenizer got wrong: spans
// inside the candidate and in document order, fix edits inside the URL
// (and, for a candidate as a scan makes it, inside their finding's span: a
// client applies a fix there), ordered and not overlapping, codes from the catalog, messages without a
// final period; under each grammar profile (mode / 5).
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{
		"http://user:pw@1.2.3.300:99999/a/b?c=d/e#frag",
		"HTTP://x.com/%41%zz~ a{}é",
		"http://[::1]:/a?b?c",
		"<a href=\"http://x/&#37;zz&amp;&#233;\">",
		"<URL:http://x.com/a\n   b>",
		"news:123@bücher.de",
		"ftp://h/a;type=x",
		"foo:%",
		"//[::1]",
		"",
	} {
		f.Add(s, 0, len(s), uint8(0), false)
		f.Add(s, 1, len(s)-1, uint8(1), true)
		f.Add(s, 0, len(s), uint8(2), false)
		f.Add(s, 2, len(s), uint8(3), true)
		f.Add(s, 0, len(s), uint8(5), false) // rfc3986
		f.Add(s, 0, len(s), uint8(11), true) // xbnf, wrapped
	}
	f.Fuzz(func(t *testing.T, docText string, start, end int, mode uint8, relative bool) {
		doc := []byte(docText)
		if start < 0 || start > len(doc) {
			start = 0
		}
		if end < start || end > len(doc) {
			end = len(doc)
		}
		var c scan.Candidate
		switch mode % 5 {
		case 0:
			c = decode(doc, start, end, modePlain, relative)
		case 1:
			c = decode(doc, start, end, modeWrapped, relative)
		case 2:
			c = decode(doc, start, end, modeEntities, relative)
		case 3:
			// Offsets that make no sense: out of order, out of range, short.
			c = scan.Candidate{Start: start, End: end, Text: string(doc[start:end]), Relative: relative}
			for i := 0; i < len(c.Text); i += 2 {
				c.Offsets = append(c.Offsets, start+int(c.Text[i])-64)
			}
		case 4:
			// Bounds that make no sense.
			c = scan.Candidate{Start: end, End: start - 3, Text: docText, Relative: relative}
		}
		lo := min(max(c.Start, 0), len(doc))
		hi := min(max(c.End, lo), len(doc))
		// Offsets out of order make no promise of where a fix's edits map.
		wellFormed := mode%5 < 3
		ds := Options{Grammar: parser.Profile(mode / 5 % 3)}.CheckURL(doc, c)
		if msg := briefDiffers(ds, Options{Grammar: parser.Profile(mode / 5 % 3), Brief: true}.CheckURL(doc, c), wellFormed); msg != "" {
			t.Fatalf("brief: %s", msg)
		}
		prev := lo
		for _, d := range ds {
			if d.Start < prev || d.End < d.Start || d.End > hi {
				t.Fatalf("span [%d,%d) out of order or outside [%d,%d): %+v", d.Start, d.End, lo, hi, d)
			}
			prev = d.Start
			if _, ok := Lookup(d.Code); !ok {
				t.Fatalf("unknown code %q", d.Code)
			}
			if d.Message == "" || strings.HasSuffix(d.Message, ".") {
				t.Fatalf("message %q", d.Message)
			}
			for _, fx := range d.SuggestedFixes {
				if fx.Message == "" || len(fx.Edits) == 0 {
					t.Fatalf("empty fix %+v", fx)
				}
				p := lo
				for _, e := range fx.Edits {
					if e.Start < p || e.End < e.Start || e.End > hi {
						t.Fatalf("edit %+v outside [%d,%d), unordered or overlapping: %+v", e, lo, hi, fx)
					}
					if wellFormed && (e.Start < d.Start || e.End > d.End) {
						t.Fatalf("edit %+v outside its finding [%d,%d): %+v", e, d.Start, d.End, d)
					}
					p = e.End
				}
			}
		}
	})
}
