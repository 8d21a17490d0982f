package scan

import (
	"maps"
	"slices"
	"sort"
)

// An edit of a Markdown document is scanned again locally, not whole:
//
// The block pass of scanMarkdown reads a document line by line, with a
// state: the open containers (block quotes, list items), an open fence,
// the lines of the open paragraph. After a blank line outside every
// container and fence none is open, and the block pass from there on
// depends on the bytes from there on only: every block before it ended at
// or before that blank line, and no block looks ahead past one (a table,
// an HTML block of types 6 and 7 end at it; an HTML block of types 1 to 5
// or a fence takes blank lines whole, so none stands inside them). The
// start of the line after such a blank line is a restart point. The inline
// regions of the block pass depend on their own bytes (and the line breaks
// around them) and on one thing more: the labels of the reference
// definitions of the whole document.
//
// So an edit is scanned again from the last restart point before it to the
// first restart point after it that was a restart point of the old text
// too (moved by the edit), with the blank line before it unchanged: from
// there on both block passes read the same bytes in the same state. What
// the old scan found outside that window stays, moved by the edit after it,
// unless the labels defined in the window changed, which can change
// reference links anywhere: then Rescan says no, and the document is
// scanned whole. Suppression regions reach far too: they are computed
// again from the directive comments, those of the window and those of the
// old scan outside it, which is cheap.

// Outline is what a scan of a Markdown document remembers for Rescan.
type Outline struct {
	restarts []int          // the restart points, in order
	defs     []labelDef     // the reference definitions, in order
	labels   map[string]int // how many definitions each label has; never changed once made
	comments []comment      // the comments that may hold a directive, in order
}

// labelDef is a reference definition: its destination's start and its
// label, normalised.
type labelDef struct {
	at    int
	label string
}

// ScanOutline is Scan, and for a Markdown document also the Outline that
// Rescan needs (nil for other languages).
func ScanOutline(doc []byte, lang string) (Result, *Outline) {
	if kind, _ := languageKind(lang); kind != kindMarkdown {
		return Scan(doc, lang), nil
	}
	sc := &scanner{doc: doc, wantComments: true}
	out := &Outline{}
	m := sc.markdownBlocks(0, len(doc), out, nil)
	m.inlines()
	out.labels = m.labels
	cands := sc.sorted()
	sups := suppressions(doc, sc.comments) // sorts them, for the Outline too
	out.comments = sc.comments
	return Result{Candidates: cands, Suppressions: sups}, out
}

// Window is the part of an edited document that Rescan scanned again:
// doc[Start:End] of the new text, which replaces old[Start:OldEnd], and
// the candidates in it. Everything before Start is as in the old scan,
// everything from End on as from OldEnd on in the old scan, moved by
// End-OldEnd bytes.
type Window struct {
	Start, End, OldEnd int
	Candidates         []Candidate

	restarts []int
	defs     []labelDef
	comments []comment
	labels   map[string]int
}

