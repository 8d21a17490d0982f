package lsp

import (
	"fmt"

	"go.lsp.dev/protocol"

	textpos "github.com/urlls/urlls/analysis/position"
)

// Mapper converts between byte offsets of a document and LSP positions,
// whose characters count UTF-16 code units (LSP 3.15, "Text Documents"). It
// is a thin face of position.Mapper (imported as textpos), which urlls check uses too: lines end
// at "\n", "\r\n" or "\r", the line table is built once, eagerly, and never
// changes afterwards (any number of requests may share it), and a lookup
// costs O(log n), however long the line. No input makes it panic: offsets
// and positions out of range are clamped.
type Mapper struct {
	pos *textpos.Mapper
	// view, when pos is nil, maps through the line table of the text
	// before an edit (editView).
	view *editView
}

// NewMapper builds the Mapper of text, which must not change while the
// Mapper is in use.
func NewMapper(text []byte) *Mapper { return &Mapper{pos: textpos.New(text)} }

// edit returns the Mapper of text, m's text with [start, oldEnd) replaced
// by text[start:newEnd] (position.Mapper.Edit).
func (m *Mapper) edit(text []byte, start, oldEnd, newEnd int) *Mapper {
	return &Mapper{pos: m.pos.Edit(text, start, oldEnd, newEnd)}
}

// LineCount returns the number of lines; text without a final line break
// still counts its last line, and an empty text has one line.
func (m *Mapper) LineCount() int { return m.table().LineCount() }

// lineEnd returns the offset where line l's content ends (before its break).
func (m *Mapper) lineEnd(l int) int { return m.table().LineEnd(l) }

// table returns m's line table, building it if m is a view.
func (m *Mapper) table() *textpos.Mapper {
	if m.pos != nil {
		return m.pos
	}
	return m.view.lines.get().pos
}

// OffsetPosition returns the position of byte offset off. An offset inside
// a line break or a multi-byte character maps to the start of it; offsets
// outside the text are clamped.
func (m *Mapper) OffsetPosition(off int) protocol.Position {
	if m.pos == nil {
		return m.view.offsetPosition(off)
	}
	p := m.pos.Position(off)
	return protocol.Position{Line: clampUint32(p.Line), Character: clampUint32(p.UTF16)}
}

func clampUint32(n int) uint32 { return uint32(max(0, min(int64(n), int64(^uint32(0))))) }

// PositionOffset returns the byte offset of p. A line past the last one is
// clamped to the end of the text; a character past its line's end to the
// end of the line (LSP 3.15: "it defaults back to the line length"); a
// character inside a surrogate pair to the start of the character.
func (m *Mapper) PositionOffset(p protocol.Position) int {
	off, _ := m.positionOffset(p)
	return off
}

// StrictOffset returns the byte offset of p, or an error when p's line does
// not exist. Characters past the end of a line are clamped to it, as LSP
// says; only a missing line is an error (the document and the client
// disagree about it).
func (m *Mapper) StrictOffset(p protocol.Position) (int, error) {
	return m.positionOffset(p)
}

func (m *Mapper) positionOffset(p protocol.Position) (int, error) {
	if m.pos == nil {
		return m.view.positionOffset(p)
	}
	if int64(p.Line) >= int64(m.pos.LineCount()) {
		return m.pos.Len(), fmt.Errorf("line %d is past the end of the document (%d lines)", p.Line, m.pos.LineCount())
	}
	off, _ := m.pos.Offset(int(p.Line), int(min(int64(p.Character), int64(m.pos.Len()))), textpos.UTF16)
	return off, nil
}

// Range returns the LSP range of bytes [start, end).
func (m *Mapper) Range(start, end int) protocol.Range {
	return protocol.Range{Start: m.OffsetPosition(start), End: m.OffsetPosition(end)}
}

// editView maps between the offsets and positions of a text that one edit
// made, through the line table of the text before it, without building
// (copying) a line table of its own: the lines before the one the edit
// starts in, and those after the first line start after it, are the old
// text's lines, the later ones moved by the edit's bytes and lines. Other
// offsets and positions build the text's own line table (lines).
type editView struct {
	old   *Mapper
	lines *lines // the text's own table, built on demand
	// Offsets before rs and from stop on map through old (those from
	// stop on moved by delta bytes and dlines lines); lines before first
	// and from firstAfter on likewise.
	rs, stop, delta   int
	first, firstAfter int
	dlines            int
}

// newEditView returns a Mapper of text, made from the text of old by ch,
// that maps through old (editView); ls is text's line table, for what
// old cannot map.
func newEditView(old *Mapper, text *docText, ch textChange, ls *lines) *Mapper {
	if old.pos == nil || ch.oldEnd > old.pos.Len() || old.pos.Len()+ch.delta() != text.n {
		return ls.get()
	}
	t := old.pos
	// As position.Mapper.Edit: the lines from the one that holds the byte
	// before the change to the first line start after it are read again.
	first := t.Line(max(0, ch.start-1))
	v := &editView{old: old, lines: ls, rs: t.LineStart(first), first: first, delta: ch.delta()}
	resync := t.Line(ch.oldEnd) + 1 // the first line start after oldEnd
	if resync >= t.LineCount() {
		v.stop, v.firstAfter = text.n+1, int(^uint(0)>>1) // nothing after maps
		return &Mapper{view: v}
	}
	v.stop = t.LineStart(resync) + v.delta
	// The lines of the new text in [rs, stop): count its line breaks.
	lines, n := text.slice(v.rs, v.stop), 0
	for i := 0; i < len(lines); i++ {
		switch lines[i] {
		case '\n':
			n++
		case '\r':
			if i+1 < len(lines) && lines[i+1] == '\n' {
				i++
			}
			n++
		}
	}
	v.firstAfter = first + n
	v.dlines = v.firstAfter - resync
	return &Mapper{view: v}
}

func (v *editView) offsetPosition(off int) protocol.Position {
	switch {
	case off < v.rs:
		return v.old.OffsetPosition(off)
	case off >= v.stop:
		p := v.old.OffsetPosition(off - v.delta)
		p.Line = clampUint32(int(p.Line) + v.dlines)
		return p
	}
	return v.lines.get().OffsetPosition(off)
}

func (v *editView) positionOffset(p protocol.Position) (int, error) {
	switch {
	case int(p.Line) < v.first:
		return v.old.positionOffset(p)
	case int64(p.Line) >= int64(v.firstAfter):
		q := p
		q.Line = clampUint32(int(p.Line) - v.dlines)
		off, err := v.old.positionOffset(q)
		return off + v.delta, err
	}
	return v.lines.get().positionOffset(p)
}
