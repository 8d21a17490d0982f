package checks

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/urlls/urlls/analysis/grammar"
	"github.com/urlls/urlls/analysis/parser"
	"github.com/urlls/urlls/analysis/scan"
)

// keptCheck is what a worker of check keeps of one document checked with
// a shared Clean until the document is printed: the diagnostics, a deep
// copy of them made at once (fmt's %#v follows the fixes and edits), and
// what a check from scratch must find.
type keptCheck struct {
	what      string
	got       []Diagnostic
	then      string
	doc       []byte
	cands     []scan.Candidate
	opts      Options
	checkedAt int // how many documents had been checked when it was
}

// cleanSequence checks documents one after the other with one Clean, in
// the ways its front ends do, and keeps every document's diagnostics
// until the end, when each must still be what it was (TestCleanKeeps…,
// FuzzCleanSequence).
type cleanSequence struct {
	clean *Clean
	kept  []keptCheck
}

func (s *cleanSequence) keep(what string, o Options, doc []byte, cands []scan.Candidate, got []Diagnostic) {
	s.kept = append(s.kept, keptCheck{what: what, got: got, then: fmt.Sprintf("%#v", got), doc: doc, cands: cands, opts: o, checkedAt: len(s.kept)})
}

// whole checks doc as `urlls check` does without a findings limit
// (CheckCandidatesClean).
func (s *cleanSequence) whole(what string, o Options, doc []byte, cands []scan.Candidate) []Diagnostic {
	got := o.CheckCandidatesClean(doc, cands, s.clean)
	s.keep(what, o, doc, cands, got)
	return got
}

// firstThenBrief checks doc as config.CheckFirstClean does past its
// findings limit: the first k candidates in full with one Checker, the
// rest brief with a second one made with the same Clean while the first
// one's diagnostics are kept, a run at a time.
func (s *cleanSequence) firstThenBrief(what string, o Options, doc []byte, cands []scan.Candidate, k, run int) {
	k = min(k, len(cands))
	first := o.NewCheckerClean(len(cands), s.clean)
	s.keep(what+" (full part)", o, doc, cands[:k], first.AppendCandidates(nil, doc, cands[:k]))
	brief := o
	brief.Brief = true
	rest := brief.NewCheckerClean(len(cands)-k, s.clean)
	var diags []Diagnostic // reused from run to run, as CheckFirstClean's
	for i := k; i < len(cands); i += run {
		diags = rest.AppendCandidates(diags[:0], doc, cands[i:min(i+run, len(cands))])
		s.keep(fmt.Sprintf("%s (brief run at %d)", what, i), brief, doc, cands[i:min(i+run, len(cands))], append([]Diagnostic(nil), diags...))
	}
}

// oneByOne checks doc a candidate at a time with a Checker made with the
// Clean (Checker.CheckURL).
func (s *cleanSequence) oneByOne(what string, o Options, doc []byte, cands []scan.Candidate) {
	k := o.NewCheckerClean(len(cands), s.clean)
	var got []Diagnostic
	for _, c := range cands {
		got = append(got, k.CheckURL(doc, c)...)
	}
	s.keep(what, o, doc, cands, got)
}

// verify reports a document whose diagnostics changed after it was
// checked, or differ from a check of each of its URLs from scratch.
func (s *cleanSequence) verify(t *testing.T) {
	t.Helper()
	for _, c := range s.kept {
		if now := fmt.Sprintf("%#v", c.got); now != c.then {
			t.Fatalf("%s (document %d of %d): its diagnostics changed as later documents were checked:\nthen %s\nnow  %s", c.what, c.checkedAt, len(s.kept), c.then, now)
		}
		if want := withoutMemo(c.opts, c.doc, c.cands); !reflect.DeepEqual(c.got, want) {
			t.Fatalf("%s %+v %q: with a shared Clean\n%v\nfrom scratch\n%v", c.what, c.opts, c.doc, c.got, want)
		}
	}
}

// fixedDocument applies the first fix of each diagnostic that does not
// overlap one applied before, as check --fix does (its fix-all).
func fixedDocument(doc []byte, diags []Diagnostic) []byte {
	var out []byte
	last := 0
	for _, d := range diags {
		if len(d.SuggestedFixes) == 0 {
			continue
		}
		edits := d.SuggestedFixes[0].Edits
		if len(edits) == 0 || edits[0].Start < last {
			continue
		}
		for _, e := range edits {
			if e.Start < last || e.End < e.Start || e.End > len(doc) {
				break
			}
			out = append(out, doc[last:e.Start]...)
			out = append(out, e.NewText...)
			last = e.End
		}
	}
	return append(out, doc[last:]...)
}