// Rescan scans doc, the text of o's document after an edit replaced its
// bytes [start, oldEnd) by doc[start:newEnd], again from the restart point
// before the edit to one after it, where both scans provably agree (see
// above). It reports false when it cannot (the labels of the reference
// definitions changed): scan the document whole then.
func (o *Outline) Rescan(doc []byte, start, oldEnd, newEnd int) (*Window, bool) {
	delta := newEnd - oldEnd
	// The last restart point before the edit (strictly: a line break
	// before it may be "\r" that the edit makes "\r\n"); 0 is one.
	i := sort.SearchInts(o.restarts, start)
	a := 0
	if i > 0 {
		a = o.restarts[i-1]
	}
	j := i // the old restart points after a, searched in order
	stop := func(ls, blank int) bool {
		if blank <= newEnd {
			return false // the blank line before it is not unchanged
		}
		old := ls - delta
		for j < len(o.restarts) && o.restarts[j] < old {
			j++
		}
		return j < len(o.restarts) && o.restarts[j] == old
	}
	sc := &scanner{doc: doc, wantComments: true, partFrom: a, partOpen: true}
	w := &Window{Start: a}
	out := &Outline{}
	m := sc.markdownBlocks(a, len(doc), out, stop)
	w.End = m.end
	w.OldEnd = m.end - delta
	w.restarts, w.defs = out.restarts, out.defs
	// The labels: the old ones less those of the old window, plus those
	// of the new window. The same set, or no.
	d0 := sort.Search(len(o.defs), func(k int) bool { return o.defs[k].at >= a })
	d1 := sort.Search(len(o.defs), func(k int) bool { return o.defs[k].at >= w.OldEnd })
	w.labels = o.labels
	if !sameDefs(o.defs[d0:d1], w.defs) {
		labels := maps.Clone(o.labels)
		if labels == nil {
			labels = map[string]int{}
		}
		for _, d := range o.defs[d0:d1] {
			if labels[d.label]--; labels[d.label] <= 0 {
				delete(labels, d.label)
			}
		}
		for _, d := range w.defs {
			if labels[d.label] == 0 && (o.labels == nil || o.labels[d.label] == 0) {
				return nil, false // a new label
			}
			labels[d.label]++
		}
		if len(labels) != len(o.labels) {
			return nil, false // a label gone
		}
		w.labels = labels
	}
	m.labels = w.labels
	m.inlines()
	w.Candidates = sc.sorted()
	slices.SortStableFunc(sc.comments, func(x, y comment) int { return x.start - y.start })
	w.comments = sc.comments
	return w, true
}

// sameDefs reports whether x and y define the same labels, in order.
func sameDefs(x, y []labelDef) bool {
	return slices.EqualFunc(x, y, func(a, b labelDef) bool { return a.label == b.label })
}

// Apply returns the Outline of doc, the edited text that w was scanned
// from, and its suppressions.
func (o *Outline) Apply(doc []byte, w *Window) (*Outline, []Suppression) {
	delta := w.End - w.OldEnd
	n := &Outline{labels: w.labels}
	n.restarts = spliceInts(o.restarts, w.restarts, w.Start, w.OldEnd, delta)
	r0 := sort.Search(len(o.defs), func(k int) bool { return o.defs[k].at >= w.Start })
	r1 := sort.Search(len(o.defs), func(k int) bool { return o.defs[k].at >= w.OldEnd })
	n.defs = make([]labelDef, 0, len(o.defs)-(r1-r0)+len(w.defs))
	n.defs = append(append(n.defs, o.defs[:r0]...), w.defs...)
	for _, d := range o.defs[r1:] {
		n.defs = append(n.defs, labelDef{d.at + delta, d.label})
	}
	c0 := sort.Search(len(o.comments), func(k int) bool { return o.comments[k].start >= w.Start })
	c1 := sort.Search(len(o.comments), func(k int) bool { return o.comments[k].start >= w.OldEnd })
	n.comments = make([]comment, 0, len(o.comments)-(c1-c0)+len(w.comments))
	n.comments = append(append(n.comments, o.comments[:c0]...), w.comments...)
	for _, c := range o.comments[c1:] {
		n.comments = append(n.comments, comment{c.start + delta, c.end + delta, c.bodyStart + delta, c.bodyEnd + delta})
	}
	return n, suppressions(doc, n.comments)
}

// spliceInts returns old, in order, with its values in (a, oldEnd) replaced
// by mid and those after moved by delta.
func spliceInts(old, mid []int, a, oldEnd, delta int) []int {
	i := sort.SearchInts(old, a+1)
	j := sort.SearchInts(old, oldEnd)
	out := make([]int, 0, i+len(mid)+len(old)-j)
	out = append(append(out, old[:i]...), mid...)
	for _, x := range old[j:] {
		out = append(out, x+delta)
	}
	return out
}
