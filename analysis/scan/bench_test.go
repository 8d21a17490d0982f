package scan

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// realworldDir holds real documentation from public repositories, beside
// the checkout (../shared/corpus/realworld, see its README).
const realworldDir = "../../../shared/corpus/realworld"

// genMarkdown returns a realistic Markdown document of about size bytes,
// the same every time: headings, paragraphs with inline links, images,
// bare URLs, code spans, reference definitions, lists, tables, fenced code
// and a little raw HTML, with URLs of every scheme.
func genMarkdown(size int) []byte {
	state := uint32(1)
	rnd := func(n int) int { // a fixed linear congruential generator
		state = state*1664525 + 1013904223
		return int(state>>8) % n
	}
	words := strings.Fields("the a URL scheme host path query fragment document link reference parser grammar " +
		"escape character reserved unsafe relative absolute resolution base network server client editor")
	urls := []string{
		"https://example.com/docs/guide.html", "http://www.example.org/a/b/c?x=1&y=2#frag",
		"ftp://ftp.example.net/pub/file.tar.gz", "mailto:someone@example.com", "news:comp.infosystems.www",
		"https://en.wikipedia.org/wiki/Uniform_Resource_Locator_(disambiguation)", "../other/page.md",
		"#section-2", "/absolute/path.png", "http://example.com/bad%zzescape", "gopher://gopher.example/1/x",
	}
	sentence := func(b *strings.Builder) {
		n := 6 + rnd(10)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(' ')
			}
			switch rnd(14) {
			case 0:
				fmt.Fprintf(b, "[%s %s](%s)", words[rnd(len(words))], words[rnd(len(words))], urls[rnd(len(urls))])
			case 1:
				fmt.Fprintf(b, "%s", urls[rnd(5)])
			case 2:
				fmt.Fprintf(b, "`%s()`", words[rnd(len(words))])
			case 3:
				fmt.Fprintf(b, "<%s>", urls[rnd(5)])
			case 4:
				fmt.Fprintf(b, "**%s**", words[rnd(len(words))])
			default:
				b.WriteString(words[rnd(len(words))])
			}
		}
		b.WriteString(". ")
	}
	var b strings.Builder
	for sec := 1; b.Len() < size; sec++ {
		fmt.Fprintf(&b, "## Section %d\n\n", sec)
		for p := 0; p < 3; p++ {
			for s := 0; s < 4; s++ {
				sentence(&b)
				if rnd(3) == 0 {
					b.WriteByte('\n')
				}
			}
			b.WriteString("\n\n")
		}
		for i := 0; i < 4; i++ {
			b.WriteString("- ")
			sentence(&b)
			b.WriteByte('\n')
		}
		b.WriteString("\n| name | link |\n| --- | --- |\n")
		for i := 0; i < 3; i++ {
			fmt.Fprintf(&b, "| %s | %s |\n", words[rnd(len(words))], urls[rnd(len(urls))])
		}
		fmt.Fprintf(&b, "\n```go\nresp, err := http.Get(%q) // %s\n```\n\n", urls[rnd(5)], urls[rnd(5)])
		fmt.Fprintf(&b, "![figure %d](%s \"title\")\n\n", sec, urls[rnd(len(urls))])
		fmt.Fprintf(&b, "<a href=\"%s\">raw html</a> &amp; more\n\n", urls[rnd(len(urls))])
		fmt.Fprintf(&b, "[ref%d]: %s \"Reference %d\"\n\n", sec, urls[rnd(len(urls))], sec)
	}
	return []byte(b.String())
}

func BenchmarkScanMarkdown(b *testing.B) {
	doc := genMarkdown(100 << 10)
	b.SetBytes(int64(len(doc)))
	b.ReportMetric(float64(len(Scan(doc, "markdown").Candidates)), "urls/doc")
	for b.Loop() {
		Scan(doc, "markdown")
	}
}

