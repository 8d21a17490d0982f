package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"slices"
	"strings"

	"github.com/urlls/urlls/lsp/fileio"
)

// smallFile is the size up to which a file is read whole at once, before
// its head is sniffed: most documents are smaller.
const smallFile = 64 << 10

// sniffLen is how much of a file decides whether it is binary: git looks for
// a NUL in the first 8000 bytes; this is a little more, a round 8 KiB.
const sniffLen = 8192

// binaryKind tells what binary data head, the start of a file, is: "PDF",
// "PNG image", "zip archive", "NUL bytes", …, or "" for text. A file whose
// head is text is checked; any other is not, since its bytes are not a
// document that a writer could fix.
//
// The decision, in order:
//
//  1. Signatures that net/http.DetectContentType does not know (bzip2, xz,
//     zstd, 7z, tar, ELF, Mach-O, Java class, Windows executables, SQLite,
//     TIFF, EPS with a binary preview), from their formats' specifications.
//  2. net/http.DetectContentType, the WHATWG MIME Sniffing algorithm kept by
//     the Go team: PDF, images (PNG, JPEG, GIF, WebP, BMP, ICO), zip (and so
//     docx, xlsx, odt, jar, epub), gzip, RAR, fonts (TTF, OTF, WOFF, WOFF2,
//     EOT), WebAssembly, audio and video. Some of its signatures are
//     printable text ("BM" for BMP, "ID3" for MP3, "OTTO" for OpenType,
//     "LP" at offset 34 for EOT) and would take a Markdown file that starts
//     with "BMW" for an image, so its verdict counts only when the sniffed
//     bytes also hold a byte that no text has (WHATWG's "binary data byte":
//     a control character other than tab, newline, form feed, carriage
//     return and escape). PDF is the exception: "%PDF-" cannot start a text
//     by accident, and a PDF's first bytes may all be ASCII. PostScript
//     ("%!PS-Adobe-", and so the Illustrator files of before version 9) is
//     text, and so is a file with a UTF-8 byte order mark.
//  3. A NUL byte, as git decides: text in any 8-bit encoding has none, while
//     compressed or random data has one in its first 8 KiB but for a chance
//     of about e^-31.
//
// There is deliberately no threshold of invalid UTF-8: a file in Latin-1,
// Windows-1252 or Shift_JIS is text, its URLs are ASCII, and a non-ASCII
// byte inside a URL deserves a finding. Files in UTF-16 have NULs and are
// not read (the scanner reads bytes as UTF-8): with a byte order mark they
// are named "UTF-16 text".
func binaryKind(head []byte) string {
	head = head[:min(len(head), sniffLen)]
	for _, s := range signatures {
		if s.match(head) {
			return s.kind
		}
	}
	if !hasBinaryByte(head[:min(len(head), 512)]) {
		// The common case, text: of what DetectContentType tells of a
		// head without a binary byte in the 512 bytes it reads, only
		// UTF-16 (a byte order mark, in a head of 4 bytes or more) and
		// PDF matter below, and it costs more than the rest of reading a
		// small document.
		switch {
		case len(head) >= 4 && (string(head[:2]) == "\xFE\xFF" || string(head[:2]) == "\xFF\xFE"):
			return utf16Kind
		case bytes.HasPrefix(head, []byte("%PDF-")):
			return "PDF"
		}
		return nulKindOf(head)
	}
	return sniffedKind(head)
}

// sniffedKind is binaryKind's decision after the signatures: steps 2 and
// 3 above.
func sniffedKind(head []byte) string {
	ct := http.DetectContentType(head)
	mime, _, _ := strings.Cut(ct, ";")
	switch {
	case strings.Contains(ct, "charset=utf-16"):
		return utf16Kind
	case mime == "application/pdf":
		return "PDF"
	case strings.HasPrefix(mime, "text/"), mime == "application/postscript", mime == "application/octet-stream":
		// Text, or no signature: the NUL rule below decides.
	case hasBinaryByte(head[:min(len(head), 512)]):
		if k, ok := sniffedKinds[mime]; ok {
			return k
		}
		return mime
	}
	return nulKindOf(head)
}

// nulKindOf is nulKind for a head that holds a NUL byte, else "".
func nulKindOf(head []byte) string {
	if bytes.IndexByte(head, 0) >= 0 {
		return nulKind
	}
	return ""
}

// nulKind is the kind of a file with a NUL byte and no other sign of
// binary data.
const nulKind = "NUL bytes"

// utf16Kind is the kind of a file in UTF-16 with a byte order mark: text,
// but not text urlls reads.
const utf16Kind = "UTF-16 text"

