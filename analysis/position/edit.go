package position

import (
	"bytes"
	"sort"
	"unicode/utf8"
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
	if out := m.editInLine(text, start, oldEnd, newEnd); out != nil {
		return out
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

// utf8Reach is how many bytes past a changed byte a character's decoding
// may differ: a character is at most utf8.UTFMax bytes long, and a
// decoding that starts inside an old character steps over its
// continuation bytes one at a time, so from a character boundary of the
// old text that lies utf8Reach bytes or more past the change on, both
// texts decode alike (and from one at least that far before it).
const utf8Reach = 2 * utf8.UTFMax

// editInLine is Edit for a change inside one line that neither removes nor
// inserts a line break, nor splits a "\r\n" (a long line of URLs, one
// keystroke at a time): every line start stays, moved by the change after
// it, and of the changed line only the bytes between the checkpoints
// around the change are read again; the checkpoints of the line after
// them keep their offsets (moved) and their ASCII flags, and their columns
// move by what the change added to the columns. It returns nil when the
// change is not of that kind, or no checkpoint of the line lies far
// enough after it: Edit reads the line to its end then.
func (m *Mapper) editInLine(text []byte, start, oldEnd, newEnd int) *Mapper {
	if bytes.ContainsAny(m.text[start:oldEnd], "\r\n") || bytes.ContainsAny(text[start:newEnd], "\r\n") ||
		start > 0 && m.text[start-1] == '\r' {
		return nil
	}
	delta := newEnd - oldEnd
	l := m.Line(start)
	ls, next := m.lines[l], len(m.text) // the line, and the next line's start
	if l+1 < len(m.lines) {
		next = m.lines[l+1]
	}
	// The first checkpoint of the line far enough after the change, and
	// the last one before it (the line's start when there is none).
	t := sort.Search(len(m.cps), func(k int) bool { return m.cps[k].off >= oldEnd+utf8Reach })
	if t == len(m.cps) || m.cps[t].off >= next {
		return nil
	}
	k := sort.Search(len(m.cps), func(k int) bool { return m.cps[k].off > start-utf8Reach }) - 1
	out := &Mapper{text: text, lines: make([]int, 0, len(m.lines))}
	out.lines = append(out.lines, m.lines[:l+1]...)
	out.cps = make([]checkpoint, 0, len(m.cps)+(newEnd-start)/checkpointGap+2)
	from, u16, runes := ls, 0, 0
	if k >= 0 && m.cps[k].off >= ls {
		cp := m.cps[k]
		out.cps = append(out.cps, m.cps[:k]...)
		from, u16, runes = cp.off, int(cp.utf16), int(cp.runes)
		out.cps = append(out.cps, checkpoint{off: from, utf16: cp.utf16, runes: cp.runes, ascii: true})
	} else {
		// As Edit: the checkpoints before the line stay, and one at its
		// start begins its stretch.
		k = sort.Search(len(m.cps), func(k int) bool { return m.cps[k].off >= ls })
		out.cps = append(out.cps, m.cps[:k]...)
		out.cps = append(out.cps, checkpoint{off: ls, ascii: true})
	}
	resync := m.cps[t]
	i, u16, runes := out.indexFrom(from, resync.off+delta, u16, runes)
	if i != resync.off+delta {
		return nil // not a character boundary of the new text after all
	}
	du16, druns := uint32(u16)-resync.utf16, uint32(runes)-resync.runes
	for _, cp := range m.cps[t:] {
		if cp.off < next {
			cp.utf16 += du16
			cp.runes += druns
		}
		cp.off += delta
		out.cps = append(out.cps, cp)
	}
	for _, s := range m.lines[l+1:] {
		out.lines = append(out.lines, s+delta)
	}
	return out
}