// FuzzCleanSequence: a sequence of documents checked with one Clean, as a
// worker of check checks its files, each with the Checker the last one
// left (NewCheckerClean reuses its memory), in every way a front end
// does it (whole, in a full part and brief runs past a findings limit as
// config.CheckFirstClean, a candidate at a time, the fixed document
// after --fix's fixes), under grammars, brief and full, with and without
// a user's rule: every document's diagnostics, kept until the end, are
// what they were when returned and what a check from scratch finds.
func FuzzCleanSequence(f *testing.F) {
	users := map[string]*grammar.Rule{"http": digitsRule(f)}
	var opts []Options
	for _, name := range parser.ProfileNames() {
		profile, _ := parser.ProfileNamed(name)
		opts = append(opts, Options{Grammar: profile}, Options{Grammar: profile, Brief: true}, Options{Grammar: profile, Schemes: users})
	}
	forms := []string{"%s", "<%s>", "[l](%s)", "[l](<%s>)", "<URL:%s>", `<a href="%s">x</a>`, "`%s`", "\"%s\" + x", "x(\"%s\")"}
	langs := []string{"markdown", "html", "plaintext", "go"}
	f.Add("http://x.org/a%zz", "http://y.org/a|b", uint64(0x0123456789abcdef))
	f.Add("HTTP://x.org/a b~c", "../a%zz", uint64(7))
	f.Add("htps://x.org/é%", "http://x.org/{a}[b]", uint64(0xfedcba9876543210))
	f.Add("http://[::1]/a%zz|", "my notes.md", uint64(0x5555aaaa5555aaaa))
	f.Add("http://x.org/%2D%zz%", "http://12", uint64(0x00ff00ff00ff00ff))
	f.Fuzz(func(t *testing.T, u, v string, shapes uint64) {
		if len(u)+len(v) > 200 {
			return
		}
		s := &cleanSequence{clean: NewClean()}
		for i := range 8 {
			shape := uint8(shapes >> (8 * i))
			doc := shapedDocument(u, v, shape, forms, 6+int(shape%7), "\n")
			lang := langs[(i+int(shape))%len(langs)]
			o := opts[(int(shape)*5+i)%len(opts)]
			cands := scan.Scan(doc, lang).Candidates
			what := fmt.Sprintf("document %d (%s)", i, lang)
			switch shape % 4 {
			case 0, 1:
				got := s.whole(what, o, doc, cands)
				if fixed := fixedDocument(doc, got); string(fixed) != string(doc) {
					s.whole(what+" fixed", o, fixed, scan.Scan(fixed, lang).Candidates)
				}
			case 2:
				o.Brief = false
				s.firstThenBrief(what, o, doc, cands, int(shape>>2)%5, 1+int(shape>>5))
			case 3:
				s.oneByOne(what, o, doc, cands)
			}
		}
		s.verify(t)
	})
}

// TestCleanSequenceRealworld is FuzzCleanSequence's check over the real
// documents, between documents of bad escapes and unsafe characters with
// fixes, each checked in each of the ways in turn.
func TestCleanSequenceRealworld(t *testing.T) {
	s := &cleanSequence{clean: NewClean()}
	i := 0
	bad := func() {
		doc := []byte(fmt.Sprintf("[a](http://x.org/a%%zz%d) and http://y.org/b c|d%d\n<http://z.org/%%g%d%%20> HTTP://W.org/é%d\n", i, i, i, i))
		s.whole("bad", Options{}, doc, scan.Scan(doc, "markdown").Candidates)
	}
	realworldDocs(t, func(path, lang string, doc []byte) {
		cands := scan.Scan(doc, lang).Candidates
		switch i % 3 {
		case 0:
			got := s.whole(path, Options{}, doc, cands)
			if fixed := fixedDocument(doc, got); string(fixed) != string(doc) {
				s.whole(path+" fixed", Options{}, fixed, scan.Scan(fixed, lang).Candidates)
			}
		case 1:
			s.firstThenBrief(path, Options{}, doc, cands, len(cands)/3, 5)
		case 2:
			s.oneByOne(path, Options{}, doc, cands)
		}
		i++
		bad()
	})
	s.verify(t)
	fixes := 0
	for _, c := range s.kept {
		for _, d := range c.got {
			fixes += len(d.SuggestedFixes)
		}
	}
	if fixes < 100 || i < 10 {
		t.Errorf("%d fixes in %d documents: the test tests little", fixes, i)
	}
}

