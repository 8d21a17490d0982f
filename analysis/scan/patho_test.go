package scan

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/urlls/urlls/analysis/samples"
)

// pathological are inputs that make naive tokenizers quadratic (a search
// to the end of the input repeated at every opener) or deep (a stack per
// bracket): each is repeated to the size under test.
var pathological = []string{
	"(", ")", "<", ">", "[", "]", "![", "](", "[](", "[](x \"", "[](x '", "[](x (", "[]( <", "`", "`` `", "\\",
	"<!--", "<?", "<!a", "<![CDATA[", "<a href=\"", "<a href='", "<a b=\"<a b=\"", "<a ", "</a", "&", "&#", "&amp",
	"<URL:", "<URL:x\n", "<x:", "<http://a ", "http://", "http://a.com/", "http://a.com/(", "http://a.com/)",
	"a", " ", "\n", "\n\n", "> ", "- ", "1. ", "    ", "```\n", "~~~\n", "| a |\n|---|\n", "[a]: ", "[a]:\n",
	"\"", "'", "/*", "*/", "//", "#", "--[[", "[[", "r#\"", "\"\"\"", "'''", "${", "%s", "url(", "@import ",
	"<script>", "</script", "<style>", "<textarea>", "*", "_", "~", ".", "\x00", "\xff", "。", "\u00a0",
	"urlls-disable-line ", "<!-- urlls-disable-line -->", "// urlls-disable-next-line\n",
	"mailto:a", "mailto:", "news:a", "urn:ab", "data:a", "tag:a", "about:a", "http::a.", "https//", "http:/", "_",
	"http://a/{{", "http://a/{{ ", "{{", "}}", "{%", "<%", "http://a/<b", "/<b", "<mailto:a@b.c\n ", "<http://a\n ",
	".. ", ".. _a: ", "..\n ", "`", "`a <", "``a", "x::\n\n ", ".. code::\n ", ".. image:: ", "   :target: ", ">>> ",
	"<a href=\"{{", "<a href=\"{{ \"", "{{<", "{{ \"<a href=", "{%<", "<a href={{", "<img srcset=\"{{ x }} ", "<a ping=\"{{",
	"link:", "image:", "kbd:", "link:x", "https://a",
	"[a]({{ ", "[a]({{ }}", "[a](/x y ", "[a](/x y {{", "<{{ a", "<{{%", "[a](<{{ ", "{{", "{%", "[a]: {{ x\n",
	"[a]: /u '\n", "[\n", "[a]:\n", "[a]: /u\n'", "[a](/u ' ",
	"<pre><div></kbd>", // blocks in code, and end tags of no open element
}

// pathoMarkdown are Markdown inputs made of a first string repeated over
// half the size, "a", the second repeated over the other half, then the
// third: deep containers and then many lines matched with all of them (a
// blank line continues every open list item), many reference definitions
// and then many references, or many link openers and then many
// destinations whose template actions one close delimiter at the end
// closes.
var pathoMarkdown = [][3]string{
	{"1. ", "\n"}, {"+ ", "\n"}, {"> ", "\n>"}, {"+ ", "\n  x"}, {"> - ", "\n>"}, {"- a\n  ", "\n"}, {"-\t", "\n\t"},
	{"+ ", "\n  | a |\n  | - |"}, {"+ ", "\n  <div>"}, {"1. ", "\n   ```"},
	{"[a]: /u\n\n", "[a][a][", ""}, {"[a]: /u\n\n", "[[a]", "]]"}, {"[a]: /u\n\n[", "[a] ", "]"}, {"[a]: /u\n\n", "![a][", "]"},
	{"[", "]({{ ", "}}"}, {"[", "](a b {{ ", "}}"}, {"[", "](<{{ ", "}}>"}, {"", "<{{ ", "}}"}, {"[", "]({% ", "%}"},
}

var pathoLanguages = []string{"plaintext", "markdown", "html", "go", "python", "rust", "lua", "css", "yaml", "sql", "shellscript", "restructuredtext", "asciidoc"}

