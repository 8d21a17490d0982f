package checks

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// merge verifies the fixes of the findings (verifier.verify) and makes one
// finding of each code of one URL (the issue a writer fixes is "this URL has
// unsafe characters", not each of ten "|"): its span runs from the first
// occurrence to the last, its message names what the occurrences hold, and
// its fix, when every occurrence has one, is the union of their preferred
// fixes, verified as one (so that a URL with many occurrences costs one
// re-check, not one each; if that fails, each is verified alone before the
// union is tried again). A code with one occurrence keeps every fix that
// passes. A brief check (reading.brief) only spans them: no message, no
// fix. The findings stay in text order of their starts.
func merge(fs []finding, v *verifier) []finding {
	// Group by code without a map: a URL has a few codes, and the findings
	// of a URL with only one (a line of "%") are one group as they are.
	var codes [4]string
	order := codes[:0]
	for _, f := range fs {
		if !slices.Contains(order, f.code) {
			order = append(order, f.code)
		}
	}
	// A group of several is gathered in the scratch (group), which the
	// next group writes over: nothing merge keeps points into it.
	groupOf := func(code string) []finding {
		if len(order) == 1 {
			return fs
		}
		g := v.scratch.group[:0]
		for _, f := range fs {
			if f.code == code {
				g = append(g, f)
			}
		}
		v.scratch.group = g
		return g
	}
	out := v.scratch.keep(len(order))
	for _, code := range order {
		if v.rd.brief {
			out = append(out, spanOf(code, fs)) // counted, not read: no message, no fix
			continue
		}
		g := groupOf(code)
		if len(g) == 1 && g[0].count() == 1 {
			f := g[0]
			if f.code == codeBadEscape {
				f.msg = v.scratch.badEscapeMessage(v.text, f)
			}
			// The fixes are f's own (analyze makes each finding's):
			// the ones kept are kept in place.
			kept := f.fixes[:0]
			for _, fx := range f.fixes {
				if v.verify([]place{{f.code, f.start}}, fx.edits) {
					kept = append(kept, fx)
				}
			}
			if len(kept) == 0 {
				kept = nil
			}
			f.fixes = kept
			spanFixes(&f)
			out = append(out, f)
			continue
		}
		m := spanOf(code, g)
		m.msg = mergedMessage(v.text, g)
		if !verifiable(len(v.text), v.budget) {
			// No fix can pass verify any more (the text alone is over what
			// is left of the budget): do not build the union of a
			// hundred thousand fixes to be refused.
		} else if fixesAll(g) { // so no runs (summary): one place each
			edits, ok := unionOfFixes(g)
			if !ok || !v.verify(places(g), edits) {
				// One occurrence's fix may be at fault: verify each alone,
				// and offer the union only if each passes and the union
				// then does.
				ok = true
				for _, f := range g {
					ok = ok && v.verify([]place{{f.code, f.start}}, f.fixes[0].edits)
				}
				ok = ok && v.verify(places(g), edits)
			}
			if ok {
				m.fixes = []fix{{msg: mergedFixMessage(g), edits: edits}}
				spanFixes(&m)
			}
		}
		out = append(out, m)
	}
	slices.SortStableFunc(out, func(a, b finding) int { return cmp.Compare(a.start, b.start) })
	return out
}

// spanOf returns the finding of code that spans the findings of g of that
// code (there is one at least), with no message and no fix.
func spanOf(code string, g []finding) finding {
	m := finding{start: -1, code: code}
	for _, f := range g {
		if f.code != code {
			continue
		}
		if m.start < 0 {
			m.start, m.end = f.start, f.end
		}
		m.start = min(m.start, f.start)
		m.end = max(m.end, f.end)
	}
	return m
}

// spanFixes widens f's span to take in the edits of the fixes verify kept:
// a fix edits its finding's span only (a client applies it there), and
// bracketFix's reaches past the bracket the syntax error is at, to the
// last one it encodes. A fix refused leaves the span as the analysis found
// it: "[" alone, not brackets no fix will touch.
func spanFixes(f *finding) {
	for _, fx := range f.fixes {
		for _, e := range fx.edits {
			f.end = max(f.end, e.end)
		}
	}
}

// fixesAll reports whether every finding of g has a fix: a merged finding
// is fixed whole or not at all, since a fix that left some of it would
// leave the finding too.
func fixesAll(g []finding) bool {
	for _, f := range g {
		if len(f.fixes) == 0 {
			return false
		}
	}
	return true
}

// places returns where the findings of g are, for verify.
func places(g []finding) []place {
	out := make([]place, len(g))
	for i, f := range g {
		out[i] = place{f.code, f.start}
	}
	return out
}

