// Package position converts byte offsets of a text to lines and columns and
// back: the one line table that the language server (UTF-16 columns, LSP
// 3.17 "Position") and urlls check (byte columns for text and JSON, code
// point columns for SARIF and GitHub) share.
//
// A Mapper is built once per text, eagerly, and never changes afterwards, so
// any number of goroutines may use it at once without locks. Building it
// costs one pass over the text. An offset maps to its line by binary search
// over the line starts, O(log n); a column costs O(log n) to find a
// checkpoint plus at most checkpointGap bytes decoded after it, and nothing
// more on ASCII text: a 50 MB line costs no more per position than a short
// one.
//
// Lines end at "\n", "\r\n" or a lone "\r" (LSP 3.17 "Text Documents":
// "the line break is \n, \r\n or \r"); urlls check counts them the same way.
// No input makes a Mapper panic: offsets and positions out of range are
// clamped.
//
// CutAt cuts a text at a character boundary: the one cut that the checks'
// messages, the hover and urlls check's JSON findings make of what they
// bound by bytes.
package position

import (
	"sort"
	"unicode/utf8"
)

// checkpointGap is the most bytes a column lookup decodes: the Mapper
// records the columns of a character boundary at least every checkpointGap
// bytes of every line.
const checkpointGap = 256

// Mapper holds the line table of one text. Its zero value is not usable;
// use New.
type Mapper struct {
	text  []byte
	lines []int // byte offset of the start of each line; lines[0] == 0
	// cps are checkpoints in increasing offset order, the first at offset
	// 0: the columns of a character boundary inside a line.
	cps []checkpoint
}

// checkpoint records, for a character boundary off, how many UTF-16 code
// units and how many code points lie between the start of its line and off,
// and whether the bytes from off up to the next checkpoint are all ASCII
// (then a column in that stretch is arithmetic, not decoding).
type checkpoint struct {
	off          int
	utf16, runes uint32 // a line has fewer than 4G of either: LSP's limit too
	ascii        bool
}

// New builds the Mapper of text, which must not change while the Mapper is
// in use (the Mapper keeps it, it does not copy it).
func New(text []byte) *Mapper {
	m := &Mapper{text: text, lines: make([]int, 1, 1+len(text)/40)}
	m.cps = make([]checkpoint, 1, 1+len(text)/checkpointGap)
	m.cps[0] = checkpoint{ascii: true}
	m.index(0, len(text))
	return m
}

// index reads m.text[from:stop], where from starts a line and m's last
// checkpoint is at from: it appends the start of every line that begins
// in (from, stop] to m.lines, and a checkpoint every checkpointGap bytes,
// clearing the ASCII flag of a stretch that holds a non-ASCII byte.
func (m *Mapper) index(from, stop int) {
	m.indexFrom(from, stop, 0, 0)
}

// indexFrom is index from a character boundary from inside a line, whose
// columns are u16 and runes, where m's last checkpoint is. It returns where
// it stopped (stop, or the end of a character that ends past stop) and the
// columns there.
func (m *Mapper) indexFrom(from, stop, u16, runes int) (int, int, int) {
	text := m.text
	cur := len(m.cps) - 1
	i := from
	for i < stop {
		if i-m.cps[cur].off >= checkpointGap {
			m.cps = append(m.cps, checkpoint{off: i, utf16: uint32(u16), runes: uint32(runes), ascii: true})
			cur = len(m.cps) - 1
		}
		b := text[i]
		switch {
		case b == '\n':
			i++
			m.lines = append(m.lines, i)
			u16, runes = 0, 0
		case b == '\r':
			i++
			if i < len(text) && text[i] == '\n' {
				i++
			}
			m.lines = append(m.lines, i)
			u16, runes = 0, 0
		case b < utf8.RuneSelf:
			i++
			u16++
			runes++
		default:
			m.cps[cur].ascii = false
			r, size := utf8.DecodeRune(text[i:])
			i += size
			u16 += utf16Len(r)
			runes++
		}
	}
	return i, u16, runes
}

// Position is where a byte offset is: its line and its column counted in
// bytes, in UTF-16 code units and in Unicode code points (an invalid byte
// counts as one code point and one UTF-16 unit, as U+FFFD would). All are
// 0-based.
type Position struct {
	Line, Byte, UTF16, Rune int
}

// Unit is what a column counts.
type Unit uint8

const (
	// UTF16 columns count UTF-16 code units (LSP positions).
	UTF16 Unit = iota
	// Rune columns count Unicode code points (SARIF "unicodeCodePoints").
	Rune
	// Byte columns count bytes.
	Byte
)

// Len returns the length of the text in bytes.
func (m *Mapper) Len() int { return len(m.text) }

// LineCount returns the number of lines; a text without a final line break
// still counts its last line, and an empty text has one line.
func (m *Mapper) LineCount() int { return len(m.lines) }