// TestPathological scans the inputs of the brief at 10 MB (1 MB with
// -short) in every scanner: 10 MB of "(", "<" or "[", and a line of 10 MB
// without a space, and every other pathological input at 256 KB. It asserts
// no time (benchmarks measure; see BenchmarkPathological), but a quadratic
// scanner would not finish before the test binary's timeout.
func TestPathological(t *testing.T) {
	size := 10 << 20
	if testing.Short() {
		size = 1 << 20
	}
	for _, p := range []string{"(", "<", "[", "http://example.com/a"} {
		doc := []byte(strings.Repeat(p, size/len(p)))
		for _, lang := range []string{"plaintext", "markdown", "html", "go"} {
			r := Scan(doc, lang)
			checkInvariants(t, doc, r.Candidates)
			checkSuppressions(t, doc, r.Suppressions)
		}
	}
	for _, p := range pathoMarkdown {
		doc := []byte(strings.Repeat(p[0], (128<<10)/max(1, len(p[0]))) + "a" + strings.Repeat(p[1], (128<<10)/len(p[1])) + p[2])
		r := Scan(doc, "markdown")
		checkInvariants(t, doc, r.Candidates)
		checkSuppressions(t, doc, r.Suppressions)
	}
	for _, p := range pathological {
		doc := []byte(strings.Repeat(p, (256<<10)/len(p)))
		for _, lang := range pathoLanguages {
			r := Scan(doc, lang)
			checkInvariants(t, doc, r.Candidates)
			checkSuppressions(t, doc, r.Suppressions)
		}
	}
}

// BenchmarkPathological reports the throughput of Scan on 4 MB of some of
// the pathological inputs: it must not depend on the size.
func BenchmarkPathological(b *testing.B) {
	for _, p := range []string{"(", "<", "[", "](", "`", "<a href=\"", "&amp", "<URL:", "http://a.com/(", "a", "[a]({{ ", "[a](/x y "} {
		for _, lang := range []string{"plaintext", "markdown", "html", "go"} {
			doc := []byte(strings.Repeat(p, (4<<20)/len(p)))
			b.Run(lang+"/"+strings.NewReplacer("/", "_", "\n", "nl").Replace(p), func(b *testing.B) {
				b.SetBytes(int64(len(doc)))
				for b.Loop() {
					Scan(doc, lang)
				}
			})
		}
	}
}

// pathoLines are issue 12's pathological lines, as the checks' benchmark
// (BenchmarkPathologicalRatio in analysis/checks) has them: one URL of
// 100k "%", and 40k URLs on one line, the same or all different.
var pathoLines = []struct {
	name string
	line string
}{
	{"percents", "http://x.org/" + strings.Repeat("%", 100_000) + "\n"},
	{"urls", strings.Repeat("http://x.org/a%zz ", 40_000) + "\n"},
	{"urls-distinct", distinctBadURLs(40_000)},
}

// distinctBadURLs is a line of n different URLs, numbered, each with a bad
// escape.
func distinctBadURLs(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "http://x.org/%d/a%%zz ", i)
	}
	b.WriteString("\n")
	return b.String()
}

// inMode puts text where the scanner of lang reads it as running text: as
// it is in plain text and Markdown, in a block comment in Go, in a <p> in
// HTML.
func inMode(text, lang string) []byte {
	switch lang {
	case "go":
		return []byte("/*\n" + text + "\n*/\n")
	case "html":
		return []byte("<p>\n" + text + "\n</p>\n")
	}
	return []byte(text)
}

// BenchmarkScanPathologicalRatio scans each pathological line (pathoLines)
// and the ordinary prose of the same size (samples.Prose) in turn, in
// every mode, so that both see the same load on a busy machine, and
// reports the ratio of their times: the scanner's share of issue 12's "≤ 3x
// an ordinary document of the same size". One op is one scan of each.
func BenchmarkScanPathologicalRatio(b *testing.B) {
	for _, tc := range pathoLines {
		prose := string(samples.Prose(len(tc.line)))
		for _, lang := range []string{"plaintext", "markdown", "go", "html"} {
			patho, ord := inMode(tc.line, lang), inMode(prose, lang)
			b.Run(tc.name+"/"+lang, func(b *testing.B) {
				var tp, to time.Duration
				for i := 0; i < b.N; i++ {
					t0 := time.Now()
					Scan(patho, lang)
					t1 := time.Now()
					Scan(ord, lang)
					tp += t1.Sub(t0)
					to += time.Since(t1)
				}
				b.ReportMetric(float64(tp.Nanoseconds())/float64(b.N), "pathological-ns")
				b.ReportMetric(float64(to.Nanoseconds())/float64(b.N), "ordinary-ns")
				b.ReportMetric(float64(tp)/float64(to), "pathological/ordinary")
			})
		}
	}
}
