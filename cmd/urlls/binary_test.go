package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"image"
	"image/png"
	"path/filepath"
	"strings"
	"testing"
)

// badURL is a URL with an error: a file holding it is reported if checked.
const badURL = "http://example.org/%zz"

// binaryFiles are files of each binary kind urlls recognises, by name, with
// the kind binaryKind must give. Each also holds badURL, as binary files do
// hold text, so that checking one by mistake shows.
func binaryFiles(t *testing.T) map[string]struct{ content, kind string } {
	t.Helper()
	var pngBuf bytes.Buffer
	if err := png.Encode(&pngBuf, image.NewRGBA(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	var gzBuf bytes.Buffer
	gz := gzip.NewWriter(&gzBuf)
	gz.Write([]byte(badURL))
	gz.Close()
	var zipBuf bytes.Buffer
	zw := zip.NewWriter(&zipBuf)
	w, _ := zw.Create("word/document.xml")
	w.Write([]byte(badURL))
	zw.Close()
	var tarBuf bytes.Buffer
	tw := tar.NewWriter(&tarBuf)
	tw.WriteHeader(&tar.Header{Name: "doc.md", Mode: 0o644, Size: int64(len(badURL))})
	tw.Write([]byte(badURL))
	tw.Close()
	pdf := "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj << /URI (" + badURL + ") >> endobj\n"
	return map[string]struct{ content, kind string }{
		"doc.pdf":        {pdf, "PDF"},
		"logo.ai":        {pdf, "PDF"}, // Illustrator 9 and later write PDF
		"ascii.pdf":      {"%PDF-1.4\n1 0 obj << /URI (" + badURL + ") >> endobj\n", "PDF"},
		"image.png":      {pngBuf.String() + badURL, "PNG image"},
		"photo.jpg":      {"\xFF\xD8\xFF\xE0\x00\x10JFIF\x00\x01" + badURL, "JPEG image"},
		"anim.gif":       {"GIF89a\x01\x00\x01\x00\x80\x00\x00" + badURL, "GIF image"},
		"pic.webp":       {"RIFF\x24\x00\x00\x00WEBPVP8 \x18\x00\x00\x00" + badURL, "WebP image"},
		"pic.bmp":        {"BM\x3A\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00" + badURL, "BMP image"},
		"favicon.ico":    {"\x00\x00\x01\x00\x01\x00\x10\x10" + badURL, "ICO image"},
		"scan.tiff":      {"II*\x00\x08\x00\x00\x00" + badURL, "TIFF image"},
		"archive.zip":    {zipBuf.String(), "zip archive"},
		"letter.docx":    {zipBuf.String(), "zip archive"},
		"notes.gz":       {gzBuf.String(), "gzip data"},
		"notes.bz2":      {"BZh91AY&SY\x4e\xec\xe8\x36\x00\x00" + badURL, "bzip2 data"},
		"notes.xz":       {"\xFD7zXZ\x00\x00\x04\xE6\xD6\xB4\x46" + badURL, "xz data"},
		"notes.zst":      {"\x28\xB5\x2F\xFD\x04\x58" + badURL, "zstd data"},
		"notes.7z":       {"7z\xBC\xAF\x27\x1C\x00\x04" + badURL, "7z archive"},
		"notes.rar":      {"Rar!\x1A\x07\x01\x00" + badURL, "RAR archive"},
		"docs.tar":       {tarBuf.String(), "tar archive"},
		"font.woff":      {"wOFF\x00\x01\x00\x00\x00\x00\x04\x00" + badURL, "WOFF font"},
		"font.woff2":     {"wOF2\x00\x01\x00\x00\x00\x00\x04\x00" + badURL, "WOFF2 font"},
		"font.otf":       {"OTTO\x00\x0A\x00\x80\x00\x03" + badURL, "OpenType font"},
		"font.ttf":       {"\x00\x01\x00\x00\x00\x0A\x00\x80" + badURL, "TrueType font"},
		"prog":           {"\x7FELF\x02\x01\x01\x00\x00\x00" + badURL, "ELF executable"},
		"prog.dylib":     {"\xCF\xFA\xED\xFE\x07\x00\x00\x01" + badURL, "Mach-O executable"},
		"prog.exe":       {"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xFF\xFF\x00\x00" + badURL, "Windows executable"},
		"Main.class":     {"\xCA\xFE\xBA\xBE\x00\x00\x00\x41" + badURL, "Mach-O universal binary or Java class"},
		"data.sqlite":    {"SQLite format 3\x00\x10\x00\x01\x01" + badURL, "SQLite database"},
		"module.wasm":    {"\x00asm\x01\x00\x00\x00" + badURL, "WebAssembly"},
		"figure.eps":     {"\xC5\xD0\xD3\xC6\x1E\x00\x00\x00" + badURL, "EPS with a binary preview"},
		"data.bin":       {"some\x00thing " + badURL, "NUL bytes"},
		"utf16.txt":      {"\xFF\xFEh\x00t\x00t\x00p\x00", "UTF-16 text"},
		"nul-late.md":    {strings.Repeat("x", 8000) + "\x00" + badURL, "NUL bytes"},
		"zip-named.txt":  {zipBuf.String(), "zip archive"}, // the content decides, not the name
		"image-named.md": {pngBuf.String(), "PNG image"},
	}
}

func TestBinaryKind(t *testing.T) {
	for name, f := range binaryFiles(t) {
		t.Run(name, func(t *testing.T) {
			if got := binaryKind([]byte(f.content)); got != f.kind {
				t.Errorf("binaryKind = %q, want %q", got, f.kind)
			}
		})
	}
	// Text that a careless sniffer takes for binary data.
	for _, tc := range []struct{ name, content string }{
		{"empty", ""},
		{"markdown", "# Title\n\nSee " + badURL + ".\n"},
		{"Latin-1 is text", "Caf\xe9 cr\xe8me \xe0 " + badURL + " \xa9 1994\n"},
		{"Windows-1252 quotes", "\x93quoted\x94 " + badURL + "\n"},
		{"UTF-8 with a byte order mark", "\xEF\xBB\xBF# Title " + badURL + "\n"},
		{"starts like BMP", "BMW and BMX " + badURL + "\n"},
		{"starts like MP3", "ID3 tags hold " + badURL + "\n"},
		{"starts like OpenType", "OTTO is a name " + badURL + "\n"},
		{"starts like a DOS executable", "MZ is a prefix " + badURL + "\n"},
		{"starts like a GIF", "GIF89a is a format " + badURL + "\n"},
		{"EOT signature by chance", strings.Repeat("a", 34) + "LP and " + badURL + "\n"},
		{"PostScript is text", "%!PS-Adobe-3.0\n% " + badURL + "\n"},
		{"mentions a PDF header", "PDF files start with %PDF-1.7 " + badURL + "\n"},
		{"escape sequences", "\x1b[1mbold\x1b[0m " + badURL + "\f\n"},
		{"ustar too early", "ustar " + badURL + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := binaryKind([]byte(tc.content)); got != "" {
				t.Errorf("binaryKind = %q, want text", got)
			}
		})
	}
}

// TestCheckBinary: binary files are skipped silently in a walk, and named on
// standard error, without failing the run, when given by name; a file whose
// only sign of binary data is a NUL byte is checked when given by name (as
// the language server checks it), never skipped silently.
func TestCheckBinary(t *testing.T) {
	bins := binaryFiles(t)
	files := map[string]string{"ok.md": "fine http://example.org/\n"}
	for name, f := range bins {
		files["bin/"+name] = f.content
	}
	dir := writeFiles(t, files)

	out, errOut, code := urlls(t, "check", dir)
	if code != 0 || out != "" || errOut != "" {
		t.Errorf("walk: exit %d, stdout %q, stderr %q; want the binary files skipped silently", code, out, errOut)
	}

	for name, f := range bins {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, "bin", name)
			out, errOut, code := urlls(t, "check", path, filepath.Join(dir, "ok.md"))
			if f.kind == nulKind {
				if code != 1 || !strings.HasPrefix(out, path+":") || !strings.Contains(out, "[bad-escape]") || errOut != "" {
					t.Errorf("exit %d, stdout %q, stderr %q; want the file checked", code, out, errOut)
				}
				return
			}
			want := "urlls: check: " + path + ": binary file (" + f.kind + "), not checked\n"
			if f.kind == utf16Kind {
				want = "urlls: check: " + path + ": UTF-16 text, not checked (urlls reads UTF-8)\n"
			}
			if code != 0 || out != "" || errOut != want {
				t.Errorf("exit %d, stdout %q, stderr %q; want 0, nothing and %q", code, out, errOut, want)
			}
		})
	}

	// Standard input is named too.
	_, errOut, code = urllsIn(t, bins["doc.pdf"].content, "check", "-")
	if code != 0 || errOut != "urlls: check: <stdin>: binary file (PDF), not checked\n" {
		t.Errorf("stdin: exit %d, stderr %q", code, errOut)
	}
	// A binary file does not hide the errors of the others.
	dir2 := writeFiles(t, map[string]string{"bad.md": badURL + "\n", "x.pdf": bins["doc.pdf"].content})
	out, errOut, code = urlls(t, "check", filepath.Join(dir2, "x.pdf"), filepath.Join(dir2, "bad.md"))
	if code != 1 || !strings.Contains(out, "[bad-escape]") || !strings.Contains(errOut, "binary file (PDF)") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// FuzzBinaryKind: binaryKind's shortcut for a head without a binary byte
