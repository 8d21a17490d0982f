package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlls/urlls/analysis/position"
)

// TestOutputFileNames: a file name is data, not output syntax. In text
// output a newline or a control character in it is escaped, so that one
// finding stays one line; GitHub's workflow commands escape what their
// syntax uses; SARIF gives a URI reference that no reader takes for a
// scheme.
func TestOutputFileNames(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"new\nline\x1b.md": "http://example.org/%zz\n",
		"co:lon.md":        "http://example.org/%zz\n",
		"a,b%c.md":         "http://example.org/%zz\n",
	})
	out, _, code := urlls(t, "check", filepath.Join(dir, "new\nline\x1b.md"))
	if code != 1 || strings.Count(out, "\n") != 1 || !strings.Contains(out, `new\nline\x1b.md:1:20: error: `) {
		t.Errorf("text output (exit %d):\n%s", code, out)
	}
	out, _, _ = urlls(t, "check", "--format", "github", filepath.Join(dir, "new\nline\x1b.md"), filepath.Join(dir, "a,b%c.md"))
	if strings.Count(out, "\n") != 2 || !strings.Contains(out, "new%0Aline\x1b.md,line=1,") || !strings.Contains(out, "a%2Cb%25c.md,line=1,") {
		t.Errorf("github output:\n%s", out)
	}
	wd, _ := os.Getwd()
	t.Chdir(dir)
	out, _, _ = urlls(t, "check", "--format", "sarif", "co:lon.md")
	t.Chdir(wd)
	if !strings.Contains(out, `"uri": "./co:lon.md"`) {
		t.Errorf("sarif artifact of co:lon.md:\n%s", out)
	}
}