// skipNotice is how "urlls check" tells that it did not check a file it
// was asked for by name.
func skipNotice(path, kind string) string {
	if kind == utf16Kind {
		return path + ": UTF-16 text, not checked (urlls reads UTF-8)"
	}
	return path + ": binary file (" + kind + "), not checked"
}

// hasBinaryByte reports whether b holds a "binary data byte" of the WHATWG
// MIME Sniffing standard (§7.2): 0x00-0x08, 0x0B, 0x0E-0x1A, 0x1C-0x1F.
// Every file of a walk goes through it (its first 512 bytes), so it looks
// at eight bytes at a time for one below 0x20, which text has only at its
// line ends (a word in eight, in prose), and looks closer only then: a
// byte at a time, it was 1.5% of a check of a tree.
func hasBinaryByte(b []byte) bool {
	const highs, spaces = 0x8080808080808080, 0x20 * 0x0101010101010101
	for len(b) >= 8 {
		w := binary.LittleEndian.Uint64(b)
		// A byte below 0x20 borrows in w-spaces where w has its high bit
		// clear (Hacker's Delight §6-1, "hasless"): no byte below 0x20,
		// no bit set; a bit set may still come of a byte that is not.
		if (w-spaces)&^w&highs != 0 && hasBinaryByteSlow(b[:8]) {
			return true
		}
		b = b[8:]
	}
	return hasBinaryByteSlow(b)
}

// hasBinaryByteSlow is hasBinaryByte a byte at a time.
func hasBinaryByteSlow(b []byte) bool {
	for _, c := range b {
		if c <= 0x08 || c == 0x0B || (c >= 0x0E && c <= 0x1A) || (c >= 0x1C && c <= 0x1F) {
			return true
		}
	}
	return false
}

// sniffedKinds names the MIME types net/http.DetectContentType returns for
// binary data; one it does not list is shown as the MIME type.
var sniffedKinds = map[string]string{
	"image/png":                     "PNG image",
	"image/jpeg":                    "JPEG image",
	"image/gif":                     "GIF image",
	"image/webp":                    "WebP image",
	"image/bmp":                     "BMP image",
	"image/x-icon":                  "ICO image",
	"application/zip":               "zip archive",
	"application/x-gzip":            "gzip data",
	"application/x-rar-compressed":  "RAR archive",
	"application/wasm":              "WebAssembly",
	"application/vnd.ms-fontobject": "EOT font",
	"application/ogg":               "Ogg media",
	"font/ttf":                      "TrueType font",
	"font/otf":                      "OpenType font",
	"font/collection":               "font collection",
	"font/woff":                     "WOFF font",
	"font/woff2":                    "WOFF2 font",
	"audio/mpeg":                    "MP3 audio",
	"audio/aiff":                    "AIFF audio",
	"audio/wave":                    "WAVE audio",
	"audio/midi":                    "MIDI audio",
	"video/avi":                     "AVI video",
	"video/mp4":                     "MP4 video",
	"video/webm":                    "WebM video",
}

// signature is a binary format recognised by its magic number.
type signature struct {
	kind  string
	match func(head []byte) bool
}

// at matches magic at offset.
func at(offset int, magic string) func([]byte) bool {
	return func(head []byte) bool {
		end := offset + len(magic)
		return len(head) >= end && string(head[offset:end]) == magic
	}
}

// signatures are the formats net/http.DetectContentType does not know, with
// the magic numbers their specifications give.
var signatures = []signature{
	{"bzip2 data", func(h []byte) bool {
		// "BZh", the block size '1'-'9', then the magic of a block (π) or
		// of the end of an empty stream (√π).
		return len(h) >= 10 && string(h[:3]) == "BZh" && h[3] >= '1' && h[3] <= '9' &&
			(string(h[4:10]) == "1AY&SY" || string(h[4:10]) == "\x17rE8P\x90")
	}},
	{"xz data", at(0, "\xFD7zXZ\x00")},
	{"zstd data", at(0, "\x28\xB5\x2F\xFD")},
	{"7z archive", at(0, "7z\xBC\xAF\x27\x1C")},
	{"tar archive", at(257, "ustar")}, // POSIX ustar and GNU tar headers
	{"ELF executable", at(0, "\x7FELF")},
	{"Mach-O executable", func(h []byte) bool {
		return at(0, "\xFE\xED\xFA\xCE")(h) || at(0, "\xFE\xED\xFA\xCF")(h) ||
			at(0, "\xCE\xFA\xED\xFE")(h) || at(0, "\xCF\xFA\xED\xFE")(h)
	}},
	{"Mach-O universal binary or Java class", at(0, "\xCA\xFE\xBA\xBE")},
	{"Windows executable", func(h []byte) bool {
		// "MZ" is printable: a DOS header has NULs in its 64 bytes too.
		return at(0, "MZ")(h) && bytes.IndexByte(h[:min(len(h), 64)], 0) >= 0
	}},
	{"SQLite database", at(0, "SQLite format 3\x00")},
	{"TIFF image", func(h []byte) bool { return at(0, "II*\x00")(h) || at(0, "MM\x00*")(h) }},
	{"EPS with a binary preview", at(0, "\xC5\xD0\xD3\xC6")},
}