func TestGenMarkdown(t *testing.T) {
	doc := genMarkdown(100 << 10)
	if len(doc) < 100<<10 || len(doc) > 110<<10 {
		t.Errorf("generated %d bytes", len(doc))
	}
	got := Scan(doc, "markdown").Candidates
	checkInvariants(t, doc, got)
	if string(doc) != string(genMarkdown(100<<10)) {
		t.Error("genMarkdown is not deterministic")
	}
	t.Logf("%d bytes, %d candidates", len(doc), len(got))
}

// realworldMarkdown returns the Markdown documents of
// ../shared/corpus/realworld, or skips the benchmark or test when the
// corpus is not beside the checkout.
func realworldMarkdown(b testing.TB) [][]byte {
	b.Helper()
	var docs [][]byte
	err := filepath.WalkDir(realworldDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || LanguageForPath(path) != "markdown" {
			return err
		}
		doc, err := os.ReadFile(path)
		docs = append(docs, doc)
		return err
	})
	if err != nil || len(docs) == 0 {
		b.Skipf("no Markdown in %s: %v", realworldDir, err)
	}
	return docs
}

// BenchmarkScanRealworldMarkdown scans every Markdown document of the
// real-world corpus once per iteration: real documents, with their real mix
// of prose, links, code and HTML.
func BenchmarkScanRealworldMarkdown(b *testing.B) {
	docs := realworldMarkdown(b)
	n, urls := 0, 0
	for _, doc := range docs {
		n += len(doc)
		urls += len(Scan(doc, "markdown").Candidates)
	}
	b.SetBytes(int64(n))
	b.ReportMetric(float64(urls), "urls/op")
	for b.Loop() {
		for _, doc := range docs {
			Scan(doc, "markdown")
		}
	}
}

// genProse returns about size bytes of plain prose with a URL every few
// kilobytes, the same every time: the sparse case, where the scan should
// cost little more than reading the bytes.
func genProse(size int) []byte {
	words := strings.Fields("The tokenizer reads the document once, and most of what it reads is prose: " +
		"sentences, with commas, parentheses (like these), numbers such as 3.14 or 1,000, and the odd " +
		"note: a colon, a slash and/or a dash - and nothing that looks like a scheme.")
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		b.WriteString(words[i%len(words)])
		switch {
		case i%400 == 399:
			b.WriteString(" https://example.com/some/path?q=1 ")
		case i%13 == 12:
			b.WriteString("\n")
		default:
			b.WriteByte(' ')
		}
	}
	return []byte(b.String())
}

// The languages of BenchmarkScanProse: every mode reads the same prose.
var proseLangs = []string{"markdown", "html", "plaintext", "restructuredtext", "asciidoc", "go", "python"}

// BenchmarkScanProse scans sparse prose in every language mode (in code,
// the prose is in a block comment). Compare with BenchmarkIndexByteBaseline
// over the same bytes.
func BenchmarkScanProse(b *testing.B) {
	prose := genProse(100 << 10)
	for _, lang := range proseLangs {
		doc := prose
		switch lang {
		case "go":
			doc = append(append([]byte("/*\n"), prose...), "\n*/\n"...)
		case "python":
			doc = append(append([]byte(`"""`+"\n"), prose...), "\n\"\"\"\n"...)
		}
		b.Run(lang, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportMetric(float64(len(Scan(doc, lang).Candidates)), "urls/doc")
			for b.Loop() {
				Scan(doc, lang)
			}
		})
	}
}

// BenchmarkIndexByteBaseline is the floor of any scan: finding every ":" of
// the prose of BenchmarkScanProse with bytes.IndexByte.
func BenchmarkIndexByteBaseline(b *testing.B) {
	doc := genProse(100 << 10)
	b.SetBytes(int64(len(doc)))
	n := 0
	for b.Loop() {
		for i := 0; ; {
			k := bytes.IndexByte(doc[i:], ':')
			if k < 0 {
				break
			}
			n++
			i += k + 1
		}
	}
	sinkInt = n
}

var sinkInt int