// LineStart returns the offset of the first byte of line l (clamped to the
// lines that exist).
func (m *Mapper) LineStart(l int) int {
	return m.lines[max(0, min(l, len(m.lines)-1))]
}

// LineEnd returns the offset where line l's content ends, before its line
// break (clamped to the lines that exist).
func (m *Mapper) LineEnd(l int) int {
	l = max(0, min(l, len(m.lines)-1))
	if l+1 >= len(m.lines) {
		return len(m.text)
	}
	end := m.lines[l+1]
	if end > 0 && m.text[end-1] == '\n' {
		end--
	}
	if end > m.lines[l] && m.text[end-1] == '\r' {
		end--
	}
	return end
}

// Line returns the line of byte offset off (clamped to the text).
func (m *Mapper) Line(off int) int {
	off = max(0, min(off, len(m.text)))
	return sort.Search(len(m.lines), func(i int) bool { return m.lines[i] > off }) - 1
}

// Position returns the position of byte offset off. An offset inside a line
// break maps to the end of the line's content, one inside a multi-byte
// character to the start of the character; offsets outside the text are
// clamped.
func (m *Mapper) Position(off int) Position {
	off = max(0, min(off, len(m.text)))
	l := m.Line(off)
	ls, end := m.lines[l], min(off, m.LineEnd(l))
	i, u16, runes, ascii := m.from(ls, end)
	if ascii {
		n := end - i
		return Position{Line: l, Byte: end - ls, UTF16: u16 + n, Rune: runes + n}
	}
	for i < end {
		r, size := utf8.DecodeRune(m.text[i:])
		if i+size > end {
			break
		}
		u16 += utf16Len(r)
		runes++
		i += size
	}
	return Position{Line: l, Byte: i - ls, UTF16: u16, Rune: runes}
}

// from returns the latest known character boundary at or before off in the
// line starting at ls, with its columns, and whether the bytes from it to
// off are all ASCII.
func (m *Mapper) from(ls, off int) (i, u16, runes int, ascii bool) {
	k := sort.Search(len(m.cps), func(k int) bool { return m.cps[k].off > off }) - 1
	cp := m.cps[k]
	if cp.off < ls {
		// The checkpoint is on an earlier line; the stretch from it still
		// holds [ls, off).
		return ls, 0, 0, cp.ascii
	}
	return cp.off, int(cp.utf16), int(cp.runes), cp.ascii
}

// Offset returns the byte offset of column col, counted in unit, of line l.
// A column past the end of the line is clamped to it (LSP: "it defaults
// back to the line length"), a negative one to 0, and one inside a
// character (inside a UTF-16 surrogate pair, or a byte inside a multi-byte
// character) to the start of the character. A line that does not exist
// gives the end of the text (or its start, for a negative line) and false.
func (m *Mapper) Offset(l, col int, unit Unit) (int, bool) {
	switch {
	case l < 0:
		return 0, false
	case l >= len(m.lines):
		return len(m.text), false
	}
	ls, le := m.lines[l], m.LineEnd(l)
	// A line has no more UTF-16 units or code points than bytes.
	col = max(0, min(col, le-ls))
	if unit == Byte {
		// Position backs an offset inside a character up to its start.
		return ls + m.Position(min(ls+col, le)).Byte, true
	}
	// The last checkpoint of the line whose column is at most col.
	lo := sort.Search(len(m.cps), func(k int) bool { return m.cps[k].off >= ls })
	hi := sort.Search(len(m.cps), func(k int) bool { return m.cps[k].off > le })
	column := func(cp checkpoint) int {
		if unit == Rune {
			return int(cp.runes)
		}
		return int(cp.utf16)
	}
	i, c, ascii := ls, 0, false
	if k := lo + sort.Search(hi-lo, func(k int) bool { return column(m.cps[lo+k]) > col }) - 1; k >= lo {
		i, c, ascii = m.cps[k].off, column(m.cps[k]), m.cps[k].ascii
	} else if lo > 0 {
		ascii = m.cps[lo-1].ascii // the stretch that holds the line's start
	} else {
		ascii = m.cps[0].ascii
	}
	if ascii {
		// Up to the next checkpoint (or the line's end) one byte is one
		// column.
		next := le
		if k := sort.Search(len(m.cps), func(k int) bool { return m.cps[k].off > i }); k < len(m.cps) {
			next = min(next, m.cps[k].off)
		}
		if i+(col-c) <= next {
			return i + (col - c), true
		}
		i, c = next, c+(next-i)
	}
	for i < le && c < col {
		r, size := utf8.DecodeRune(m.text[i:])
		w := 1
		if unit == UTF16 {
			w = int(utf16Len(r))
		}
		if c+w > col {
			break // inside a surrogate pair: the start of the character
		}
		c += w
		i += size
	}
	return i, true
}

// utf16Len is the number of UTF-16 code units of r; an invalid byte decodes
// as U+FFFD and counts one.
func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}
