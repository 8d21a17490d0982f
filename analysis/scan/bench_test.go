package scan

import (
	"fmt"
	"strings"
	"testing"
)

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
	b.ReportMetric(float64(len(Scan(doc, "markdown"))), "urls/doc")
	for b.Loop() {
		Scan(doc, "markdown")
	}
}

func TestGenMarkdown(t *testing.T) {
	doc := genMarkdown(100 << 10)
	if len(doc) < 100<<10 || len(doc) > 110<<10 {
		t.Errorf("generated %d bytes", len(doc))
	}
	got := Scan(doc, "markdown")
	checkInvariants(t, doc, got)
	if string(doc) != string(genMarkdown(100<<10)) {
		t.Error("genMarkdown is not deterministic")
	}
	t.Logf("%d bytes, %d candidates", len(doc), len(got))
}
