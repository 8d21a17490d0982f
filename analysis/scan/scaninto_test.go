package scan

import (
	"reflect"
	"slices"
	"testing"
)

// TestScanInto: scanning document after document into the memory of the
// last one's candidates finds what Scan finds, in every language, and
// uses that memory when it is large enough.
func TestScanInto(t *testing.T) {
	docs := []struct{ lang, doc string }{
		{"markdown", "[a](http://x.org/a) <http://y.org/> and http://z.org/&amp;b\n\n[r]: ../rel.md\n"},
		{"html", `<a href="http://x.org/a&amp;b">x</a> <img src="pic.png"> http://bare.org/`},
		{"plaintext", "see http://x.org/a, http://y.org/b and <URL:http://z.org/\n  c>\n"},
		{"go", "// See http://x.org/a.\nconst u = \"http://y.org/\" + path\n"},
		{"markdown", "nothing here\n"},
		{"restructuredtext", "`link <http://x.org/a>`_ and http://y.org/b\n"},
	}
	var mem []Candidate
	for round := range 3 {
		for _, d := range docs {
			want := Scan([]byte(d.doc), d.lang)
			got := ScanInto(mem, []byte(d.doc), d.lang)
			if !reflect.DeepEqual(got.Candidates, want.Candidates) && (len(got.Candidates) > 0 || len(want.Candidates) > 0) {
				t.Errorf("round %d, %s %q: into used memory\n%+v\nScan\n%+v", round, d.lang, d.doc, got.Candidates, want.Candidates)
			}
			if !reflect.DeepEqual(got.Suppressions, want.Suppressions) {
				t.Errorf("round %d, %s %q: suppressions %v, Scan %v", round, d.lang, d.doc, got.Suppressions, want.Suppressions)
			}
			if n := len(got.Candidates); n > 0 && n <= cap(mem) && &got.Candidates[0] != &mem[:1][0] {
				t.Errorf("round %d, %s: %d candidates did not go into the memory given (cap %d)", round, d.lang, n, cap(mem))
			}
			mem = got.Candidates // the memory to use next, as check's workers do
			clear(mem)
			mem = mem[:0]
		}
	}
	if cap(mem) == 0 {
		t.Fatal("no candidates at all: the test tests nothing")
	}
}

// FuzzScanInto: a scan into memory that holds another document's
// candidates, not emptied, and more room besides filled with junk (every
// field set), finds what Scan finds: ScanInto writes over dst, whatever
// it holds.
func FuzzScanInto(f *testing.F) {
	for _, s := range []string{
		"[a](http://x.org/a) <http://y.org/> and http://z.org/&amp;b\n\n[r]: ../rel.md\n",
		`<a href="http://x.org/a&amp;b">x</a> <img src="pic.png"> http://bare.org/`,
		"see http://x.org/a, http://y.org/b and <URL:http://z.org/\n  c>\n",
		"// See http://x.org/a.\nconst u = \"http://y.org/\" + path\n",
		"`link <http://x.org/a>`_ and http://y.org/b\n",
		"[a](<my notes.md>) [b](see http://x.org) http://x.org/a_(b) <!-- urlls-disable-line -->\n",
		"[http://x.org/a&amp;b](http://y.org/) and [<a href=\"http://z.org/\">http://w.org/&amp;</a>](u)\n",
	} {
		for l := range fuzzLanguages {
			f.Add([]byte(s), []byte("http://a.org/x&amp;y <URL:http://b.org/\n c> [l](../d e.md)"), uint8(l), uint8(3))
		}
	}
	f.Fuzz(func(t *testing.T, doc, before []byte, l, room uint8) {
		lang := fuzzLanguages[int(l)%len(fuzzLanguages)]
		other := fuzzLanguages[(int(l)+int(room))%len(fuzzLanguages)]
		dst := Scan(before, other).Candidates
		dst = slices.Grow(dst, int(room))
		junk := dst[len(dst):cap(dst)]
		for i := range junk {
			junk[i] = Candidate{Start: i + 7, End: i + 3, Text: "junk", Offsets: []int{9, 9}, Context: Link, Relative: true, Unrendered: true, Continued: true}
		}
		want := Scan(doc, lang)
		// Scan's memory was new: anything past the candidates' length
		// is a candidate the scan dropped, which a caller that empties
		// the candidates for the next scan (check's reusable) would keep,
		// with its text, as long as the memory.
		for i, c := range want.Candidates[len(want.Candidates):cap(want.Candidates)] {
			if !reflect.DeepEqual(c, Candidate{}) {
				t.Fatalf("%s %q: past the %d candidates, %+v", lang, doc, len(want.Candidates)+i, c)
			}
		}
		got := ScanInto(dst, doc, lang)
		if len(got.Candidates) != len(want.Candidates) || len(got.Candidates) > 0 && !reflect.DeepEqual(got.Candidates, want.Candidates) {
			t.Fatalf("%s %q into the memory of %q: \n%+v\nScan\n%+v", lang, doc, before, got.Candidates, want.Candidates)
		}
		if !reflect.DeepEqual(got.Suppressions, want.Suppressions) {
			t.Fatalf("%s %q: suppressions %v, Scan %v", lang, doc, got.Suppressions, want.Suppressions)
		}
	})
}
