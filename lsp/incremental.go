package lsp

import (
	"bytes"
	"context"
	"slices"
	"sort"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/urlls/urlls/analysis/checks"
	"github.com/urlls/urlls/analysis/config"
	"github.com/urlls/urlls/analysis/parser"
	"github.com/urlls/urlls/analysis/scan"
)

// How an edit is analysed without analysing the whole document again:
//
// The analysis of a new version starts from the latest finished analysis of
// the document (any older version, under the same configuration and
// language). The two texts differ in one region, found by their common
// prefix and suffix (so a burst of changes coalesced into one analysis is
// one region too). In plain text no candidate spans a blank line
// (scan.ScanPlainTextRange), so the paragraphs around that region are
// scanned again and their candidates checked again; every candidate before
// them, and its findings, is kept as it was, and every one after them is
// kept shifted by the edit's byte delta. The configuration (severities,
// suppressions) is applied again to the diagnostics checked again only,
// unless the suppressions changed other than by moving with the text
// (suppression regions reach far): then to all (applyConfig); the cut to
// maxFindings is made again. Markdown is scanned again in a
// window from a blank line before the edit to one after it where the
// scanner provably reads on as before (scan.Outline.Rescan; inside a long
// line of text alone in its paragraph, from the space before the edit to
// the one after it), and spliced the same way. Other languages have block constructs that make a far line
// mean something else (comments, literal blocks), so they are scanned
// whole; the checks of a candidate whose text and surroundings did not
// change are still reused, which is where most of the time goes.

// textChange is the one region where two texts differ: old[start:oldEnd]
// became new[start:newEnd].
type textChange struct {
	start, oldEnd, newEnd int
}

// delta is how far the bytes after the change moved.
func (c textChange) delta() int { return c.newEnd - c.oldEnd }

// diffTexts returns the region where old and new differ, by their longest
// common prefix and then the longest common suffix of what is left.
func diffTexts(old, new []byte) textChange {
	p := commonPrefix(old, new)
	s := commonSuffix(old[p:], new[p:])
	return textChange{start: p, oldEnd: len(old) - s, newEnd: len(new) - s}
}

