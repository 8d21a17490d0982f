package scan

import (
	"fmt"
	"strings"
	"testing"
)

// A test document marks each expected candidate's span with ⟦ and ⟧ (which
// are removed before scanning); w gives what else to expect of it.
type w struct {
	ctx  Context
	rel  bool
	unr  bool   // Unrendered
	cont bool   // Continued
	text string // Text, when it differs from the marked bytes
	offs []int  // Offsets relative to Start, when Text differs (End is implied)
}

type scanCase struct {
	name, lang, doc string
	want            []w
}

// unmark removes the ⟦ ⟧ marks of s and returns the spans they marked.
func unmark(t *testing.T, s string) (string, [][2]int) {
	t.Helper()
	var b strings.Builder
	var spans [][2]int
	open := -1
	for _, r := range s {
		switch r {
		case '⟦':
			if open >= 0 {
				t.Fatalf("nested ⟦ in %q", s)
			}
			open = b.Len()
		case '⟧':
			if open < 0 {
				t.Fatalf("⟧ without ⟦ in %q", s)
			}
			spans = append(spans, [2]int{open, b.Len()})
			open = -1
		default:
			b.WriteRune(r)
		}
	}
	if open >= 0 {
		t.Fatalf("unclosed ⟦ in %q", s)
	}
	return b.String(), spans
}

func runScanCases(t *testing.T, cases []scanCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc, spans := unmark(t, tc.doc)
			if len(spans) != len(tc.want) {
				t.Fatalf("test has %d marked spans and %d wants", len(spans), len(tc.want))
			}
			got := Scan([]byte(doc), tc.lang).Candidates
			checkInvariants(t, []byte(doc), got)
			for i := 0; i < max(len(got), len(spans)); i++ {
				if i >= len(got) {
					t.Errorf("missing candidate %d: %q (%s)", i, doc[spans[i][0]:spans[i][1]], tc.want[i].ctx)
					continue
				}
				g := got[i]
				if i >= len(spans) {
					t.Errorf("extra candidate %d: %s", i, show(g))
					continue
				}
				wt, sp := tc.want[i], spans[i]
				text := wt.text
				if text == "" {
					text = doc[sp[0]:sp[1]]
				}
				var offs []int
				if wt.offs != nil {
					offs = make([]int, len(wt.offs), len(wt.offs)+1)
					for k, o := range wt.offs {
						offs[k] = sp[0] + o
					}
					offs = append(offs, sp[1])
				}
				want := Candidate{Start: sp[0], End: sp[1], Text: text, Offsets: offs, Context: wt.ctx, Relative: wt.rel, Unrendered: wt.unr, Continued: wt.cont}
				if show(g) != show(want) {
					t.Errorf("candidate %d:\n got %s\nwant %s", i, show(g), show(want))
				}
			}
		})
	}
}

func show(c Candidate) string {
	u := ""
	if c.Unrendered {
		u = " unrendered"
	}
	if c.Continued {
		u += " continued"
	}
	return fmt.Sprintf("{%d-%d %q offs=%v %s rel=%v%s}", c.Start, c.End, c.Text, c.Offsets, c.Context, c.Relative, u)
}

// offs builds relative Offsets: one entry per Text byte that maps to
// consecutive document bytes from the given start, for each run.
func offs(runs ...[2]int) []int {
	var o []int
	for _, r := range runs {
		for k := r[0]; k < r[0]+r[1]; k++ {
			o = append(o, k)
		}
	}
	return o
}