// TestCleanSpareKeepsLittle: the Checker a Clean keeps for the next
// document (NewCheckerClean) keeps the working memory of small URLs, not
// what a pathological document grew nor any of a document's text (its
// URLs' texts are substrings of one string per document, scan.Candidate)
// nor the findings and fixes of its last URLs: after 4 MB of small URLs,
// a URL of 512 KB of unsafe characters, or one with a run of 20,000 (a
// fix of as many edits), and then a small document whose URL the Clean
// has (nothing parsed), what the Clean keeps alive is under 512 KB
// (about 100 KB: the seen slots, the blocks). (check's workers keep a
// Clean for the whole run, and bound what else they keep for the next
// file: maxReusedBuffer, maxReusedCandidates.)
func TestCleanSpareKeepsLittle(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 4<<20; i++ {
		fmt.Fprintf(&b, "http://x.org/%d/a%%zz/%s\n", i, strings.Repeat("b", 100)) // different, none clean
	}
	b.WriteString("http://[::1/\n") // a syntax error last: the parser's error holds its input
	for _, tc := range []struct{ name, doc string }{
		{"4 MB of small URLs", b.String()},
		{"a URL of 512 KB", "http://x.org/" + strings.Repeat("|a", 256<<10) + "\n"},
		{"a run of 20,000 unsafe characters", "http://x.org/a" + strings.Repeat("|", 20000) + "b\n"},
	} {
		doc := []byte(tc.doc)
		cands := scan.Scan(doc, "plaintext").Candidates
		small := []byte("see http://y.org/a\n")
		smallCands := scan.Scan(small, "plaintext").Candidates
		clean := NewClean()
		Options{}.CheckCandidatesClean(doc, cands, clean)
		doc, cands = nil, nil
		Options{}.CheckCandidatesClean(small, smallCands, clean)
		Options{}.CheckCandidatesClean(small, smallCands, clean) // the Clean has its URL: nothing parsed
		with := liveHeap()
		runtime.KeepAlive(clean)
		clean = nil
		if kept := int64(with) - int64(liveHeap()); kept > 512<<10 {
			t.Errorf("%s: after a small document, the Clean keeps %d KB alive", tc.name, kept>>10)
		} else {
			t.Logf("%s: the Clean keeps %d KB", tc.name, kept>>10)
		}
	}
}

// TestCleanSpareKeepsNoFixes: the fix and edit blocks a Clean's Checker
// keeps for the next document hold the fixes of earlier documents'
// diagnostics, which they share, and what those fixes hold: a fix of many
// edits has an array of its own. After a few hundred documents each with
// a URL of a thousand unsafe characters (one fix of a thousand edits),
// and then a small document, what the Clean keeps alive is well under a
// megabyte, not the fixes of the last block's 255 documents.
func TestCleanSpareKeepsNoFixes(t *testing.T) {
	clean := NewClean()
	edits := 0
	check := func(doc []byte) {
		for _, d := range (Options{}).CheckCandidatesClean(doc, scan.Scan(doc, "plaintext").Candidates, clean) {
			for _, fx := range d.SuggestedFixes {
				edits += len(fx.Edits)
			}
		}
	}
	// The blocks double from 16 fixes to 256: 240 fixes fill the
	// smaller ones, the next 255 the block the Checker then keeps.
	for i := range 240 {
		check([]byte(fmt.Sprintf("http://x%d.org/a|b\n", i)))
	}
	for i := range 255 {
		check([]byte(fmt.Sprintf("http://x%d.org/%s\n", i, strings.Repeat("|a", 1000))))
	}
	if edits < 255*1000 {
		t.Fatalf("%d edits: the test tests little", edits)
	}
	check([]byte("see http://y.org/a\n"))
	with := liveHeap()
	runtime.KeepAlive(clean)
	clean = nil
	if kept := int64(with) - int64(liveHeap()); kept > 1<<20 {
		t.Errorf("after a small document, the Clean keeps %d KB alive", kept>>10)
	} else {
		t.Logf("the Clean keeps %d KB", kept>>10)
	}
}

// liveHeap returns the bytes of live heap objects, after collections
// that leave none of the garbage (nor sync.Pool's victims).
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
