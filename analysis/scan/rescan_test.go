package scan

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// shiftedCandidates returns cands moved by delta bytes.
func shiftedCandidates(cands []Candidate, delta int) []Candidate {
	out := make([]Candidate, len(cands))
	for i, c := range cands {
		c.Start += delta
		c.End += delta
		if c.Offsets != nil {
			offs := make([]int, len(c.Offsets))
			for k, o := range c.Offsets {
				offs[k] = o + delta
			}
			c.Offsets = offs
		}
		out[i] = c
	}
	return out
}

// FuzzRescan: an edit of a Markdown document rescanned in its window
// (Outline.Rescan), spliced into the old scan and applied to the Outline
// (Outline.Apply), gives the candidates, suppressions and restart points
// of a scan of the edited document from scratch.
func FuzzRescan(f *testing.F) {
	seeds := []struct {
		doc, ins string
		at, del  int
	}{
		{"# T\n\nSee http://a.org/%zz.\n\n- x http://b.org\n\n```\nhttp://c.org\n```\n\ntail http://d.org\n", "\n```\n", 20, 0},
		{"a [x][r] b\n\n[r]: http://a.org\n\nc http://b.org\n", "q", 14, 3},
		{"<!-- urlls-disable -->\n\nhttp://a.org/%zz\n\n<!-- urlls-enable -->\n\nhttp://b.org/%zz\n", "", 40, 6},
		{"> quote http://a.org\n\n\r\nnext http://b.org\r\n", "\n", 21, 1},
		{"<div>\n\nhttp://a.org\n\n</div>\n\nhttp://b.org\n", "x", 1, 0},
	}
	for _, s := range seeds {
		f.Add(s.doc, s.at, s.del, s.ins)
	}
	f.Fuzz(func(t *testing.T, doc string, at, del int, ins string) {
		if len(doc) > 4096 || len(ins) > 64 {
			return
		}
		at = min(max(at, 0), len(doc))
		del = min(max(del, 0), len(doc)-at)
		old := []byte(doc)
		next := []byte(doc[:at] + ins + doc[at+del:])
		start, oldEnd, newEnd := at, at+del, at+len(ins)
		oldScan, o := ScanOutline(old, "markdown")
		want, wantOutline := ScanOutline(next, "markdown")
		w, ok := o.Rescan(next, start, oldEnd, newEnd)
		if !ok {
			return // the labels changed: the caller scans whole
		}
		delta := newEnd - oldEnd
		var got []Candidate
		for _, c := range oldScan.Candidates {
			if c.Start < w.Start {
				got = append(got, c)
			}
		}
		got = append(got, w.Candidates...)
		var after []Candidate
		for _, c := range oldScan.Candidates {
			if c.Start >= w.OldEnd {
				after = append(after, c)
			}
		}
		got = append(got, shiftedCandidates(after, delta)...)
		if !reflect.DeepEqual(slices.Clip(got), slices.Clip(want.Candidates)) && !(len(got) == 0 && len(want.Candidates) == 0) {
			t.Fatalf("candidates after the edit %d..%d %q (window %d..%d):\nrescanned %+v\nfrom scratch %+v", start, oldEnd, ins, w.Start, w.End, got, want.Candidates)
		}
		n, sups := o.Apply(next, w)
		if !reflect.DeepEqual(sups, want.Suppressions) {
			t.Fatalf("suppressions:\nrescanned %+v\nfrom scratch %+v", sups, want.Suppressions)
		}
		if !slices.Equal(n.restarts, wantOutline.restarts) {
			t.Fatalf("restart points:\nrescanned %v\nfrom scratch %v", n.restarts, wantOutline.restarts)
		}
	})
}

// listThenProse is a document of about 1 MB whose first paragraph is a
// list of 300 links (an awesome-list) and the rest prose without URLs, and
// the span of that list.
func listThenProse(item string) (doc []byte, a, b int) {
	var s strings.Builder
	s.WriteString("# List\n\n")
	a = s.Len()
	for i := range 300 {
		fmt.Fprintf(&s, item, i, i)
	}
	b = s.Len()
	s.WriteString("\n")
	for s.Len() < 1<<20 {
		s.WriteString("Some prose about things, without links, a line at a time.\n\n")
	}
	return []byte(s.String()), a, b
}

// TestWindowCandidatesCap: a scan of a part of a document allocates room
// for the candidates of that part, not for as many as their density
// predicts over the whole document (growCands): one keystroke in the
// list of listThenProse allocated room for 25k candidates (1.7 MB).
// Doubling gives at most twice the room needed.
func TestWindowCandidatesCap(t *testing.T) {
	room := func(what string, cands []Candidate, want int) {
		t.Helper()
		if len(cands) != want {
			t.Fatalf("%s: %d candidates, want %d", what, len(cands), want)
		}
		if cap(cands) > 2*len(cands) {
			t.Errorf("%s: room for %d candidates, for %d", what, cap(cands), len(cands))
		}
	}

	doc, _, _ := listThenProse("- [item %d](https://example.com/p/%d) a thing\n")
	_, o := ScanOutline(doc, "markdown")
	at := bytes.Index(doc, []byte("item 150")) + 4
	next := slices.Concat(doc[:at], []byte("x"), doc[at:])
	w, ok := o.Rescan(next, at, at, at+1)
	if !ok {
		t.Fatal("Rescan: no window")
	}
	room("Rescan", w.Candidates, 300)

	doc, a, b := listThenProse("- item %d: https://example.com/p/%d a thing\n")
	room("ScanPlainTextRange", ScanPlainTextRange(doc, a, b), 300)
}