func TestPlainText(t *testing.T) {
	runScanCases(t, []scanCase{
		{"bare", "plaintext", "My ⟦http://example.com⟧ site", []w{{}}},
		{"trailing period", "plaintext", "See ⟦http://example.com/foo_bar.jpg⟧.", []w{{}}},
		{"escaped quotes", "plaintext", `output="Get \"⟦http://10.0.99.125:3090/-/ready⟧\": dial" '\"⟦https://example.com/⟧\",' ⟦http://a.org/b\⟧ c`, []w{{ctx: Quoted}, {ctx: Quoted}, {}}},
		{"trailing punctuation repeatedly", "plaintext", "⟦http://example.com/123⟧!!!?.,;:", []w{{}}},
		{"ellipsis inside kept", "plaintext", "⟦https://github.com/a/compare/360b...f580⟧ ok", []w{{}}},
		{"star underscore tilde", "plaintext", "**⟦http://example.com/foobar⟧** _⟦http://a.org/x⟧_ ~~⟦http://b.org⟧~~", []w{{}, {}, {}}},
		{"balanced parens kept", "plaintext", "⟦https://en.wikipedia.org/wiki/Foo_(bar)⟧ and (⟦http://x.org/a_(b)⟧)", []w{{}, {}}},
		{"unbalanced paren dropped", "plaintext", "(see ⟦http://example.com/foo⟧)", []w{{}}},
		{"paren then period", "plaintext", "(Visit ⟦http://google.com/ok⟧.)", []w{{}}},
		{"unmatched closer cuts", "plaintext", "[a](⟦https://www.ibm.com⟧)[b](⟦mailto:someone@ibm.com⟧)", []w{{}, {}}},
		{"brackets and braces", "plaintext", "⟦http://foo.com/blah_[other]⟧ {⟦http://x.org/{I'm_king}⟧} [⟦http://y.org⟧]", []w{{}, {}, {}}},
		{"bad characters do not end", "plaintext", "⟦http://example.com/a|b{c}^d\\e%zz/ä⟧ end", []w{{}}},
		{"double quote ends", "plaintext", `⟦http://foo.com/blah⟧_"doublequoted"`, []w{{}}},
		{"single quotes balanced", "plaintext", "⟦http://foo.com/blah_'singlequoted'⟧ ⟦http://x.com/I'm_king⟧", []w{{}, {}}},
		{"quoted double", "plaintext", `say "⟦http://google.com⟧" now`, []w{{ctx: Quoted}}},
		{"quoted single ends at quote", "plaintext", `'⟦http://google.com/it⟧'s'`, []w{{ctx: Quoted}}},
		{"quoted, white space ends", "plaintext", `"⟦http://a.com/b⟧ c"`, []w{{ctx: Quoted}}},
		{"backquote ends", "plaintext", "`⟦http://a.com⟧`", []w{{}}},
		{"scheme case", "plaintext", "⟦HTTP://GOOGLE.COM⟧ ⟦MAILTO:NAME@EXAMPLE.COM⟧", []w{{}, {}}},
		{"IP literals are not AsciiDoc macros", "plaintext", "⟦http://[::1]:8080/x⟧\n⟦http://[v7.abc]/x⟧\n⟦http://[fe80::1%25eth0]/⟧\n⟦http://example.com/~a⟧\n", []w{{}, {}, {}, {}}},
		{"all known schemes", "plaintext",
			"⟦ftp://a.b/c⟧ ⟦file:///etc/x⟧ ⟦gopher://g.h/1⟧ ⟦news:comp.infosystems.www⟧ ⟦nntp://n.o/g/1⟧ " +
				"⟦telnet://t.u⟧ ⟦wais://w.x/db⟧ ⟦prospero://p.q/r⟧ ⟦https://s.t⟧", []w{{}, {}, {}, {}, {}, {}, {}, {}, {}}},
		{"reserved schemes need //", "plaintext", "mid:day cid:x ⟦afs://cell/x⟧ ⟦z39.50://h/db⟧ ⟦tn3270://h⟧", []w{{}, {}, {}}},
		{"any scheme before :// is a candidate", "plaintext", "⟦hppt://example.com⟧ ⟦irc://x.y⟧ path:to:file.pm", []w{{}, {}}},
		{"word boundary", "plaintext", "⟦xhttp://a.com⟧ 1.http://b.com ⟦a-http://c.com⟧ _⟦http://d.com⟧ text:⟦http://e.com/⟧ x@⟦http://vk.com⟧ a_http://f.com", []w{{}, {}, {}, {}, {}}},
		{"CJK text before", "plaintext", "詳細は⟦http://example.com/a⟧。次", []w{{}}},
		{"CJK punctuation ends", "plaintext", "「⟦http://example.com/a⟧」、（⟦https://b.jp/c⟧）｜⟦http://google.com⟧｜bar", []w{{}, {}, {}}},
		{"unicode quotes and spaces end", "plaintext", "“⟦http://a.com/x⟧” «⟦http://b.com⟧» ⟦http://c.com/d⟧\u00a0e ⟦http://d.com⟧\u3000x", []w{{ctx: Quoted}, {}, {}, {}}},
		{"non-ASCII letters and dashes stay", "plaintext", "⟦https://en.wikipedia.org/wiki/Michelson–Morley⟧ ⟦http://✪df.ws/123⟧ ⟦http://lyricstranslate.com/someone-you-നിന്നെ-പോലൊരാള്‍.html⟧", []w{{}, {}, {}}},
		{"nothing after the scheme", "plaintext", "http:// http://. http://.. http://# http://?? ftp:", nil},
		{"trailing dash kept", "plaintext", "⟦http://www.bloomberg.com/a-⟧ ⟦http://example.com/foo-dot-⟧.", []w{{}, {}}},
		{"ellipsis character dropped", "plaintext", "⟦http://a.com/b⟧…", []w{{}}},
		{"url inside url is one", "plaintext", "⟦http://a.com/r?to=http://b.com/x⟧", []w{{}}},
		{"invalid UTF-8 stays", "plaintext", "⟦http://a.com/\xff\xfe⟧ x", []w{{}}},
		{"controls end", "plaintext", "⟦http://a.com/b⟧\x00c ⟦http://d.com⟧\x7f", []w{{}, {}}},
		{"CRLF", "plaintext", "⟦http://a.com⟧\r\n⟦http://b.com⟧\r\n", []w{{}, {}}},
		{"angle", "plaintext", "<⟦http://domain.com⟧>.", []w{{ctx: Angle}}},
		{"angle keeps trailing punctuation", "plaintext", "<⟦http://domain.com/a.⟧>", []w{{ctx: Angle}}},
		{"angle unknown scheme before //", "plaintext", "<⟦irc://foo.bar:2233/baz⟧> <⟦made-up-scheme://foo,bar⟧> <a+b+c:d>", []w{{ctx: Angle}, {ctx: Angle}}},
		{"angle without scheme", "plaintext", "<domain.com> <user@domain.com> <b> a < b > c", nil},
		{"wrapped", "plaintext", "<URL:⟦ftp://info.cern.ch/pub/www/doc;type=d⟧>", []w{{ctx: Wrapped, rel: true}}},
		{"wrapped lower case prefix and space", "plaintext", "<url: ⟦http://a.com/b⟧ >", []w{{ctx: Wrapped, rel: true}}},
		{"wrapped over two lines", "plaintext", "Yes, Jim, I found it under <URL:⟦ftp://info.cern.ch/pub/www/doc;\n      type=d⟧> but",
			[]w{{ctx: Wrapped, rel: true, text: "ftp://info.cern.ch/pub/www/doc;type=d", offs: offs([2]int{0, 31}, [2]int{38, 6})}}},
		{"RFC 1738 appendix example", "plaintext",
			"from <URL:⟦ftp://ds.in\nternic.net/rfc⟧>.  Note the warning in <URL:⟦http://ds.internic.\nnet/instructions/overview.html#WARNING⟧>.",
			[]w{{ctx: Wrapped, rel: true, text: "ftp://ds.internic.net/rfc", offs: offs([2]int{0, 11}, [2]int{12, 14})},
				{ctx: Wrapped, rel: true, text: "http://ds.internic.net/instructions/overview.html#WARNING", offs: offs([2]int{0, 19}, [2]int{20, 38})}}},
		{"wrapped hyphen at line break kept", "plaintext", "<URL:⟦http://a.com/long-\n  name⟧>",
			[]w{{ctx: Wrapped, rel: true, text: "http://a.com/long-name", offs: offs([2]int{0, 18}, [2]int{21, 4})}}},
		{"angle over lines", "plaintext", "<⟦http://a.com/x\n y⟧>", []w{{ctx: Angle, text: "http://a.com/xy", offs: offs([2]int{0, 14}, [2]int{16, 1})}}},
		{"wrapper without close is not one", "plaintext", "<URL:⟦http://a.com/x⟧ and no close\n\n⟦http://b.com⟧", []w{{}, {}}},
		{"unclosed angle leaves a bare URL", "plaintext", "<⟦http://foo.bar/baz⟧ bim", []w{{}}},
		{"wrapper too many lines", "plaintext", "<URL:⟦http://a.com/⟧\n1\n2\n3\n4\n5\n6\n7\n8\n9>", []w{{}}},
		{"wrapper broken by another <", "plaintext", "<URL:⟦http://a.com/⟧ <⟦http://b.com⟧>", []w{{}, {ctx: Angle}}},
		{"empty wrapper", "plaintext", "<URL:> <URL:  >", nil},
		{"wrapped relative", "plaintext", "<URL:⟦../a/b.html⟧>", []w{{ctx: Wrapped, rel: true}}},
		{"unknown language is plain text", "klingon", "⟦http://a.com⟧", []w{{}}},
		{"empty", "plaintext", "", nil},
	})
}