// commonPrefix returns the length of the longest common prefix of a and b,
// comparing blocks with bytes.Equal (which is vectorised) first.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	const block = 256
	i := 0
	for i+block <= n && bytes.Equal(a[i:i+block], b[i:i+block]) {
		i += block
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix returns the length of the longest common suffix of a and b.
func commonSuffix(a, b []byte) int {
	n := min(len(a), len(b))
	const block = 256
	i := 0
	for i+block <= n && bytes.Equal(a[len(a)-i-block:len(a)-i], b[len(b)-i-block:len(b)-i]) {
		i += block
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}

// paragraphStart returns the last paragraph boundary at or before off: the
// start of a line that follows a blank line ("\n", then only spaces, tabs
// and carriage returns, then "\n": what ends a wrapper, see
// scan.ScanPlainTextRange), whose bytes all lie before off, or 0.
func paragraphStart(text []byte, off int) int {
	// The boundary's second "\n" is at r < off, so r+1 <= off.
	for r := off - 1; r > 0; {
		r = bytes.LastIndexByte(text[:r+1], '\n')
		if r <= 0 {
			return 0
		}
		q := r - 1
		for q >= 0 && (text[q] == ' ' || text[q] == '\t' || text[q] == '\r') {
			q--
		}
		if q >= 0 && text[q] == '\n' {
			return r + 1
		}
		r--
	}
	return 0
}

// paragraphEnd returns the first paragraph boundary whose blank line starts
// at or after off (its first "\n" at q >= off), or len(text).
func paragraphEnd(text []byte, off int) int {
	for q := off; q < len(text); {
		k := bytes.IndexByte(text[q:], '\n')
		if k < 0 {
			return len(text)
		}
		q += k
		r := q + 1
		for r < len(text) && (text[r] == ' ' || text[r] == '\t' || text[r] == '\r') {
			r++
		}
		if r < len(text) && text[r] == '\n' {
			return r + 1
		}
		q++
	}
	return len(text)
}

// checked is the part of an analysis that an edit changes: the candidates
// and the checks' diagnostics, before the configuration. The diagnostics of
// candidates[i] are diags[diagStart[i]:diagStart[i+1]]. The candidates are
// set first (the features but code actions need no more, see
// snapshot.scanned), the diagnostics after.
//
// The diagnostics are held as findings, with the severity the
// configuration gives those it keeps (analysis.kept): when it keeps them
// all, as it mostly does, they are the analysis's findings too, not a copy
// of them (40k findings copied at each edit were most of its garbage).
type checked struct {
	candidates []scan.Candidate
	diags      []config.Finding
	diagStart  []int // len(candidates)+1 entries; nil when diags had to be sorted
}

// checkCandidates checks cands, candidates of text, as
// checks.Options.CheckCandidatesContext does, taking the diagnostics of
// candidate i from base's candidate reuse(i) when reuse has one. It
// returns the diagnostics, where each candidate's start
// (checked.diagStart), and for each diagnostic the index in base.diags of
// the one it was moved from, or -1 (nil when none was).
//
// sizeHint is how many diagnostics to make room for at first: an edit
// keeps about as many as the analysis before had (40k of them, grown by
// doubling, would make as much garbage again).
func checkCandidates(ctx context.Context, opts checks.Options, text []byte, cands []scan.Candidate, base *analysis, reuse reuseFunc, sizeHint int) ([]config.Finding, []int, []int32, error) {
	diags := make([]config.Finding, 0, sizeHint)
	diagStart := make([]int, 1, len(cands)+1)
	var from []int32
	if base != nil {
		from = make([]int32, 0, sizeHint)
	}
	checker := opts.NewChecker() // a URL met again is checked once
	// The diagnostics of consecutive candidates moved alike are
	// base.diags[run0:run1], moved by runShift: copied and moved at once
	// (40k URLs after an edit are one run, not 40k).
	run0, run1, runShift := 0, 0, 0
	flush := func() {
		if run0 == run1 {
			return
		}
		n := len(diags)
		diags = append(diags, base.diags[run0:run1]...)
		shiftDiagnostics(diags[n:], runShift)
		for k := run0; k < run1; k++ {
			from = append(from, int32(k))
		}
		run0, run1 = 0, 0
	}
	for i, c := range cands {
		if i%64 == 0 && ctx.Err() != nil {
			return nil, nil, nil, ctx.Err()
		}
		if bi, shift, ok := reuse(i); ok {
			if run0 == run1 || base.diagStart[bi] != run1 || shift != runShift {
				flush()
				run0, run1, runShift = base.diagStart[bi], base.diagStart[bi], shift
			}
			run1 = base.diagStart[bi+1]
			diagStart = append(diagStart, len(diags)+run1-run0)
			continue
		}
		flush()
		ds := checker.CheckURL(text, c)
		if cap(diags)-len(diags) < len(ds) {
			// As the CLI's check: room for what the diagnostics so far
			// predict, not doubling (a line of 40k IP literals has
			// 80k, 7.7 MB).
			diags = checks.GrowDiagnostics(diags, 0, len(ds), i, len(cands))
		}
		for _, d := range ds {
			diags = append(diags, config.Finding{Diagnostic: d})
			from = append(from, -1)
		}
		diagStart = append(diagStart, len(diags))
	}
	flush()
	// As CheckCandidatesContext: only a tokenizer that broke its promise
	// of ordered, disjoint candidates needs this.
	if !sort.SliceIsSorted(diags, func(i, j int) bool { return diags[i].Start < diags[j].Start }) {
		sort.SliceStable(diags, func(i, j int) bool { return diags[i].Start < diags[j].Start })
		diagStart, from = nil, nil
	}
	return diags, diagStart, from, nil
}

// docScan is the scan of one version of a document, and what it keeps of
// the analysis before it.
type docScan struct {
	candidates []scan.Candidate
	sups       []scan.Suppression
	outline    *scan.Outline // Markdown (analysis.outline)
	// baseIdx is the index in candidates of the first <base href> with a
	// scheme, or -1 (analysis.baseIdx).
	baseIdx int
	reuse   reuseFunc // which diagnostics of the analysis before it keep
}

// scanEdit scans text, which ch made from base's text, again where the
// edit may have changed what the scanner reads only (rescanPlainText,
// scan.Outline.Rescan), and keeps the rest of base's scan. plain is
// whether text reads as plain text (scan.PlainText). ok is false when the
// edit cannot be scanned locally (no base, another reading, a Markdown
// edit Rescan declines): then text is scanned whole (scanWhole).
func scanEdit(base *analysis, text []byte, ch textChange, plain bool) (docScan, bool) {
	switch {
	case base == nil:
	case base.plain && plain:
		sc := rescanPlainText(base, text, ch)
		sc.sups = scan.PlainTextSuppressions(text)
		return sc, true
	case base.outline != nil && !plain:
		if w, ok := base.outline.Rescan(text, ch.start, ch.oldEnd, ch.newEnd); ok {
			sc := spliceWindow(base, ch, w.Start, w.OldEnd, w.Candidates)
			sc.outline, sc.sups = base.outline.Apply(text, w)
			return sc, true
		}
	}
	return docScan{}, false
}

// scanWhole scans text of language lang whole. When base is not nil (the
// analysis of the text that ch made text from), the candidates that the
// edit left alone keep its diagnostics (reuseUnchanged).
func scanWhole(base *analysis, text []byte, lang string, ch textChange) docScan {
	scanned, outline := scan.ScanOutline(text, lang)
	sc := docScan{candidates: scanned.Candidates, sups: scanned.Suppressions, outline: outline,
		baseIdx: indexBase(scanned.Candidates), reuse: noReuse}
	if base != nil {
		sc.reuse = reuseUnchanged(base, ch, sc.candidates)
	}
	return sc
}

// stillPlainText reports whether text, which ch made from base's text,
// reads as plain text (scan.PlainText) as base's did; false when base's
// did not. Only the first scan.SniffLimit bytes decide whether plain text
// reads as AsciiDoc, so an edit past them keeps the reading, and only
// those bytes are read: text need not be built (a hover right after an
// edit, newNearEdit).
func stillPlainText(base *analysis, text *docText, ch textChange) bool {
	return base.plain && (ch.start >= scan.SniffLimit || scan.PlainText(text.slice(0, min(text.n, scan.SniffLimit)), base.lang))
}

// reuseFunc says, for candidate i, which candidate bi of an older analysis
// it keeps the diagnostics of (not to be changed: they are the older
// analysis's) and how far they move; ok is false when it must be checked
// again.
type reuseFunc func(i int) (bi int, shift int, ok bool)

func noReuse(int) (int, int, bool) { return 0, 0, false }

// rescanPlainText returns the candidates of text, a plain-text document
// (scan.PlainText), from those of base, the analysis of an older text
// under the same options that ch made text of, re-scanning only the paragraphs the change
// touches, which diagnostics of base they keep (for checkCandidates) and
// where their first <base href> is (spliceWindow); not the suppressions.
func rescanPlainText(base *analysis, text []byte, ch textChange) docScan {
	// The boundaries lie in the unchanged text: before the change in both
	// texts, and after it (moved by delta).
	p0 := paragraphStart(text, ch.start)
	p1 := paragraphEnd(text, ch.newEnd)
	p0, p1 = wordWindow(base.text, text, ch, p0, p1)
	p1old := p1 - ch.delta()
	window := scan.ScanPlainTextRange(text, p0, p1)
	return spliceWindow(base, ch, p0, p1old, window)
}

// wordWindow narrows [p0, p1), the paragraphs of text (plain text) that ch
// touched, to the words it touched, when it can: 40k URLs on one line are
// not all scanned again for one keystroke. It returns [w0, w1): w0 after
// the last white space byte (space, tab, line break) before the change,
// w1 at the first one at or after it, when no "<" and no "{" stands in
// the lines from scan.MaxWrapperLines lines before w0's up to w1, nor in what
// the change removed. Then the scanner's candidates in [w0, w1) are exactly
// ScanPlainTextRange(text, w0, w1) and those around it are the old text's:
//
//   - Without "<" or "{", no wrapper (RFC 1738's appendix "<URL:…>" or
//     "<scheme:…>") and no template action starts there; a wrapper that
//     starts further up holds at most MaxWrapperLines line breaks and
//     reads no further than its last one (scan.wrapper), so it ends, or
//     fails, before w0's line, in both texts alike.
//   - Outside wrappers a URL is bare, and a bare URL ends at white space
//     (stepping over white space only inside a template action, on its
//     line): no URL spans w0 or w1, and a scheme is read back from its
//     ":" no further than the white space before it, so the scan from w0
//     finds what the scan of the whole text finds from there, and the scan
//     after w1 finds what it found after the old text's w1.
//
// Otherwise it returns p0 and p1.
func wordWindow(old, text []byte, ch textChange, p0, p1 int) (int, int) {
	isBreak := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	w0 := ch.start
	for w0 > p0 && !isBreak(text[w0-1]) {
		w0--
	}
	w1 := ch.newEnd
	for w1 < p1 && !isBreak(text[w1]) {
		w1++
	}
	if w0 == p0 && w1 == p1 {
		return p0, p1
	}
	// From the start of the line scan.MaxWrapperLines+1 lines up from w0's
	// (a "\r\n" is one line break), or p0.
	from, breaks := w0, 0
	for from > p0 {
		c := text[from-1]
		if c == '\n' || c == '\r' && (from >= len(text) || text[from] != '\n') {
			if breaks++; breaks > scan.MaxWrapperLines+1 {
				break
			}
		}
		from--
	}
	if bytes.IndexAny(text[from:w1], "<{") >= 0 || bytes.IndexAny(old[ch.start:ch.oldEnd], "<{") >= 0 {
		return p0, p1
	}
	return w0, w1
}

// spliceWindow returns the candidates of text, that ch made from base's
// text, when window are its candidates in text[p0:p1], which replaces the
// old text's [p0, p1old), and no candidate depends on bytes across p0 or
// p1 (nor on the byte before p1): base's candidates before p0 and from
// p1old on (moved), with window between. It also returns which diagnostics
// of base they keep (for checkCandidates), and the index of the first
// <base href> of the candidates (analysis.baseIdx); not the suppressions
// nor the outline.
func spliceWindow(base *analysis, ch textChange, p0, p1old int, window []scan.Candidate) docScan {
	old := base.candidates
	c0, c1 := replacedCandidates(old, p0, p1old)
	cands := make([]scan.Candidate, 0, c0+len(window)+len(old)-c1)
	cands = append(cands, old[:c0]...)
	cands = append(cands, window...)
	cands = append(cands, old[c1:]...)
	after := c0 + len(window) // the first candidate after the window
	shiftInPlace(cands[after:], ch.delta())
	// In the window, the candidates the edit did not touch (all but one
	// of 40k URLs on one line) keep their diagnostics too.
	inWindow := reuseUnchanged(base, ch, cands)
	baseIdx, _ := spliceBase(base, c0, c1, window)
	return docScan{candidates: cands, baseIdx: baseIdx, reuse: func(i int) (int, int, bool) {
		switch {
		case i < c0:
			return i, 0, true
		case i >= after:
			return i - after + c1, ch.delta(), true
		}
		return inWindow(i)
	}}
}

// replacedCandidates returns which of old, the candidates of a text, a
// window over [p0, p1old) of it replaces: old[c0:c1], those that start in
// it.
func replacedCandidates(old []scan.Candidate, p0, p1old int) (c0, c1 int) {
	c0 = sort.Search(len(old), func(i int) bool { return old[i].Start >= p0 })
	c1 = sort.Search(len(old), func(i int) bool { return old[i].Start >= p1old })
	return c0, c1
}

// indexBase returns the index of the first <base href> of cands with a
// scheme, or -1.
func indexBase(cands []scan.Candidate) int {
	for i, c := range cands {
		if c.Context == scan.Base && parser.Scheme(c.Text) != "" {
			return i
		}
	}
	return -1
}

// reuseUnchanged says which diagnostics of base, the analysis of an older
// text under the same options, cands, the candidates of the text that
// change made from base's, keep (for
// checkCandidates, which asks in order): those of the candidates that base
// has checked with the same text around them, since a candidate's findings
// depend on its fields and on the document bytes from just before its
// start to its end (checks.CheckURL reads no others).
func reuseUnchanged(base *analysis, ch textChange, cands []scan.Candidate) reuseFunc {
	bi := 0 // the next candidate of base to look at
	return func(i int) (int, int, bool) {
		c := cands[i]
		// The same candidate in base: before the change, or after it
		// (moved by delta), with every byte it depends on unchanged.
		oldStart, shift := c.Start, 0
		switch {
		case c.End <= ch.start:
		case c.Start-1 >= ch.newEnd:
			oldStart, shift = c.Start-ch.delta(), ch.delta()
		default:
			return 0, 0, false
		}
		for bi < len(base.candidates) && base.candidates[bi].Start < oldStart {
			bi++
		}
		if bi == len(base.candidates) || !sameCandidate(base.candidates[bi], c, shift) {
			return 0, 0, false
		}
		return bi, shift, true
	}
}

// sameCandidate reports whether b is a moved by shift bytes.
func sameCandidate(a, b scan.Candidate, shift int) bool {
	if a.Start+shift != b.Start || a.End+shift != b.End || a.Text != b.Text || a.Context != b.Context ||
		a.Relative != b.Relative || a.Unrendered != b.Unrendered || a.Continued != b.Continued || len(a.Offsets) != len(b.Offsets) {
		return false
	}
	for i, o := range a.Offsets {
		if o+shift != b.Offsets[i] {
			return false
		}
	}
	return true
}

// shiftCandidates returns cands moved by delta bytes; Text is shared.
func shiftCandidates(cands []scan.Candidate, delta int) []scan.Candidate {
	out := make([]scan.Candidate, len(cands))
	copy(out, cands)
	shiftInPlace(out, delta)
	return out
}

// shiftInPlace moves cands, a copy, by delta bytes; their Offsets are
// copied.
func shiftInPlace(cands []scan.Candidate, delta int) {
	if delta == 0 {
		return
	}
	for i := range cands {
		c := &cands[i]
		c.Start += delta
		c.End += delta
		if c.Offsets != nil {
			offs := make([]int, len(c.Offsets))
			for k, o := range c.Offsets {
				offs[k] = o + delta
			}
			c.Offsets = offs
		}
	}
}

// shiftDiagnostics moves diags, copies of an older analysis's kept by an
// edit, by the delta bytes the edit moved them. Their fixes stay the older
// analysis's, unmoved: FixShift says how far they moved, and
// config.Finding.Fixes moves them when they are asked for (the diagnostics
// shown, a code action, the fix-all). An edit at the start of a line of 40k
// URLs with findings moves them all, and copying their fixes made the edit
// cost four times what an edit of ordinary text does.
func shiftDiagnostics(diags []config.Finding, delta int) {
	if delta == 0 {
		return
	}
	for i := range diags {
		d := &diags[i]
		d.Start += delta
		d.End += delta
		if d.SuggestedFixes != nil {
			d.FixShift += delta
		}
	}
}

// hoverAnalysis returns what a hover at pos needs of the document u: the
// analysis of its current version once that has its candidates, or, while
// it has not, one made at once from the analysis of the version before,
// when one edit made this version and that analysis can be re-scanned
// locally (plain text, Markdown): the candidate under the cursor, kept or
// moved by the edit, or those of the window the edit makes the scanner read
// again (rescanPlainText's and scan.Outline.Rescan's reasoning), when the
// cursor is in it. Positions map through the line table of the version
// before (editView). So a hover right after an edit costs about what an
// idle one does.
func (s *Server) hoverAnalysis(ctx context.Context, u protocol.DocumentURI, pos protocol.Position) (*analysis, error) {
	s.mu.Lock()
	var snap, prev *snapshot
	var scratch *scratchText
	if d, ok := s.docs[u]; ok {
		snap, prev, scratch = d.snap, d.snap.prev, &d.scratch
		s.startLocked(d, snap)
	}
	s.mu.Unlock()
	ready := false
	if prev != nil {
		select {
		case <-snap.scanned:
			ready = true // answer from it
		default:
		}
	}
	if prev != nil && !ready {
		select {
		case <-prev.scanned:
			if pa := prev.partial; pa != nil {
				if n := newNearEdit(pa, snap, scratch); n != nil {
					return n.analysis(pos), nil
				}
			}
		default:
		}
	}
	return s.current(ctx, u, false)
}

// nearEdit is what hovers right after one edit need (hoverAnalysis):
// the analysis before it, a Mapper of the new text through its line table,
// and the window the edit makes the scanner read again.
type nearEdit struct {
	pa      *analysis
	snap    *snapshot
	plain   bool
	mapper  *Mapper
	window  *scan.Window // Markdown
	docBase string
	// unbuilt: Markdown's window was re-scanned without building the
	// new text (rescanWindow).
	unbuilt bool
}

// newNearEdit returns the nearEdit of snap, made by one edit from the text
// of pa, or nil when pa's language cannot be re-scanned locally.
//
// The text of snap need not be built (docText): in plain text the
// nearEdit reads only the bytes of the lines and paragraphs the edit
// touched, and only when the cursor is in them; Markdown's window is
// re-scanned from a copy of the bytes around the edit (rescanWindow, in
// scratch).
func newNearEdit(pa *analysis, snap *snapshot, scratch *scratchText) *nearEdit {
	ch := snap.change
	n := &nearEdit{pa: pa, snap: snap}
	n.plain = stillPlainText(pa, snap.text, ch)
	if !n.plain {
		if pa.outline == nil || pa.plain {
			return nil
		}
		w, unbuilt, ok := rescanWindow(pa.outline, snap.text, ch, scratch)
		if !ok {
			return nil
		}
		n.window, n.unbuilt = w, unbuilt
		c0, c1 := replacedCandidates(pa.candidates, w.Start, w.OldEnd)
		_, n.docBase = spliceBase(pa, c0, c1, w.Candidates)
	}
	n.mapper = newEditView(pa.mapper, snap.text, ch, snap.lines)
	return n
}

// analysis returns an analysis of the new text that holds the candidates a
// hover at pos needs.
func (n *nearEdit) analysis(pos protocol.Position) *analysis {
	pa, snap, ch := n.pa, n.snap, n.snap.change
	off := n.mapper.PositionOffset(pos)
	// Its text is left nil unless built: a hover reads the candidates,
	// not the text.
	a := &analysis{gen: snap.gen, version: snap.version, mapper: n.mapper, lang: pa.lang,
		plain: n.plain, epoch: pa.epoch, opts: pa.opts}
	if n.plain {
		a.candidates = candidatesNear(pa, snap.text, ch, off)
		return a
	}
	w := n.window
	a.candidates = windowNear(pa, ch, w.Start, w.End, w.OldEnd, w.Candidates, off)
	a.docBase = &n.docBase
	return a
}

// windowNear returns the candidates of text, that change made from base's
// text, that may hold offset off, when window are its candidates in
// [p0, p1), which replaced [p0, p1old) of the old text, and no candidate
// spans p0 or p1: base's candidate there, moved by the edit, or window.
func windowNear(base *analysis, change textChange, p0, p1, p1old int, window []scan.Candidate, off int) []scan.Candidate {
	switch {
	case off < p0:
		if c, ok := candidateAt(base, off); ok {
			return []scan.Candidate{c}
		}
	case off >= p1:
		if c, ok := candidateAt(base, off-(p1-p1old)); ok {
			return shiftCandidates([]scan.Candidate{c}, p1-p1old)
		}
	default:
		return window
	}
	return nil
}

// spliceBase returns the index of the first <base href> (with a scheme)
// of the candidates that spliceWindow makes of base's and window, which
// replaces base.candidates[c0:c1] (replacedCandidates), and its text, or
// -1 and "".
func spliceBase(base *analysis, c0, c1 int, window []scan.Candidate) (int, string) {
	old := base.candidates
	b := base.baseIdx
	switch {
	case b >= 0 && b < c0:
		return b, old[b].Text
	case b >= c1:
		if k := indexBase(window); k >= 0 {
			return c0 + k, window[k].Text
		}
		return b - c1 + c0 + len(window), old[b].Text
	}
	if k := indexBase(window); k >= 0 {
		return c0 + k, window[k].Text
	}
	if b < 0 {
		return -1, "" // none before, so none after
	}
	if k := indexBase(old[c1:]); k >= 0 {
		return c0 + len(window) + k, old[c1+k].Text
	}
	return -1, ""
}

// candidatesNear returns the candidates of text, a plain-text document
// that change made from base's text, that may hold offset off: base's
// candidate there, moved by the edit, or those of the paragraphs the edit
// touched, when off is in them. It reads the bytes of those paragraphs
// only: their bounds are found in base's text, which holds the same bytes
// before the change and after it, and they are scanned from a copy of them
// (and of the line break before them, all that ScanPlainTextRange reads
// before its range).
func candidatesNear(base *analysis, text *docText, change textChange, off int) []scan.Candidate {
	p0 := paragraphStart(base.text, change.start)
	p1 := paragraphEnd(base.text, change.oldEnd) + change.delta()
	if off >= p0 && off < p1 {
		from := max(0, p0-1)
		cands := scan.ScanPlainTextRange(text.slice(from, p1), p0-from, p1-from)
		shiftInPlace(cands, from)
		return cands
	}
	return windowNear(base, change, p0, p1, p1-change.delta(), nil, off)
}

// scratchText is a buffer of a document's length that rescanWindow copies
// the bytes around an edit into, kept from one hover to the next: a new
// one would cost as much as building the text (a 1 MB allocation, cleared).
// Its bytes elsewhere are those of older texts, or anything.
type scratchText struct {
	mu sync.Mutex
	b  []byte
	// span is how many bytes around the change are copied at first, and
	// margin how far from the copied bytes the window must end; zero
	// means rescanSpan and rescanMargin. poison, when not nil, fills the
	// buffer before the bytes are copied (tests: what Rescan must not
	// read).
	span, margin int
	poison       func([]byte)
}

// rescanSpan and rescanMargin: see scratchText. A Markdown window runs
// from a blank line before the edit to one after it, a few lines in prose;
// the margin is far more than the line breaks around the window that the
// scan reads.
const (
	rescanSpan   = 4096
	rescanMargin = 1024
)

// rescanWindow is o.Rescan of text, which ch made from o's document,
// without building text when it is not built yet (a hover right after an
// edit): Rescan reads the bytes of the window it scans again, and the line
// breaks around it, not the document (scan.Outline: from the restart point
// before the change to one after it), so it scans scratch, a buffer of the
// text's length whose bytes are the text's in [lo, hi) only, around the
// change. The window is taken when it lies margin bytes inside [lo, hi) (or
// reaches an end of the text that lo or hi is): then every byte the scan
// read was the text's. Otherwise the span grows fourfold, and at worst
// (or when scratch is in use by another hover) the text is built and
// scanned. unbuilt says whether the text was left unbuilt; ok is Rescan's.
func rescanWindow(o *scan.Outline, text *docText, ch textChange, scratch *scratchText) (w *scan.Window, unbuilt, ok bool) {
	if b, ok := text.built(); ok || !scratch.mu.TryLock() {
		if !ok {
			b = text.get()
		}
		w, ok := o.Rescan(b, ch.start, ch.oldEnd, ch.newEnd)
		return w, false, ok
	}
	defer scratch.mu.Unlock()
	span, margin := scratch.span, scratch.margin
	if span == 0 {
		span, margin = rescanSpan, rescanMargin
	}
	if cap(scratch.b) < text.n {
		scratch.b = make([]byte, text.n+text.n/8) // room for typing
	}
	buf := scratch.b[:text.n]
	for ; ; span *= 4 {
		lo, hi := max(0, ch.start-span), min(text.n, ch.newEnd+span)
		if lo == 0 && hi == text.n {
			break
		}
		if scratch.poison != nil {
			scratch.poison(buf)
		}
		text.copyTo(buf[lo:hi], lo)
		w, ok := o.Rescan(buf, ch.start, ch.oldEnd, ch.newEnd)
		if !ok {
			break // the labels changed, or so it read past [lo, hi): the text decides
		}
		if (lo == 0 || w.Start-lo >= margin) && (hi == text.n || hi-w.End >= margin) {
			return w, true, true
		}
	}
	w, ok = o.Rescan(text.get(), ch.start, ch.oldEnd, ch.newEnd)
	return w, false, ok
}

// applyConfig applies the configuration to diags, the diagnostics of an
// analysis, as cfg.Apply(sups, diags) does: it returns the findings, sets
// the severity of each diagnostic it keeps, and returns what became of
// each (analysis.kept). When it keeps them all, the findings are diags.
//
// When an edit (ch) made the text from base's, under the same
// configuration, and moved base's suppressions with the bytes around them,
// a diagnostic moved from base's (from, see checkCandidates) becomes what
// it became in base: what Apply makes of a diagnostic depends on its code,
// its URL and which suppressions cover its start, and those are unchanged
// for a start before the change and for one after it, both moved alike
// (movedSuppressions). Only the others go through Apply: an edit of one of
// 40k URLs on a line does not look the configuration up 40k times.
func applyConfig(cfg config.Config, sups []scan.Suppression, diags []config.Finding, base *analysis, ch textChange, from []int32) ([]config.Finding, []uint8) {
	// apply returns what Apply makes of the diagnostics picked of diags,
	// in order, as severities plus one (config.Decide): nothing is copied.
	// The suppressions are decided once for all of them (config.Suppressed).
	apply := func(pick func(i int) bool) []uint8 {
		var picked []int32
		for i := range diags {
			if pick(i) {
				picked = append(picked, int32(i))
			}
		}
		diag := func(k int) *checks.Diagnostic { return &diags[picked[k]].Diagnostic }
		suppressed := config.Suppressed(sups, len(picked), func(k int) (int, string) {
			d := diag(k)
			return d.Start, d.Code
		})
		kept := make([]uint8, len(picked))
		cfg.Decide(suppressed, len(picked), diag, func(k int, sev checks.Severity) { kept[k] = uint8(sev) + 1 })
		return kept
	}
	var kept []uint8
	if base != nil && from != nil && base.kept != nil && movedSuppressions(base.sups, sups, ch) {
		for i, j := range from {
			if j < 0 {
				continue
			}
			// Moved from base: before the change, or after it.
			old, now := base.diags[j].Start, diags[i].Start
			if !(old <= ch.start && now == old || old >= ch.oldEnd && now == old+ch.delta()) {
				from = nil
				break
			}
		}
		if from != nil {
			fresh := apply(func(i int) bool { return from[i] < 0 })
			kept = make([]uint8, len(diags))
			for i, j := range from {
				if j >= 0 {
					kept[i] = base.kept[j]
				} else {
					kept[i], fresh = fresh[0], fresh[1:]
				}
			}
		}
	}
	if kept == nil {
		kept = apply(func(int) bool { return true })
	}
	all := true
	for i, k := range kept {
		if k > 0 {
			diags[i].Severity = checks.Severity(k - 1)
		} else {
			all = false
		}
	}
	if all {
		return diags, kept
	}
	findings := make([]config.Finding, 0, len(diags))
	for i, k := range kept {
		if k > 0 {
			findings = append(findings, diags[i])
		}
	}
	return findings, kept
}

// movedSuppressions reports whether now, the suppressions of the text that
// ch made from the one old are of, are old with the bounds before the
// change kept and those after it moved by the change: then a suppression
// covers an offset before the change (at most ch.start) or after it (at
// least ch.oldEnd, moved) in the new text exactly when it covered it in
// the old one. A bound inside the change, or at its start, answers no.
func movedSuppressions(old, now []scan.Suppression, ch textChange) bool {
	if len(old) != len(now) {
		return false
	}
	moved := func(x, y int) bool {
		switch {
		case x < ch.start:
			return y == x
		case x > ch.oldEnd:
			return y == x+ch.delta()
		}
		return false
	}
	for i, o := range old {
		n := now[i]
		if !moved(o.Start, n.Start) || !moved(o.End, n.End) || !slices.Equal(o.Codes, n.Codes) || (o.Codes == nil) != (n.Codes == nil) {
			return false
		}
	}
	return true
}
