package scan

import (
	"strings"
	"testing"
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