func TestMarkdown(t *testing.T) {
	runScanCases(t, []scanCase{
		{"inline link, title excluded", "markdown", `[text](⟦http://a.com/x⟧ "http://title.com")`, []w{{ctx: Link, rel: true}}},
		{"image", "markdown", `![alt http://alt.com](⟦http://a.com/i.png⟧ 'title')`, []w{{ctx: Link, rel: true}}},
		{"link text not linked", "markdown", "[https://example.com](⟦https://example.com⟧)", []w{{ctx: Link, rel: true}}},
		{"angle destination with spaces", "markdown", "[a](<⟦my file.md⟧>)", []w{{ctx: Link, rel: true}}},
		{"relative destinations", "markdown", "[a](⟦../a.md⟧) [b](⟦#anchor⟧) [c](⟦/x⟧) [d]()", []w{{ctx: Link, rel: true}, {ctx: Link, rel: true}, {ctx: Link, rel: true}}},
		{"balanced parens in destination", "markdown", "[w](⟦https://en.wikipedia.org/wiki/Foo_(bar)⟧)", []w{{ctx: Link, rel: true}}},
		{"escapes and entities decoded", "markdown", `[a](⟦http://a.com/a\_b&amp;c&#37;⟧)`,
			[]w{{ctx: Link, rel: true, text: "http://a.com/a_b&c%", offs: offs([2]int{0, 15}, [2]int{16, 2}, [2]int{22, 2})}}},
		{"destination over a line break", "markdown", "[a](\n⟦http://a.com⟧\n)", []w{{ctx: Link, rel: true}}},
		{"reference definition", "markdown", "[foo]: ⟦http://a.com/x⟧ \"title\"\n[bar]:\n  <⟦../b.md⟧>\n", []w{{ctx: RefDef, rel: true}, {ctx: RefDef, rel: true}}},
		{"reference definition angle", "markdown", "[foo]: <⟦my url⟧> 'title'\n", []w{{ctx: RefDef, rel: true}}},
		{"not a definition mid-paragraph", "markdown", "text\n[foo]: ⟦http://a.com⟧\n", []w{{}}},
		{"footnote is not a definition", "markdown", "[^1]: see ⟦http://a.com⟧.\n", []w{{}}},
		{"autolink", "markdown", "<⟦http://foo.bar.baz/test?q=hello&id=22&boolean⟧> <⟦irc://foo.bar:2233/baz⟧> <⟦MAILTO:FOO@BAR.BAZ⟧>", []w{{ctx: Angle}, {ctx: Angle}, {ctx: Angle}}},
		{"autolink not decoded", "markdown", `<⟦http://example.com/\[\⟧>`, []w{{ctx: Angle}}},
		{"not autolinks", "markdown", "<m:abc> <foo.bar.baz> <> <foo@bar.example.com>", nil},
		{"autolink with space is not one", "markdown", "<⟦http://foo.bar/baz⟧ bim>", []w{{}}},
		{"wrapped in markdown", "markdown", "<URL:⟦http://a.com/b⟧>", []w{{ctx: Wrapped, rel: true}}},
		{"bare", "markdown", "Visit ⟦https://example.com/x⟧. **⟦http://a.com⟧**", []w{{}, {}}},
		{"bare entity decoded", "markdown", "⟦http://a.com/?a=1&amp;b=2⟧ x", []w{{text: "http://a.com/?a=1&b=2", offs: offs([2]int{0, 18}, [2]int{22, 3})}}},
		{"bare entity tail excluded", "markdown", "⟦http://a.com/search?q=commonmark⟧&hl;", []w{{}}},
		{"bare escape decoded", "markdown", `⟦http://a.com/\_x⟧`, []w{{text: "http://a.com/_x", offs: offs([2]int{0, 14}, [2]int{15, 1})}}},
		{"code span skipped", "markdown", "`http://code.com` and ``a ` http://x`` ⟦http://real.com⟧", []w{{}}},
		{"code span ends a bare URL", "markdown", "⟦https://example.com/foo⟧`bar`baz", []w{{}}},
		{"unclosed backticks are text", "markdown", "`` ⟦http://a.com⟧ `", []w{{}}},
		{"fenced code skipped", "markdown", "```\nhttp://code.com\n```\n~~~~ go\nhttp://x.com\n~~~\n~~~~\n⟦http://after.com⟧\n", []w{{}}},
		{"unclosed fence runs to the end", "markdown", "```\nhttp://code.com\n", nil},
		{"indented code skipped", "markdown", "para\n\n    http://code.com\n\n⟦http://b.com⟧\n", []w{{}}},
		{"indented lazy continuation is text", "markdown", "para\n    ⟦http://lazy.com⟧\n", []w{{}}},
		{"list item continuation is not code", "markdown", "- item\n\n    ⟦http://in-item.com⟧\n", []w{{}}},
		{"fence in list", "markdown", "- a\n  ```\n  http://code.com\n  ```\n- ⟦http://b.com⟧\n", []w{{}}},
		{"blockquote", "markdown", "> see [x](⟦http://q.com⟧)\n> ⟦http://r.com⟧\n", []w{{ctx: Link, rel: true}, {}}},
		{"heading", "markdown", "# Title ⟦http://h.com⟧\n[d]: ⟦/x⟧\n", []w{{}, {ctx: RefDef, rel: true}}},
		{"inline html", "markdown", `<a href="⟦http://a.com/?x=1&amp;y⟧">http://a.com/</a> <img src='⟦i.png⟧'>`,
			[]w{{ctx: Attr, rel: true, text: "http://a.com/?x=1&y", offs: offs([2]int{0, 18}, [2]int{22, 1})}, {ctx: Attr, rel: true}}},
		{"html block", "markdown", "<div>\n<a href=\"⟦x.html⟧\">http://t.com</a> ⟦http://u.com⟧\n</div>\n\n⟦http://p.com⟧\n", []w{{ctx: Attr, rel: true}, {}, {}}},
		{"html comment skipped", "markdown", "<!-- http://c.com -->\n\ntext <!-- http://d.com --> ⟦http://e.com⟧", []w{{}}},
		{"html block script", "markdown", "<script>\n// ⟦http://js.com⟧\nvar s = \"⟦http://s.com⟧\";\n</script>\n", []w{{ctx: Code}, {ctx: Code}}},
		{"escaped bracket is not a link", "markdown", `\[a](⟦http://a.com⟧)`, []w{{}}},
		{"links do not nest", "markdown", "[a [b](⟦http://in.com⟧) c](⟦http://out.com⟧)", []w{{ctx: Link, rel: true}, {}}},
		{"image in link", "markdown", "[![i](⟦/i.png⟧)](⟦http://o.com⟧)", []w{{ctx: Link, rel: true}, {ctx: Link, rel: true}}},
		{"link inside raw url", "markdown", "⟦https://example.com/foo⟧[123](⟦456⟧)bar", []w{{}, {ctx: Link, rel: true}}},
		{"table", "markdown", "| a | b |\n| --- | --- |\n| ⟦https://github.com⟧ www.github.com | ⟦http://pokemon.com⟧|x |\n", []w{{}, {}}},
		{"strikethrough", "markdown", "~~⟦http://google.com⟧~~", []w{{}}},
		{"quoted in markdown", "markdown", `"⟦http://google.com⟧"`, []w{{ctx: Quoted}}},
		{"hard wrapped", "markdown", "text ⟦http://a.com/x⟧\nmore", []w{{}}},
		{"fence in item ends with the item", "markdown", "- a\n  ~~~\n  [c](http://code.com)\n- b [y](⟦http://y.com⟧)\n", []w{{ctx: Link, rel: true}}},
		{"fence in item closes indented to the item", "markdown", "- a\n  ```\n  http://c1.com\n      ```\n  http://c2.com\n     ```\n  ⟦http://after.com⟧\n", []w{{}}},
		{"fence in quote in item", "markdown", "- a\n  > ```\n  > http://code.com\n  > ```\n  > ⟦http://b.com⟧\n", []w{{}}},
		{"indented code in item", "markdown", "- a\n\n      http://code.com\n\n  ⟦http://text.com⟧\n", []w{{}}},
		{"code after marker", "markdown", "-     http://code.com\n\n  ⟦http://cont.com⟧\n", []w{{}}},
		{"item content column after a wide marker", "markdown", "100000. wide\n\n        ⟦http://not-code.com⟧\n", []w{{}}},
		{"sibling less indented than the item is not in it", "markdown", "1. a\n\n  2. b\n\n    3. http://code.com\n", nil},
		{"nested items", "markdown", "- a\n  - b\n    - [c](⟦http://c.com⟧)\n\n      [d](⟦http://d.com⟧)\n", []w{{ctx: Link, rel: true}, {ctx: Link, rel: true}}},
		{"tab after marker", "markdown", "-\ta\n\n\t[b](⟦http://b.com⟧)\n\n-\t\thttp://code.com\n", []w{{ctx: Link, rel: true}}},
		{"tab after quote marker", "markdown", ">\t[a](⟦http://a.com⟧)\n\n>\t\thttp://code.com\n", []w{{ctx: Link, rel: true}}},
		{"item in a quote whose marker moves", "markdown", ">- ```\n   > [b](⟦http://b.com⟧)\n", []w{{ctx: Link, rel: true}}},
		{"lazy continuation", "markdown", "> a\n[b](⟦http://b.com⟧)\n- c\nd ⟦http://d.com⟧\n", []w{{ctx: Link, rel: true}, {}}},
		{"item starting blank", "markdown", "-\n  ⟦http://in.com⟧\n-\n\n      http://code.com\n", []w{{}}},
		{"reference definition in item", "markdown", "- [a]: ⟦http://a.com⟧\n- b\n\n  [c]:\n  ⟦/c⟧\n", []w{{ctx: RefDef, rel: true}, {ctx: RefDef, rel: true}}},
		{"reference definition in quotes", "markdown", ">> [a]: ⟦http://a.com⟧\n>    [b]: ⟦/b⟧ 'title'\n", []w{{ctx: RefDef, rel: true}, {ctx: RefDef, rel: true}}},
		{"reference definition label over lines", "markdown", "[\nfoo\n]: ⟦/url⟧\nbar\n", []w{{ctx: RefDef, rel: true}}},
		{"reference definition title over lines", "markdown", "[foo]: ⟦/url⟧ '\ntitle http://t.com\n'\n[bar]: ⟦/b⟧\n", []w{{ctx: RefDef, rel: true}, {ctx: RefDef, rel: true}}},
		{"reference definition without its bad title", "markdown", "[foo]: ⟦/url⟧\n\"title\" ok ⟦http://t.com⟧\n", []w{{ctx: RefDef, rel: true}, {}}},
		{"title on the line of the destination must end it", "markdown", "[foo]: /url \"title\" ok ⟦http://t.com⟧\n", []w{{}}},
		{"reference definitions then text", "markdown", "[a]: ⟦/a⟧\n[b]: ⟦/b⟧\ntext [c](⟦/c⟧)\n", []w{{ctx: RefDef, rel: true}, {ctx: RefDef, rel: true}, {ctx: Link, rel: true}}},
		{"table needs as many delimiter cells as header cells", "markdown", "a | b\n--- |\n", nil},
		{"table interrupts a paragraph", "markdown", "text ⟦http://p.com⟧\n| a | b |\n| - | - |\n| ⟦http://c.com⟧ | d |\n", []w{{}, {}}},
		{"table in item", "markdown", "- | a | b |\n  | - | - |\n  | [c](⟦/c⟧) | d |\n", []w{{ctx: Link, rel: true}}},
		{"table in quote: the pipe splits the link", "markdown", "> | [a | b](/x) |\n> | - | - |\n", nil},
		{"table in item in quote", "markdown", "> - | [a | b](/x) |\n>   | - | - |\n", nil},
		{"no table in quote: a link", "markdown", "> | [a | b](⟦/x⟧) |\n> | x | y |\n", []w{{ctx: Link, rel: true}}},
		{"space in a destination", "markdown", "[About](⟦https://example.com/about us⟧) ![i](⟦my image.png⟧) [s](⟦#my section⟧)",
			[]w{{ctx: Link, rel: true, unr: true}, {ctx: Link, rel: true, unr: true}, {ctx: Link, rel: true, unr: true}}},
		{"space in a destination, title dropped", "markdown", "[a](⟦../my file.md⟧ \"title\") [b](⟦docs/a b&amp;c⟧ 'it's')",
			[]w{{ctx: Link, rel: true, unr: true}, {ctx: Link, rel: true, unr: true, text: "docs/a b&c", offs: offs([2]int{0, 9}, [2]int{13, 1})}}},
		{"space in a destination with parentheses", "markdown", "[w](⟦https://example.com/x_(y) z⟧) [t](⟦https://en.wikipedia.org/wiki/A⟧ (b)) [u](/a (b) c)", []w{{ctx: Link, rel: true, unr: true}, {ctx: Link, rel: true}}},
		{"space in a destination: URL after words", "markdown", "[Neo4j](⟦loja de sessões baseada emhttps://neo4j.com⟧).", []w{{ctx: Link, rel: true, unr: true}}},
		{"prose in parentheses is not a destination", "markdown", "[see](the docs) (more) [1](e.g. this) [x]( /a b) [n](Note: see)", nil},
		{"broken title is not a space in the destination", "markdown", "[link](/url \"title \"and\" title\") [l](/u 'a' b) [m](/v (t) x)", nil},
		{"no closing parenthesis on the line", "markdown", "[a](⟦http://a.com/b⟧ c\nd)", []w{{}}},
		{"brackets or code in it: prose", "markdown", "[a](/x [y] z) [b](/x `y` z) [c](/x <y> z)", nil},
		{"angle destination with spaces renders", "markdown", "[a](<⟦my file.md⟧>)", []w{{ctx: Link, rel: true}}},
		{"template destinations", "markdown",
			"[x](⟦{{< ref \"foo.md\" >}}⟧) [y](⟦{{% relref \"foo\" %}}⟧ \"t\") [z](⟦{{ .Site.BaseURL }}/about⟧) [j](⟦{% link a b.md %}⟧)",
			[]w{{ctx: Link, rel: true}, {ctx: Link, rel: true}, {ctx: Link, rel: true}, {ctx: Link, rel: true}}},
		{"template in the middle of a destination", "markdown", "[v](⟦/docs/{{ .Version }}/install⟧) [p](⟦/a{{ (index .x \"(\") }}/b⟧)", []w{{ctx: Link, rel: true}, {ctx: Link, rel: true}}},
		{"template and a space outside it", "markdown", "[x](⟦{{ .Site.BaseURL }}/about us⟧)", []w{{ctx: Link, rel: true, unr: true}}},
		{"template in angle destination and autolink", "markdown",
			"[s](<⟦{{% eturl disqus %}}⟧>) <⟦{{% eturl opengraph %}}⟧> <⟦{{ .Site.BaseURL }}/about⟧>\n\n[r]: <⟦{{< ref \"x\" >}}⟧>\n[q]: ⟦{{% eturl x %}}⟧ 'title'\n",
			[]w{{ctx: Link, rel: true}, {ctx: Angle}, {ctx: Angle}, {ctx: RefDef, rel: true}, {ctx: RefDef, rel: true}}},
		{"unclosed template is text", "markdown", "[x]({{ a) <{{ b> [y]({{< z >})", nil},
		{"template over a line break is not one", "markdown", "[x]({{ a\nb }})\n", nil},
		{"reference link text is not scanned", "markdown",
			"[http://a.com/x][r] [http://b.com/y][] [http://b.com/y] ![http://c.com/i][r] [⟦http://u.com⟧][undefined] ⟦http://d.com⟧\n\n[r]: ⟦/r⟧\n[http://b.com/y]: ⟦/b⟧\n",
			[]w{{}, {}, {ctx: RefDef, rel: true}, {ctx: RefDef, rel: true}}},
		{"reference labels fold case and white space", "markdown", "[A  b][] [a\nB] ⟦http://x.com⟧\n\n[a b]: ⟦/ab⟧\n", []w{{}, {ctx: RefDef, rel: true}}},
		{"text after a shortcut reference", "markdown", "[foo](not a link) [bar](⟦http://inline.com⟧)\n\n[foo]: ⟦/f⟧\n[bar]: ⟦/b⟧\n",
			[]w{{ctx: Link, rel: true}, {ctx: RefDef, rel: true}, {ctx: RefDef, rel: true}}},
		{"full reference hides a link after it", "markdown", "[a][b](⟦http://bare.com⟧) [c][d](⟦/inline⟧)\n\n[b]: ⟦/b⟧\n",
			[]w{{}, {ctx: Link, rel: true}, {ctx: RefDef, rel: true}}},
		{"bracketed text is no label", "markdown", "[a [b] c] ⟦http://x.com⟧\n\n[a [b] c]: /no\n", []w{{}}},
		{"html block ends with its item", "markdown", "- <div>\n  <a href=\"⟦x.html⟧\">x</a>\n\n  [t](⟦/t⟧)\n", []w{{ctx: Attr, rel: true}, {ctx: Link, rel: true}}},
	})
}

