package scan

import "testing"

func TestAsciiDoc(t *testing.T) {
	link := w{ctx: Link, rel: true}
	runScanCases(t, []scanCase{
		{"URL macros", "asciidoc",
			"See ⟦https://en.wikipedia.org/wiki/YAML⟧[YAML] and ⟦https://github.com/x/y/releases⟧[releases page^] or ⟦https://a.org/#check⟧[flatten all^].\n",
			[]w{{}, {}, {}}},
		{"link text is not scanned", "asciidoc", "⟦https://a.org/x⟧[https://a.org/x] ⟦http://b.org⟧[see http://c.org]\n", []w{{}, {}}},
		{"bare URLs and trailing punctuation", "asciidoc", "Visit ⟦https://a.org/x⟧. Or (⟦http://b.org⟧).\n", []w{{}, {}}},
		{"angle brackets", "asciidoc", "Dan Allen <⟦https://github.com/mojavelinux⟧[@mojavelinux]>; Sarah <⟦https://c.org⟧>\n", []w{{}, {}}},
		{"link macro", "asciidoc", "the link:⟦LICENSE⟧[] file, link:⟦../docs/x.html#y⟧[docs^] and link:⟦https://a.org/b⟧ c[x]\n",
			[]w{link, link, {}}},
		{"mailto macro", "asciidoc", "write to ⟦mailto:a@b.org⟧[me] or ⟦mailto:joe⟧[]\n", []w{{ctx: Link}, {ctx: Link}}},
		{"images", "asciidoc",
			"image::⟦images/logo.png⟧[Logo,link=⟦https://a.org/⟧]\n\nInline image:⟦https://img.shields.io/badge/x.svg⟧[project chat,link=⟦https://chat.org/⟧] here.\n",
			[]w{link, link, link, link}},
		{"image link quoted and attribute reference", "asciidoc", "image:⟦x.svg⟧[Build, link=\"⟦https://ci.org/x⟧\"] image:⟦y.svg⟧[Release, link={url-gem}/x]\n", []w{link, link, link}},
		{"attribute entries", "asciidoc", ":url-gem: ⟦https://rubygems.org/gems/asciidoctor-pdf⟧\n:url-project-repo: {url-project}\n:url-issues: {url-project-repo}/issues\n:idseparator: -\n:note-caption: :paperclip:\n", []w{{}}},
		{"URLs that start with an attribute reference are skipped", "asciidoc",
			":url-repo: ⟦https://github.com/a/b⟧\n\nSee the {url-repo}/commits/main[commit history http://no.org] and {url-prawn}[Prawn^] link:{url-repo}/x[y] image:{badge}/x.svg[b], at {url-repo}/issues ⟦http://yes.org⟧.\n",
			[]w{{}, {}}},
		{"attribute reference inside a URL", "asciidoc", "⟦https://github.com/{org}/x⟧[repo]\n", []w{{}}},
		{"escapes in a URL are decoded", "asciidoc", "⟦https://g.org/compare/v1\\...v2⟧[v2] ⟦https://a.org/x&amp;y⟧[t] link:⟦a\\_b.html⟧[c]\n",
			[]w{{text: "https://g.org/compare/v1...v2", offs: offs([2]int{0, 25}, [2]int{26, 4})},
				{text: "https://a.org/x&y", offs: offs([2]int{0, 16}, [2]int{20, 1})},
				{ctx: Link, rel: true, text: "a_b.html", offs: offs([2]int{0, 2}, [2]int{3, 6})}}},
		{"listing and literal blocks", "asciidoc",
			"[source,ruby]\n----\nurl = 'https://code.org'\n----\n\n....\nhttp://literal.org\n....\n\n```js\nfetch('http://fence.org')\n```\n\n⟦http://after.org⟧\n",
			[]w{{}}},
		{"styled paragraphs", "asciidoc", "[source,ruby]\nget 'https://code.org'\n\n[literal]\nhttp://lit.org\n\n⟦http://text.org⟧\n", []w{{}}},
		{"styled open block", "asciidoc", "[source]\n--\nhttp://code.org\n--\n\n--\n⟦http://open.org⟧\n--\n", []w{{}}},
		{"literal paragraph", "asciidoc", "Text ⟦http://a.org⟧\n\n  $ curl http://indented.org\n\n* item ⟦http://b.org⟧\n  continued ⟦http://c.org⟧\n", []w{{}, {}, {}}},
		{"passthroughs", "asciidoc", "++++\n<a href=\"http://raw.org\">x</a>\n++++\n\n+http://p1.org+ ++http://p2.org++ +++http://p3.org+++ pass:[http://p4.org] `+http://p5.org+` $$http://p6.org$$ C++ ⟦http://ok.org⟧\n", []w{{}}},
		{"comments", "asciidoc", "// http://comment.org\n////\nhttp://block.org\n////\n⟦http://text.org⟧\n", []w{{}}},
		{"block macros and directives", "asciidoc", "include::partial.adoc[]\ninclude::https://raw.org/x.adoc[]\nifdef::env-github[:icons: font]\ntoc::[]\nvideo::rPQoq7ThGAU[youtube]\nendif::[]\n", nil},
		{"cross references and inline macros", "asciidoc", "<<install,see https://x>> xref:a.adoc#b[http://y] kbd:[Ctrl+http://z] btn:[OK] menu:File[Save] footnote:[See ⟦http://fn.org⟧.]\n", []w{{}}},
		{"escapes", "asciidoc", "Not a link: \\https://escaped.org and \\{url-repo}/x[t] but ⟦https://real.org⟧\n", []w{{}}},
		{"tables", "asciidoc", "|===\n|⟦https://a.org⟧|b\n| ⟦http://c.org/x⟧ | d\n|===\n⟦http://after.org/x|y⟧\n", []w{{}, {}, {}}},
		{"admonitions are not schemes", "asciidoc", "NOTE: see this.\nTIP: https-less.\nWARNING: x\n", nil},
		{"description lists", "asciidoc", "Enhancements::\n\nCSS:: see [x]\nhttp:: the protocol\n", nil},
		{"block title", "asciidoc", ".Title with ⟦http://t.org⟧\n----\nhttp://code.org\n----\n", []w{{}}},
	})
}

func TestAsciiDocSuppressions(t *testing.T) {
	doc := []byte("// urlls-disable-next-line\nhttps://a.org/%zz[x]\n")
	sups := Scan(doc, "asciidoc").Suppressions
	if len(sups) != 1 || sups[0].Start != len("// urlls-disable-next-line\n") {
		t.Fatalf("got %v, want the line after the comment", sups)
	}
}
