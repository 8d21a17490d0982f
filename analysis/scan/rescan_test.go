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
		checkRescan(t, doc, at, del, ins)
	})
}

// FuzzRescanPlainLine: FuzzRescan, with a plain line of minPlainLine bytes
// or more in the document (a unit repeated, "http://x.org/a%zz " 40k times
// in the benchmarks), which an edit inside it rescans in part only.
func FuzzRescanPlainLine(f *testing.F) {
	seeds := []struct {
		before, unit, after, ins string
		at, del                  int
	}{
		{"# T\n\n", "http://x.org/a%zz ", "\nnext http://b.org\n", "q", 2000, 0},
		{"", "see http://a.org/b ", "", " ", 3001, 1},
		{"text\n", "w http://x.org/%zz ", "\n\nmore\n", "x/y", 4000, 3},
		{"", "ab ", "\n", "\n", 500, 0},
		{"", "ab:cd/ ", "\n===\n", "<", 700, 0},
		{"x\n", "ttp://q.org ", "\n", "h", 1200, 0},
		{"- item\n", "a http://x.org ", "\n", "", 10, 4090},
	}
	for _, s := range seeds {
		f.Add(s.before, s.unit, s.after, s.at, s.del, s.ins)
	}
	f.Fuzz(func(t *testing.T, before, unit, after string, at, del int, ins string) {
		if len(before) > 512 || len(after) > 512 || unit == "" || len(unit) > 64 || len(ins) > 64 {
			return
		}
		line := "a" + strings.Repeat(unit, minPlainLine/len(unit)+1)
		checkRescan(t, before+line+after, at, del, ins)
	})
}

// checkRescan checks Rescan and Apply against a scan from scratch, for the
// edit of doc that replaces doc[at:at+del] by ins.
func checkRescan(t *testing.T, doc string, at, del int, ins string) {
	t.Helper()
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
	if !slices.Equal(n.plain, wantOutline.plain) {
		t.Fatalf("plain lines:\nrescanned %v\nfrom scratch %v", n.plain, wantOutline.plain)
	}
}

// TestRescanPlainLine: an edit inside a long line of URLs is scanned again
// in the runs between spaces it touches, not whole, and one that inserts
// structure, a line break, or edits a line that does not start with a
// letter is scanned whole as before.
func TestRescanPlainLine(t *testing.T) {
	line := "a " + strings.Repeat("http://x.org/a%zz ", 1000)
	doc := "# Title\n\n" + line + "\n\nafter http://b.org\n"
	at := len("# Title\n\n") + 2 + 500*18 + 10 // inside the 501st URL
	for _, tt := range []struct {
		name   string
		doc    string
		at     int
		del    int
		ins    string
		narrow bool
	}{
		{"a letter inside a URL", doc, at, 0, "q", true},
		{"a space", doc, at, 0, " ", true},
		{"a deletion across two URLs", doc, at, 20, "", true},
		{"a backquote", doc, at, 0, "`", false},
		{"a line break", doc, at, 0, "\n", false},
		{"a line that starts with a bullet", "# Title\n\n- " + line + "\n", at, 0, "q", false},
		{"a letter first", doc, len("# Title\n\n"), 0, "x", true},
		{"the first letter gone", doc, len("# Title\n\n"), 1, "", false},
		{"a bullet first", doc, len("# Title\n\n"), 0, "- ", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkRescan(t, tt.doc, tt.at, tt.del, tt.ins)
			_, o := ScanOutline([]byte(tt.doc), "markdown")
			next := []byte(tt.doc[:tt.at] + tt.ins + tt.doc[tt.at+tt.del:])
			w, ok := o.Rescan(next, tt.at, tt.at+tt.del, tt.at+len(tt.ins))
			if !ok {
				t.Fatal("Rescan declined")
			}
			if narrow := w.End-w.Start < 64; narrow != tt.narrow {
				t.Errorf("window %d..%d (%d bytes), narrow %v, want %v", w.Start, w.End, w.End-w.Start, narrow, tt.narrow)
			}
		})
	}
}

// TestRescanLinkTagCR: a lone "\r" is a line break too: a link tag does
// not reach its URL across a blank line (where Rescan restarts).
func TestRescanLinkTagCR(t *testing.T) {
	doc := "intro\r\rsee {@link\r\rhttps://x.org/a|b\r"
	checkRescan(t, doc, len("intro\r\rsee {@lin"), 1, "")
	if c := Scan([]byte(doc), "markdown").Candidates; len(c) != 1 || c[0].Text != "https://x.org/a|b" {
		t.Errorf("candidates %+v, want https://x.org/a|b", c)
	}
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
