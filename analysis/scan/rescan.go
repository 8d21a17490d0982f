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

// Within a window, one kind of line is scanned again in part, not whole: a
// long line of text alone in its paragraph (40k URLs on one line), which
// would otherwise be scanned whole at every keystroke. Such a line (a
// plain line) starts a paragraph at its first byte, with a letter, so that
// it is a paragraph line of the document's top level whatever the lines
// around it hold, and holds no byte that starts inline structure or a
// template (plainLineStop: no code span, link, autolink, raw HTML,
// comment, escape, entity or template action). Its candidates are bare
// URLs, each inside one run of bytes between spaces and tabs, found
// without regard to anything outside that run. An edit inside it that
// inserts no line break and no such byte leaves it a plain line, with a
// letter first: then only the runs the edit touches are scanned again.

// Outline is what a scan of a Markdown document remembers for Rescan.
type Outline struct {
	restarts []int          // the restart points, in order
	defs     []labelDef     // the reference definitions, in order
	labels   map[string]int // how many definitions each label has; never changed once made
	comments []comment      // the comments that may hold a directive, in order
	plain    []span         // the plain lines of minPlainLine bytes or more, in order
}

// minPlainLine is how long a plain line must be for Rescan to scan it again
// in part: a shorter line is scanned whole in less than it costs to tell.
const minPlainLine = 4096

// plainLineStop are the bytes a plain line holds none of: those that start
// inline structure ("`", "<", "[", "]", "!", "\\", "&") or a template ("{",
// "<"), and ">" and "|" (a placeholder's end, a table's cell).
var plainLineStop = newByteSet("`<>[]!\\&{}|")

// plainLines returns the plain lines of minPlainLine bytes or more among
// the inline regions of m, in order.
func (m *md) plainLines() []span {
	var out []span
	doc := m.doc
	for _, r := range m.regions {
		a, b := r.text.start, r.text.end
		if b-a < minPlainLine || r.lines.end-r.lines.start != 1 || !isAlpha(doc[a]) ||
			a > 0 && doc[a-1] != '\n' && doc[a-1] != '\r' || plainLineStop.index(doc[a:b]) >= 0 {
			continue
		}
		out = append(out, span{a, b})
	}
	return out
}

// rescanPlain is Rescan's scan of an edit inside a plain line (see above):
// it reports false when the edit is not inside one, or may have made it
// something else. The window it returns runs from the space or tab before
// the edit to the one after it, on the line.
func (o *Outline) rescanPlain(doc []byte, start, oldEnd, newEnd int) (*Window, bool) {
	k := sort.Search(len(o.plain), func(k int) bool { return o.plain[k].end > start })
	if k == len(o.plain) {
		return nil, false
	}
	p := o.plain[k]
	// Inside, its end unchanged and its first byte still a letter (so
	// that it is still a paragraph line of the top level, as the lines
	// around it, unchanged, read it); what it inserts may not end the line
	// or start structure. What it removed was a plain line's, so its
	// bytes are none of those either.
	if start < p.start || oldEnd >= p.end || newEnd >= len(doc) || start == p.start && !isAlpha(doc[p.start]) {
		return nil, false // (an edit after the first byte leaves it the letter it was)
	}
	ins := doc[start:newEnd]
	if plainLineStop.index(ins) >= 0 || index2(ins, '\n', '\r') >= 0 {
		return nil, false
	}
	delta := newEnd - oldEnd
	end := p.end + delta
	w0 := start
	for w0 > p.start && doc[w0-1] != ' ' && doc[w0-1] != '\t' {
		w0--
	}
	w1 := newEnd
	for w1 < end && doc[w1] != ' ' && doc[w1] != '\t' {
		w1++
	}
	sc := &scanner{doc: doc, partFrom: w0, partTo: w1}
	m := newMD(sc)
	m.labels = o.labels
	m.lines = append(m.rlines[:0], span{w0, w1})
	m.inline(w0, w1)
	m.release()
	w := &Window{Start: w0, End: w1, OldEnd: w1 - delta, Candidates: sc.sorted(), labels: o.labels,
		oldLine: p}
	if end-p.start >= minPlainLine {
		w.plain = []span{{p.start, end}}
	}
	return w, true
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
	out.plain = m.plainLines()
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
	plain    []span // the window's plain lines (Outline.plain)
	// oldLine, when not empty, is the plain line of the old text that the
	// window is inside (rescanPlain; a plain line is never empty): the
	// plain lines it replaces are that line, by plain (the line moved, or
	// none when it is now too short).
	oldLine span
}

// Rescan scans doc, the text of o's document after an edit replaced its
// bytes [start, oldEnd) by doc[start:newEnd], again from the restart point
// before the edit to one after it, where both scans provably agree (see
// above). It reports false when it cannot (the labels of the reference
// definitions changed): scan the document whole then.
func (o *Outline) Rescan(doc []byte, start, oldEnd, newEnd int) (*Window, bool) {
	if w, ok := o.rescanPlain(doc, start, oldEnd, newEnd); ok {
		return w, true
	}
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
	w.plain = m.plainLines()
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
	n.plain = splicePlain(o.plain, w, delta)
	return n, suppressions(doc, n.comments)
}

// splicePlain returns the plain lines of old, an Outline's, after the edit
// w was scanned for: those before the window, the window's, and those after
// it moved by delta. A window inside a plain line (oldLine) replaces that
// line with its moved self.
func splicePlain(old []span, w *Window, delta int) []span {
	a, b := w.Start, w.OldEnd
	if w.oldLine.end > w.oldLine.start {
		a, b = w.oldLine.start, w.oldLine.end
	}
	i := sort.Search(len(old), func(k int) bool { return old[k].end > a })
	j := sort.Search(len(old), func(k int) bool { return old[k].start >= b })
	if i == j && len(w.plain) == 0 && delta == 0 {
		return old
	}
	out := make([]span, 0, i+len(w.plain)+len(old)-j)
	out = append(append(out, old[:i]...), w.plain...)
	for _, p := range old[j:] {
		out = append(out, span{p.start + delta, p.end + delta})
	}
	return out
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
