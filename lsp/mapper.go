package lsp

import (
	"fmt"
	"sort"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// Mapper converts between byte offsets of a document and LSP positions,
// whose characters count UTF-16 code units (LSP 3.15, "Text Documents").
// Lines end at "\n", "\r\n" or "\r". The line table is built on first use.
// No input makes it panic: offsets and positions out of range are clamped.
type Mapper struct {
	text  []byte
	lines []int // byte offset of the start of each line; built lazily
}

// NewMapper returns a Mapper for text, which it must not outlive changes of.
func NewMapper(text []byte) *Mapper { return &Mapper{text: text} }

func (m *Mapper) lineStarts() []int {
	if m.lines == nil {
		m.lines = append(make([]int, 0, 64), 0)
		for i := 0; i < len(m.text); i++ {
			switch m.text[i] {
			case '\n':
				m.lines = append(m.lines, i+1)
			case '\r':
				if i+1 < len(m.text) && m.text[i+1] == '\n' {
					i++
				}
				m.lines = append(m.lines, i+1)
			}
		}
	}
	return m.lines
}

// lineEnd returns the offset where line l's content ends (before its break).
func (m *Mapper) lineEnd(l int) int {
	lines := m.lineStarts()
	end := len(m.text)
	if l+1 < len(lines) {
		end = lines[l+1]
		if end > 0 && m.text[end-1] == '\n' {
			end--
		}
		if end > lines[l] && m.text[end-1] == '\r' {
			end--
		}
	}
	return end
}

// LineCount returns the number of lines; text without a final line break
// still counts its last line, and an empty text has one line.
func (m *Mapper) LineCount() int { return len(m.lineStarts()) }

// OffsetPosition returns the position of byte offset off. An offset inside
// a line break or a multi-byte character maps to the start of it; offsets
// outside the text are clamped.
func (m *Mapper) OffsetPosition(off int) protocol.Position {
	off = max(0, min(off, len(m.text)))
	lines := m.lineStarts()
	l := sort.Search(len(lines), func(i int) bool { return lines[i] > off }) - 1
	end := min(off, m.lineEnd(l))
	var units uint32
	for i := lines[l]; i < end; {
		r, size := utf8.DecodeRune(m.text[i:])
		if i+size > end {
			break
		}
		units += utf16Len(r)
		i += size
	}
	return protocol.Position{Line: uint32(l), Character: units}
}

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
	lines := m.lineStarts()
	if int64(p.Line) >= int64(len(lines)) {
		return len(m.text), fmt.Errorf("line %d is past the end of the document (%d lines)", p.Line, len(lines))
	}
	l := int(p.Line)
	i, end := lines[l], m.lineEnd(l)
	var units uint32
	for i < end && units < p.Character {
		r, size := utf8.DecodeRune(m.text[i:])
		w := utf16Len(r)
		if units+w > p.Character {
			break // inside a surrogate pair: the start of the character
		}
		units += w
		i += size
	}
	return i, nil
}

// Range returns the LSP range of bytes [start, end).
func (m *Mapper) Range(start, end int) protocol.Range {
	return protocol.Range{Start: m.OffsetPosition(start), End: m.OffsetPosition(end)}
}

// utf16Len is the number of UTF-16 code units of r; an invalid byte decodes
// as U+FFFD and counts one.
func utf16Len(r rune) uint32 {
	if r >= 0x10000 {
		return 2
	}
	return 1
}