func TestHTML(t *testing.T) {
	runScanCases(t, []scanCase{
		{"href double quoted", "html", `<a href="⟦http://a.com/x⟧">x</a>`, []w{{ctx: Attr, rel: true}}},
		{"single quoted and unquoted", "html", `<img src='⟦a.png⟧' longdesc=⟦d.html⟧>`, []w{{ctx: Attr, rel: true}, {ctx: Attr, rel: true}}},
		{"entities mapped back", "html", `<a href="⟦http://a.com/?a=1&amp;b=%&#37;&#x25;&lt;&eacute;&nbsp⟧">`,
			[]w{{ctx: Attr, rel: true, text: "http://a.com/?a=1&b=%%%<é\u00a0",
				offs: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 22, 23, 24, 25, 30, 36, 40, 41, 48, 49}}}},
		{"legacy entity before = not decoded in attributes", "html", `<a href="⟦?x=1&copy=2⟧">`, []w{{ctx: Attr, rel: true}}},
		{"white space trimmed", "html", "<a href=\"  ⟦/x⟧\n \">", []w{{ctx: Attr, rel: true}}},
		{"empty href", "html", `<a href="">`, nil},
		{"base", "html", `<base href="⟦http://b.com/dir/⟧"><link rel=stylesheet href=⟦s.css⟧>`, []w{{ctx: Base, rel: true}, {ctx: Attr, rel: true}}},
		{"srcset", "html", `<img srcset="⟦a.png⟧ 1x, ⟦b.png⟧ 2x,⟦c,d.png⟧ 100w, ⟦e.png⟧,, ⟦f.png⟧">`,
			[]w{{ctx: Attr, rel: true}, {ctx: Attr, rel: true}, {ctx: Attr, rel: true}, {ctx: Attr, rel: true}, {ctx: Attr, rel: true}}},
		{"srcset descriptor with comma in parens", "html", `<img srcset="⟦a.png⟧ (1,2), ⟦b.png⟧">`, []w{{ctx: Attr, rel: true}, {ctx: Attr, rel: true}}},
		{"ping and itemtype", "html", `<a ping="⟦/p1⟧ ⟦/p2⟧"></a><div itemtype="⟦http://schema.org/Person⟧">`, []w{{ctx: Attr, rel: true}, {ctx: Attr, rel: true}, {ctx: Attr, rel: true}}},
		{"object data only", "html", `<object data="⟦movie.swf⟧"></object><div data="x.y"></div>`, []w{{ctx: Attr, rel: true}}},
		{"more attributes", "html", `<form action="⟦/f⟧"><button formaction=⟦/g⟧><video poster="⟦p.jpg⟧" src="⟦v.mp4⟧"><q cite="⟦c.html⟧"><body background="⟦bg.gif⟧"><svg><use xlink:href="⟦#i⟧"/>`,
			[]w{{ctx: Attr, rel: true}, {ctx: Attr, rel: true}, {ctx: Attr, rel: true}, {ctx: Attr, rel: true}, {ctx: Attr, rel: true}, {ctx: Attr, rel: true}, {ctx: Attr, rel: true}}},
		{"meta refresh", "html", `<meta http-equiv="Refresh" content="5; url=⟦http://a.com/x⟧"><meta http-equiv=refresh content="0;URL='⟦/y⟧'"><meta name=x content="5; url=http://no.com">`,
			[]w{{ctx: Attr, rel: true}, {ctx: Attr, rel: true}}},
		{"text bare URLs decoded", "html", "<p>See ⟦http://a.com/?a&amp;b⟧&lt;x&gt; and ⟦http://b.com⟧&nbsp;x</p>",
			[]w{{text: "http://a.com/?a&b", offs: offs([2]int{0, 16}, [2]int{20, 1})}, {}}},
		{"anchor text skipped", "html", `<a href="⟦http://a.com⟧">http://a.com</a> ⟦http://b.com⟧`, []w{{ctx: Attr, rel: true}, {}}},
		{"named anchor text scanned", "html", `<a name="top">⟦http://a.com⟧</a>`, []w{{}}},
		{"unclosed anchor ends with its block", "html", `<p><a href="⟦x⟧">http://a.com</p><p>⟦http://b.com⟧</p>`, []w{{ctx: Attr, rel: true}, {}}},
		{"comment skipped", "html", "<!-- http://c.com --> <!--> ⟦http://d.com⟧ <!---> <!-- <a href=x> -->", []w{{}}},
		{"script as code", "html", "<script>var a = '⟦http://s.com/x⟧'; // ⟦http://c.com⟧\nif (a < b) {}</script> ⟦http://t.com⟧",
			[]w{{ctx: Code}, {ctx: Code}, {}}},
		{"style as css", "html", "<style>body { background: url(⟦img/bg.png⟧) } /* ⟦http://css.com⟧ */</style>",
			[]w{{ctx: Code, rel: true}, {ctx: Code}}},
		{"textarea text", "html", "<textarea><a href=x> ⟦http://t.com⟧</textarea>", []w{{}}},
		{"less-than in text", "html", "a < b ⟦http://x.com⟧ <3", []w{{}}},
		{"unclosed quote runs to the end", "html", `<a href="http://a.com/x>text</a> http://b.com`, nil},
		{"quoted value spans to its quote", "html", "<a href=\"⟦http://a.com/x>y</a> <b class=⟧\">", []w{{ctx: Attr, rel: true}}},
		{"unclosed tag at the end", "html", `<a href="⟦http://a.com⟧"`, []w{{ctx: Attr, rel: true}}},
		{"end tag attributes ignored", "html", `</a href="http://x.com"> ⟦http://y.com⟧`, []w{{}}},
		{"doctype", "html", `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">`, nil},
		{"case-insensitive names", "html", `<A HREF="⟦x⟧"><IMG SRC=⟦y⟧>`, []w{{ctx: Attr, rel: true}, {ctx: Attr, rel: true}}},
	})
}