// unionOfFixes returns the edits of the preferred fixes of all of g (which
// all have one), in text order, an edit two fixes share taken once (the "}"
// a "{" fix encodes too); it fails when two edits overlap otherwise.
func unionOfFixes(g []finding) ([]edit, bool) {
	n := 0
	for _, f := range g {
		n += len(f.fixes[0].edits)
	}
	edits := make([]edit, 0, n)
	for _, f := range g {
		edits = append(edits, f.fixes[0].edits...)
	}
	byStart := func(i, j int) bool { return edits[i].start < edits[j].start }
	if !sort.SliceIsSorted(edits, byStart) {
		sort.SliceStable(edits, byStart)
	}
	out := edits[:0]
	for _, e := range edits {
		if n := len(out); n > 0 {
			last := out[n-1]
			if e == last {
				continue
			}
			if e.start < last.end || e.start == last.start {
				return nil, false
			}
		}
		out = append(out, e)
	}
	return out, true
}

// mergedMessage words the occurrences g of one code in text.
func mergedMessage(text string, g []finding) string {
	switch g[0].code {
	case codeUnsafeChar:
		chars, n := distinctChars(text, g)
		return fmt.Sprintf("%d unsafe characters %s: no URL grammar allows them unencoded", n, chars)
	case codeBadEscape:
		// Quoting is one-to-one: dedupe the spans, then quote the few
		// left. A run (summary) is as many occurrences of one span.
		spans := make([]string, 0, len(g))
		for _, f := range g {
			spans = append(spans, text[f.start:f.firstEnd()])
		}
		quoted := dedupe(spans)
		for i, s := range quoted {
			quoted[i] = strconv.Quote(s)
		}
		return fmt.Sprintf(`%d bad escapes %s: "%%" must be followed by two hex digits`, occurrences(g), joinList(quoted))
	}
	// Any other code: its distinct messages, and how many places they are.
	var msgs []string
	for _, f := range g {
		msgs = append(msgs, f.msg)
	}
	d := dedupe(msgs)
	msg := joinMessages(d)
	if n := occurrences(g); len(d) < n {
		msg += fmt.Sprintf(" (%d places)", n)
	}
	return msg
}

// occurrences counts the occurrences the findings of g stand for.
func occurrences(g []finding) int {
	n := 0
	for i := range g {
		n += g[i].count()
	}
	return n
}

// joinMessages joins distinct messages with "; ", the first few of them:
// a URL with a thousand different needless escapes gets one finding whose
// message stays short.
func joinMessages(msgs []string) string {
	const most = 3
	if len(msgs) > most {
		return strings.Join(msgs[:most], "; ") + fmt.Sprintf("; and %d more", len(msgs)-most)
	}
	return strings.Join(msgs, "; ")
}

// mergedFixMessage words the union of the fixes of g.
func mergedFixMessage(g []finding) string {
	switch g[0].code {
	case codeUnsafeChar:
		return "percent-encode the unsafe characters"
	case codeBadEscape:
		return `encode each "%" that starts no escape as %25`
	case codeNonASCII:
		encode, punycode := false, false
		for _, f := range g {
			punycode = punycode || strings.HasPrefix(f.fixes[0].msg, "convert the label")
			encode = encode || strings.HasPrefix(f.fixes[0].msg, "percent-encode")
		}
		switch {
		case encode && punycode:
			return "convert the host name to punycode and percent-encode the other non-ascii characters"
		case punycode:
			return "convert the host name labels to punycode"
		}
		return "percent-encode the non-ascii characters"
	}
	var msgs []string
	for _, f := range g {
		msgs = append(msgs, f.fixes[0].msg)
	}
	return joinMessages(dedupe(msgs))
}

// distinctChars lists the distinct characters the occurrences of g hold,
// quoted, and counts them all. A run (summary) is as many occurrences of
// the characters of its first.
func distinctChars(text string, g []finding) (string, int) {
	var seen []string
	n := 0
	for _, f := range g {
		for _, r := range text[f.start:f.firstEnd()] {
			n += f.count()
			seen = append(seen, strconv.Quote(string(r)))
		}
	}
	return joinList(dedupe(seen)), n
}

// dedupe drops repeated strings, keeping the first of each.
func dedupe(xs []string) []string {
	seen := map[string]bool{}
	out := xs[:0:0]
	for i, x := range xs {
		if i > 0 && x == xs[i-1] {
			continue // a run of the same string costs no lookup
		}
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// joinList renders "a", "a and b", "a, b and c", and cuts a long list.
func joinList(xs []string) string {
	const most = 6
	if len(xs) > most {
		xs = append(xs[:most:most], fmt.Sprintf("%d more", len(xs)-most))
	}
	switch len(xs) {
	case 1:
		return xs[0]
	case 2:
		return xs[0] + " and " + xs[1]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}