// readDocument reads the file at path, or stdin for "-", unless its first
// bytes show binary data: then it returns the kind of data (binaryKind) and
// reads no further, so that a walk over a tree of videos costs little. A
// file named on the command line (named) is read whole when its only sign
// of binary data is a NUL byte: the user asked for it, and a text with a
// stray NUL is worth checking (the language server checks it too); one in
// a binary format or in UTF-16 is not read.
//
// Only a regular file is read (a FIFO, a socket or a device is refused
// with a *fileio.NotRegularError before it is opened), and no more than
// limit bytes: a longer file or input is a *fileio.TooLargeError, having
// cost no more than limit+1 bytes of memory. found is true for a file a
// walk found to be a regular file: it is opened without a stat first (the
// others are stat'ed before they are opened), and opened is then what
// the fstat of the file opened said of it, whatever the error.
//
// The text is read into buf (from its start, grown as needed), in one
// read of the file's size after the first sniffLen bytes.
func readDocument(path string, stdin io.Reader, limit int64, named, found bool, buf []byte) (doc []byte, kind string, opened fileio.Opened, err error) {
	name := path
	r := stdin
	size := int64(-1) // unknown: standard input
	if path == "-" {
		name = stdinName
	} else {
		var f io.ReadCloser
		if found {
			f, opened, err = fileio.OpenFound(path)
			size = opened.Size
		} else {
			var info fs.FileInfo
			f, info, err = fileio.OpenRegular(path)
			if err == nil {
				size = info.Size()
			}
		}
		if err != nil {
			return nil, "", opened, err
		}
		defer f.Close()
		if size > limit {
			return nil, "", opened, &fileio.TooLargeError{Path: path, Limit: limit}
		}
		r = f
	}
	// Room for the whole file and one byte more, which tells at once that
	// it ended where its size said (or that it grew).
	want := int64(sniffLen)
	if size >= 0 {
		want = max(want, size+1)
	}
	if int64(cap(buf)) < want {
		buf = make([]byte, 0, want)
	}
	// The first read takes a small file whole (one read, where reading the
	// head and then the rest took three), and the head of a large one, so
	// that a video costs its first bytes only.
	first := min(cap(buf), max(sniffLen, smallFile))
	if size > int64(smallFile) {
		first = sniffLen
	}
	// A file has ended when its size is read: one that grew since it was
	// stat'ed is read as it was, and the read that would return nothing is
	// saved.
	n, end := 0, size == 0
	for n < first && !end {
		m, err := r.Read(buf[n:first])
		n += m
		switch {
		case errors.Is(err, io.EOF):
			end = true
		case err != nil:
			return nil, "", opened, err
		}
		end = end || int64(n) == size
	}
	buf = buf[:n]
	if int64(n) > limit {
		return nil, "", opened, &fileio.TooLargeError{Path: name, Limit: limit}
	}
	if kind := binaryKind(buf); kind != "" && !(named && kind == nulKind) {
		return nil, kind, opened, nil
	}
	if end {
		return buf, "", opened, nil
	}
	// The rest, up to limit+1 bytes: one more than the limit is too many.
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > limit {
				return nil, "", opened, &fileio.TooLargeError{Path: name, Limit: limit}
			}
			buf = slices.Grow(buf, int(min(int64(len(buf)), limit+1-int64(len(buf)))))
		}
		room := buf[len(buf):min(cap(buf), int(min(int64(cap(buf)), limit+1)))]
		m, err := r.Read(room)
		buf = buf[:len(buf)+m]
		if int64(len(buf)) > limit {
			return nil, "", opened, &fileio.TooLargeError{Path: name, Limit: limit}
		}
		if errors.Is(err, io.EOF) || int64(len(buf)) == size {
			return buf, "", opened, nil
		}
		if err != nil {
			return nil, "", opened, err
		}
	}
}