// decides as net/http.DetectContentType does (sniffedKind, after the
// signatures).
func FuzzBinaryKind(f *testing.F) {
	for _, s := range []string{"", "text", "%PDF-1.7\n", "%PDF", "\xFE\xFF\x00a", "\xFF\xFEa\x00", "\xFE\xFF", "\xFF\xFEab",
		"GIF89a text", "BZh91AY&SY", "<html>x</html>", "\xEF\xBB\xBFtext", "a\x00b", "\x89PNG\r\n\x1a\n", "ID3\x03\x00",
		"%!PS-Adobe-3.0\n", "wOFF\x00\x01", strings.Repeat("x", 600) + "\x01"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, head []byte) {
		want := ""
		h := head[:min(len(head), sniffLen)]
		for _, s := range signatures {
			if s.match(h) {
				want = s.kind
				break
			}
		}
		if want == "" {
			want = sniffedKind(h)
		}
		if got := binaryKind(head); got != want {
			t.Errorf("binaryKind(%q) = %q, DetectContentType's way %q", head, got, want)
		}
	})
}

// TestHasBinaryByte: every byte value, at every place of a word and after
// the last whole word, against the byte-at-a-time definition; and beside
// the bytes just above and below the ranges, which the word test must not
// mistake for binary ones.
func TestHasBinaryByte(t *testing.T) {
	for c := range 256 {
		for n := 1; n <= 20; n++ {
			for at := range n {
				b := bytes.Repeat([]byte("a"), n)
				b[at] = byte(c)
				if got, want := hasBinaryByte(b), hasBinaryByteSlow(b); got != want {
					t.Fatalf("hasBinaryByte(%q) = %v, want %v", b, got, want)
				}
			}
		}
	}
	for _, s := range []string{"\t\n\x0C\r\x1B \x7F\x80\xFF", "line one\nline two\r\n\tindented\n", strings.Repeat("é\n\t\x1B[0m", 40)} {
		if hasBinaryByte([]byte(s)) {
			t.Errorf("hasBinaryByte(%q) = true", s)
		}
	}
}

// FuzzHasBinaryByte: the word-at-a-time search says what the byte-at-a-time
// one says.
func FuzzHasBinaryByte(f *testing.F) {
	for _, s := range []string{"", "text\n", "\x00", "aaaaaaa\x1F", "aaaaaaaa\x0B", "\t\n\r\x0C\x1B\x1B\x1B\x1B\x01"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := hasBinaryByte(b), hasBinaryByteSlow(b); got != want {
			t.Errorf("hasBinaryByte(%q) = %v, want %v", b, got, want)
		}
	})
}