func TestCode(t *testing.T) {
	runScanCases(t, []scanCase{
		{"go comments and strings", "go", "// See ⟦https://go.dev/x⟧.\n/* ⟦http://b.com⟧ */\nvar s = \"⟦http://s.com/a⟧\"\nvar r = `⟦http://raw.com⟧`\nx := 1 // ⟦http://a.com/x⟧\n",
			[]w{{ctx: Code}, {ctx: Code}, {ctx: Code}, {ctx: Code}, {ctx: Code}}},
		{"code is not scanned", "go", "x := http.Get(url) // ok\nhttp://label", nil},
		{"exact literal any scheme", "python", `u = "⟦redis://localhost:6379/0⟧"; d = "C:/x"; k = "key:value"`, []w{{ctx: Code}}},
		{"exact literal keeps trailing punctuation", "javascript", `const u = '⟦http://example.com/.⟧';`, []w{{ctx: Code}}},
		{"URL in longer string", "javascript", `msg = "see ⟦http://example.com/a⟧.";`, []w{{ctx: Code}}},
		{"template placeholders end a URL", "javascript", "a = `⟦https://api.example.com/users/⟧${id}`; b = '⟦https://x.com/⟧{id}/y'; c = \"⟦http://h.com/⟧%s/v\"",
			[]w{{ctx: Code, cont: true}, {ctx: Code, cont: true}, {ctx: Code, cont: true}}},
		{"printf ends, a valid escape does not", "go", `f("⟦http://h.com/%20/x?q=⟧%d")`, []w{{ctx: Code, cont: true}}},
		{"key:value literal is not a URL", "python", `a = "file:line"; b = "session:expired"; c = "⟦mailto:a@b.org⟧"; d = "⟦about:blank⟧"`, []w{{ctx: Code}, {ctx: Code}}},
		{"JSON escapes decoded", "json", `{"u": "⟦http:\/\/example.com\/a⟧"}`,
			[]w{{ctx: Code, text: "http://example.com/a", offs: []int{0, 1, 2, 3, 4, 5, 7, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 22}}}},
		{"escaped newline ends", "c", `char *s = "⟦http://a.com⟧\n";`, []w{{ctx: Code}}},
		{"python raw and triple", "python", "r'⟦http://raw.com/\\d⟧'\n\"\"\"Doc ⟦http://doc.com⟧.\n\"\"\"\n# ⟦http://c.com⟧", []w{{ctx: Code}, {ctx: Code}, {ctx: Code}}},
		{"comment marker in string is not a comment", "go", `s := "// x ⟦http://a.com/x⟧ y"`, []w{{ctx: Code}}},
		{"rust lifetimes and raw strings", "rust", "fn f<'a>(x: &'a str) { let u = r#\"⟦http://r.com/⟧\"q\"#; } // ⟦http://c.com⟧",
			[]w{{ctx: Code}, {ctx: Code}}},
		{"shell bare everywhere", "shellscript", "curl -fsSL ⟦https://get.example.com/x.sh⟧ | sh # ⟦http://c.com⟧\necho $# '⟦http://q.com⟧'", []w{{ctx: Code}, {ctx: Code}, {ctx: Code}}},
		{"yaml", "yaml", "url: ⟦https://example.com/#frag⟧ # ⟦http://c.com⟧\ntitle: it's ⟦http://t.com⟧\n", []w{{ctx: Code}, {ctx: Code}, {ctx: Code}}},
		{"sql", "sql", "-- ⟦http://c.com⟧\nSELECT 'it''s ⟦http://s.com⟧';", []w{{ctx: Code}, {ctx: Code}}},
		{"lua long brackets", "lua", "--[[ ⟦http://long.com⟧ ]] s = [==[⟦http://ls.com⟧]==] -- ⟦http://c.com⟧", []w{{ctx: Code}, {ctx: Code}, {ctx: Code}}},
		{"css", "css", "@import \"⟦theme.css⟧\";\na { background: url( '⟦../i.png⟧' ) } b { x: url(⟦data:image/png;base64,AA⟧) }", []w{{ctx: Code, rel: true}, {ctx: Code, rel: true}, {ctx: Code, rel: true}}},
		{"generic in comment is not a wrapper", "cpp", "// std::vector<std::string> <⟦https://a.com⟧>", []w{{ctx: Angle}}},
		{"wrapped in comment", "java", "/* <URL:⟦http://a.com/b⟧> */", []w{{ctx: Wrapped, rel: true}}},
		{"wrapper prose in comment", "go", "// <URL:…> and <URL:x> are wrappers", nil},
		{"toml", "toml", "homepage = \"⟦https://example.com⟧\" # ⟦http://c.com⟧\nlit = '⟦http://raw.com/\\x⟧'", []w{{ctx: Code}, {ctx: Code}, {ctx: Code}}},
		{"ini", "ini", "; ⟦http://c.com⟧\nurl=⟦http://u.com⟧\n", []w{{ctx: Code}, {ctx: Code}}},
		{"surrogate pair", "json", `["⟦http://a.com/\ud83d\ude00⟧"]`, []w{{ctx: Code, text: "http://a.com/😀", offs: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}}}},
	})
}