// TestCheckCROnlyLines: a lone CR ends a line, as in the language server
// (LSP 3.17); old Mac text put every finding on line 1.
func TestCheckCROnlyLines(t *testing.T) {
	out, _, _ := urllsIn(t, "one\rtwo http://x.org/%zz\r\nthree http://x.org/%yy\r", "check", "-")
	want := "<stdin>:2:18: error: \"%zz\" is not an escape: \"%\" must be followed by two hex digits [bad-escape]\n" +
		"<stdin>:3:20: error: \"%yy\" is not an escape: \"%\" must be followed by two hex digits [bad-escape]\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// TestJSONURLCut: each JSON finding repeats its URL, cut after 256 bytes
// and marked so.
func TestJSONURLCut(t *testing.T) {
	long := "http://x.org/" + strings.Repeat("é", 200) + "|%zz"
	out, _, _ := urllsIn(t, "http://x.org/a|b "+long+"\n", "check", "--format", "json", "-")
	var findings []map[string]any
	if err := json.Unmarshal([]byte(out), &findings); err != nil {
		t.Fatal(err)
	}
	cut := 0
	for _, f := range findings {
		url := f["url"].(string)
		switch {
		case strings.HasPrefix(url, "http://x.org/a|b"):
			if _, ok := f["urlTruncated"]; ok || url != "http://x.org/a|b" {
				t.Errorf("short URL: %v", f)
			}
		default:
			cut++
			if f["urlTruncated"] != true || !strings.HasPrefix(long, strings.TrimSuffix(url, "…")) ||
				!strings.HasSuffix(url, "…") || len(url) > 256+len("…") {
				t.Errorf("long URL: %q, urlTruncated %v", url, f["urlTruncated"])
			}
		}
	}
	if cut < 2 {
		t.Errorf("%d findings of the long URL, want unsafe-char, bad-escape and non-ascii:\n%s", cut, out)
	}
}

// TestCheckMaxFindings: urlls check prints the first maxFindings findings
// and a too-many-findings finding that counts the rest; the exit code and
// --fix still go by all of them.
func TestCheckMaxFindings(t *testing.T) {
	doc := "http://a.org/~x http://b.org/~x http://c.org/~x http://d.org/%zz http://e.org/%zz\n"
	dir := writeFiles(t, map[string]string{".urlls.json": `{"maxFindings": 2}`, "doc.txt": doc})
	path := filepath.Join(dir, "doc.txt")
	out, _, code := urlls(t, "check", path)
	lines := strings.Split(strings.TrimSpace(strings.ReplaceAll(out, path, "doc.txt")), "\n")
	want := []string{
		`doc.txt:1:14: information: "~" is unsafe in RFC 1738 (RFC 3986 made it unreserved) [rfc1738-unsafe]`,
		`doc.txt:1:30: information: "~" is unsafe in RFC 1738 (RFC 3986 made it unreserved) [rfc1738-unsafe]`,
		`doc.txt:1:46: error: 3 more findings not shown, from here on (2 errors, 1 information): at most 2 findings are shown per document (maxFindings) [too-many-findings]`,
	}
	if code != 1 || strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("exit %d, output\n%s\nwant\n%s", code, strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	out, _, _ = urlls(t, "check", "--format", "json", path)
	var findings []jsonFinding
	if err := json.Unmarshal([]byte(out), &findings); err != nil || len(findings) != 3 || findings[2].Code != "too-many-findings" {
		t.Errorf("json: %v\n%s", err, out)
	}
	// --fix fixes the errors left out too.
	if _, _, code := urlls(t, "check", "--fix", path); code != 0 {
		t.Errorf("exit %d after --fix", code)
	}
	if got, _ := os.ReadFile(path); string(got) != strings.ReplaceAll(doc, "%zz", "%25zz") {
		t.Errorf("fixed:\n%s", got)
	}
	// 0: no limit.
	os.WriteFile(filepath.Join(dir, ".urlls.json"), []byte(`{"maxFindings": 0}`), 0o644)
	if out, _, _ := urlls(t, "check", path); strings.Count(out, "\n") != 3 || strings.Contains(out, "too-many-findings") {
		t.Errorf("maxFindings 0:\n%s", out)
	}
}

// TestOutputSizeLinear: the output of every format grows with the
// document, not with the product of the findings and their URLs. Each
// pathological document is checked at 1x and 4x; the 4x output must be at
// most about 4 times the 1x one (sizes, not times: deterministic).
func TestOutputSizeLinear(t *testing.T) {
	docs := map[string]func(n int) string{
		// One long URL of bad characters (a 32 KB line at 1x).
		"bad characters": func(n int) string {
			return "<URL:http://x.org/" + strings.Repeat("|^a\"{b}`c%zz~é ", n*2000) + ">\n"
		},
		// Many URLs on one line, each with a finding.
		"URLs on one line": func(n int) string { return strings.Repeat("http://x.org/a%zz ", n*2000) + "\n" },
		// A long URL that is its own finding, many times.
		"long URLs": func(n int) string {
			return strings.Repeat("http://x.org/"+strings.Repeat("a", 4000)+"%zz\n", n*10)
		},
	}
	for name, gen := range docs {
		for _, format := range []string{"text", "json", "sarif", "github"} {
			size := func(n int) int {
				out, _, _ := urllsIn(t, gen(n), "check", "--format", format, "--config", "/dev/null", "-")
				return len(out)
			}
			one, four := size(1), size(4)
			if float64(four) > 4.5*float64(one)+20_000 {
				t.Errorf("%s, %s: %d bytes at 1x, %d at 4x", name, format, one, four)
			}
		}
	}
}

func TestArtifactURIColon(t *testing.T) {
	for path, want := range map[string]string{
		"co:lon.md":      "./co:lon.md",
		"a/b:c.md":       "a/b:c.md",
		"C:/x/a.md":      "./C:/x/a.md",
		"//srv/a.md":     "/srv/a.md",
		"dir/a#b?c.md":   "dir/a%23b%3Fc.md",
		"new\nline.md":   "new%0Aline.md",
		"../up/ü x.html": "../up/%C3%BC%20x.html",
	} {
		if got := artifactURI(path); got != want {
			t.Errorf("artifactURI(%q) = %q, want %q", path, got, want)
		}
	}
}

// FuzzByteLines: byteLines gives the lines and byte columns that the
// position.Mapper gives, for offsets asked in any order, in documents with
// any line breaks and bytes (offsets inside multi-byte characters, past
// the end, before the start).
func FuzzByteLines(f *testing.F) {
	f.Add([]byte("a\nb\n\nc"), []byte{0, 2, 3, 4, 6, 1})
	f.Add([]byte("x\r\ny\rz\n"), []byte{1, 2, 3, 5, 7})
	f.Add([]byte("é\n€x\n\xe2\x82"), []byte{1, 2, 3, 4, 5, 6, 8, 9, 10})
	f.Add([]byte(strings.Repeat("line\n", 50)), []byte{255, 3, 100, 101, 7})
	f.Fuzz(func(t *testing.T, doc, offsets []byte) {
		bl := newByteLines(doc)
		m := position.New(doc)
		for i, o := range offsets {
			off := int(o) - 2 // a few before the start
			kind := i % 2
			line, col := bl.lineCol(kind, off)
			wantLine, wantCol, _ := lineCol(m, off)
			if line != wantLine || col != wantCol {
				t.Fatalf("doc %q, offset %d (kind %d, after %v): line %d, column %d; the Mapper says %d, %d", doc, off, kind, offsets[:i], line, col, wantLine, wantCol)
			}
		}
	})
}
