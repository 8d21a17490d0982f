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
func (m *Mapper) LineCount() int { return m.pos.LineCount() }

// lineEnd returns the offset where line l's content ends (before its break).
func (m *Mapper) lineEnd(l int) int { return m.pos.LineEnd(l) }

// OffsetPosition returns the position of byte offset off. An offset inside
// a line break or a multi-byte character maps to the start of it; offsets
// outside the text are clamped.
func (m *Mapper) OffsetPosition(off int) protocol.Position {
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