func TestLanguageForPath(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"README.md", "markdown"}, {"a/b/notes.MARKDOWN", "markdown"}, {"index.html", "html"}, {"x.htm", "html"},
		{"x.xhtml", "html"}, {"notes.txt", "plaintext"}, {"README", "plaintext"}, {`C:\src\main.go`, "go"},
		{"a.py", "python"}, {"a.js", "javascript"}, {"a.tsx", "typescriptreact"}, {"a.rs", "rust"},
		{"a.sh", "shellscript"}, {"a.yml", "yaml"}, {"a.toml", "toml"}, {"a.jsonc", "jsonc"}, {"a.css", "css"},
		{"Dockerfile", "dockerfile"}, {"Makefile", "makefile"}, {"CMakeLists.txt", "cmake"}, {"a.unknownext", ""},
		{"", ""}, {"dir/", ""}, {"_sources/usage/api.rst.txt", "restructuredtext"}, {"_sources/guide.md.txt", "markdown"}, {".rst.txt", "plaintext"},
	} {
		if got := LanguageForPath(tc.name); got != tc.want {
			t.Errorf("LanguageForPath(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	// Every language LanguageForPath names is one Scan knows, or plain text
	// on purpose.
	for ext, lang := range extLanguages {
		kind, _ := languageKind(lang)
		if kind == kindText && lang != "plaintext" && !textLanguages[lang] {
			t.Errorf("%s -> %q, which Scan treats as plain text without saying so", ext, lang)
		}
	}
}

// textLanguages are the language ids LanguageForPath returns that Scan
// scans as plain text, deliberately.
var textLanguages = map[string]bool{
	"latex": true, "bibtex": true, "diff": true, "bat": true,
	"csv": true, "log": true,
}

// TestNormLabel compares normLabel's one-pass ASCII normalisation with the
// definition: strings.Fields, joined by one space, upper then lower case.
func TestNormLabel(t *testing.T) {
	for _, label := range []string{"", " ", "foo", "Foo Bar", " foo\tbar \n baz ", "a\vb\fc\rd", "A  B",
		"x\x01y", "ẞ", "Straße  X", "ΑΓΩ", "a\u00a0b", "a\u0085b", "foo bar", "foo bar ", "[x]"} {
		want := strings.ToLower(strings.ToUpper(strings.Join(strings.Fields(label), " ")))
		if got := normLabel([]byte(label)); got != want {
			t.Errorf("normLabel(%q) = %q, want %q", label, got, want)
		}
	}
}

// TestBareStarts checks that every name of bareSchemes passes the filter
// of lookupSyntax, and that the filter is on.
func TestBareStarts(t *testing.T) {
	for name, syn := range bareSchemes {
		if got, ok := lookupSyntax([]byte(strings.ToUpper(name))); !ok || got != syn {
			t.Errorf("lookupSyntax(%q) = %v, %v", name, got, ok)
		}
	}
	if bareStarts['n'-'a']['o'] {
		t.Error("bareStarts lets \"no…\" through: a name of bareSchemes does not start with a letter and an ASCII byte")
	}
}
