package position

import (
	"sort"
)

// Edit returns the Mapper of text, which is m's text with the bytes
// [start, oldEnd) replaced by text[start:newEnd], for an editor that
// changes a long text a little at a time: the lines before the change are
// kept, the lines from the one the change starts in to the first line
// start after it are read again, and the rest are kept, moved. It costs
// time linear in the changed lines plus a copy of the line table, not a
// pass over the text. Out-of-range arguments make it build the Mapper
// afresh (New).
func (m *Mapper) Edit(text []byte, start, oldEnd, newEnd int) *Mapper {
	delta := newEnd - oldEnd
	if start < 0 || start > oldEnd || oldEnd > len(m.text) || start > newEnd || newEnd > len(text) || len(m.text)+delta != len(text) {
		return New(text)
	}
	// Read again from the start of the line holding the byte before the
	// change (a "\r" there may now end its line, or no longer).
	first := m.Line(max(0, start-1))
	rs := m.lines[first]
	// up to the first line start after the change whose line break is
	// unchanged too (then so is whether it is a lone "\r").
	resync := sort.Search(len(m.lines), func(i int) bool { return m.lines[i] > oldEnd })
	stop := len(text)
	if resync < len(m.lines) {
		stop = m.lines[resync] + delta
	}
	out := &Mapper{text: text, lines: make([]int, 0, len(m.lines)+(newEnd-start)/40+1)}
	out.lines = append(out.lines, m.lines[:first+1]...)
	// The checkpoints before rs stay: their stretches are unchanged text
	// (an ASCII flag over a longer stretch holds for a shorter one).
	k := sort.Search(len(m.cps), func(k int) bool { return m.cps[k].off >= rs })
	out.cps = make([]checkpoint, 0, len(m.cps)+(newEnd-start)/checkpointGap+2)
	out.cps = append(out.cps, m.cps[:k]...)
	out.cps = append(out.cps, checkpoint{off: rs, ascii: true})
	out.index(rs, stop)
	if resync == len(m.lines) {
		return out
	}
	// The rest, moved: a checkpoint at the resynchronised line start, with
	// the flag of the old stretch that holds it, then the old ones after.
	// The loop appended that line start already.
	oldStart := m.lines[resync]
	j := sort.Search(len(m.cps), func(j int) bool { return m.cps[j].off > oldStart }) - 1
	out.cps = append(out.cps, checkpoint{off: stop, ascii: m.cps[j].ascii})
	for _, cp := range m.cps[j+1:] {
		cp.off += delta
		out.cps = append(out.cps, cp)
	}
	for _, ls := range m.lines[resync+1:] {
		out.lines = append(out.lines, ls+delta)
	}
	return out
}
