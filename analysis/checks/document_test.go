package checks

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/urlls/urlls/analysis/scan"
)

// showDoc renders the diagnostics of a document as the document's bytes
// they cover and, for the first fix, the bytes each edit replaces.
func showDoc(doc []byte, ds []Diagnostic) []string {
	var out []string
	for _, d := range ds {
		s := fmt.Sprintf("%s %q", d.Code, doc[d.Start:d.End])
		if len(d.SuggestedFixes) > 0 {
			for _, e := range d.SuggestedFixes[0].Edits {
				s += fmt.Sprintf(" [%q->%q]", doc[e.Start:e.End], e.NewText)
			}
		}
		out = append(out, s)
	}
	return out
}

func TestCheckDocument(t *testing.T) {
	for _, tc := range []struct {
		name, lang, doc string
		want            []string
	}{
		{name: "markdown", lang: "markdown", doc: "# Links\n\n" +
			"See http://example.com/100%zz, also [x](HTTP://y.com/~u \"t\").\n" +
			"A wrapped one: <URL:ftp://ftp.example.com/pub/\n   file{1!}.txt;type=x>\n" +
			"An image: ![img](http://[::1]:99999/i.png).\n" +
			"[ref]: http://bücher.de/straße?q=a/b\n" +
			"Fine: <http://www.example.com/a?b=c>, [rel](../a/b.html#top)\n",
			want: []string{
				`bad-escape "%zz" ["%"->"%25"]`,
				`scheme-case "HTTP" ["HTTP"->"http"]`,
				`rfc1738-unsafe "~" ["~"->"%7E"]`,
				`unsafe-char "{1!}" ["{"->"%7B"] ["}"->"%7D"]`,
				`syntax "x"`,
				`rfc1738-unsafe "[::1]"`,
				`port-range "99999"`,
				`non-ascii "bücher.de/straß" ["bücher"->"xn--bcher-kva"] ["ß"->"%C3%9F"]`,
				`rfc1738-unsafe "/"`,
			}},
		{name: "html", lang: "html", doc: `<p><a href="http://x.com/&#37;zz&amp;q=&eacute;">x</a>` +
			`<img src="../img/a b.png"><a href="mailto:me@example.com">me</a></p>`,
			want: []string{
				`bad-escape "&#37;zz" ["&#37;"->"%25"]`,
				`non-ascii "&eacute;" ["&eacute;"->"%C3%A9"]`,
				`unsafe-char " " [" "->"%20"]`,
			}},
		{name: "plaintext-wrapped", lang: "plaintext", doc: "Old style: <URL:HTTP://x.com/a%41\n      b|c>.\n",
			want: []string{
				`scheme-case "HTTP" ["HTTP"->"http"]`,
				`redundant-escape "%41" ["%41"->"A"]`,
				`unsafe-char "|" ["|"->"%7C"]`,
			}},
		{name: "go-comment", lang: "go", doc: "package p\n\n// See http://u:hunter2@corp.internal:70000/x.\nvar x = 1\n",
			want: []string{
				`rfc1738-unsafe "u:hunter2@"`,
				`credentials "hunter2"`,
				`port-range "70000"`,
			}},
		{name: "continued-by-the-program", lang: "javascript", doc: "a = 'http://bob@' + host + '/x';\n" +
			"b = \"https://u@{host}/x\"; c = 'https://u@';\n",
			want: []string{
				`rfc1738-unsafe "@"`,
				`rfc1738-unsafe "@"`,
				`rfc1738-unsafe "@"`,
				`syntax "@"`, // c: a literal that is all the URL there is
			}},
		{name: "suppression-is-not-applied", lang: "markdown", doc: "<!-- urlls-disable-next-line -->\nhttp://x.com/%zz\n",
			want: []string{
				`bad-escape "%zz" ["%"->"%25"]`,
			}},
		{name: "unrendered", lang: "markdown", doc: "[About](https://example.com/about us) and [f](my notes.md)\n" +
			"[Neo4j](loja de sessões baseada emhttps://neo4j.com) [ok](<my notes.md>) [t]({{< ref \"a b.md\" >}})\n",
			want: []string{
				`unsafe-char " " [" "->"%20"]`,
				`unsafe-char " " [" "->"%20"]`,
				`unsafe-char " de sessões baseada "`,
				`non-ascii "õ" ["õ"->"%C3%B5"]`,
			}},
		{name: "clean", lang: "markdown", doc: "Nothing wrong: http://www.example.com/, <ftp://ftp.example.com/f;type=a>, " +
			"[news](news:comp.lang.go) and mailto:a@b.example.\n",
			want: nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := []byte(tc.doc)
			ds := CheckDocument(doc, tc.lang)
			if diff := cmp.Diff(tc.want, showDoc(doc, ds)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			for i := 1; i < len(ds); i++ {
				if ds[i].Start < ds[i-1].Start {
					t.Errorf("not in document order: %+v", ds)
				}
			}
		})
	}
}

// TestDocumentFixProperties is the fix property through the tokenizer:
// URLs with injected defects in documents of several languages, each fix
// applied to the document and the document checked again.
func TestDocumentFixProperties(t *testing.T) {
	templates := []struct {
		lang string
		doc  func(url string) string
	}{
		{"markdown", func(u string) string { return "Intro.\n\nSee [link](<" + u + ">) here.\n\nEnd.\n" }},
		{"markdown", func(u string) string { return "Bare " + u + " here.\n" }},
		{"markdown", func(u string) string { return "[ref]: <" + u + ">\n\nText.\n" }},
		{"html", func(u string) string {
			return `<p>x</p><a href="` + html.EscapeString(u) + `">y</a><p>z</p>`
		}},
		{"plaintext", func(u string) string { return "Old: <URL:" + u + "> done.\n" }},
		{"go", func(u string) string { return "package p\n\n// See " + u + "\nvar x = 1\n" }},
	}
	rng := rand.New(rand.NewPCG(3986, 2396))
	applied := 0
	for range 1500 {
		url := inject(rng, propertyBases[rng.IntN(len(propertyBases))])
		tp := templates[rng.IntN(len(templates))]
		doc := []byte(tp.doc(url))
		before := CheckDocument(doc, tp.lang)
		for _, d := range before {
			for _, fx := range d.SuggestedFixes {
				name := fmt.Sprintf("%s %q: %s [%d,%d) %q", tp.lang, doc, d.Code, d.Start, d.End, fx.Message)
				fixed, err := applyDocEdits(doc, fx.Edits)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				first, last := fx.Edits[0].Start, fx.Edits[len(fx.Edits)-1].End
				if !bytes.Equal(fixed[:first], doc[:first]) || !bytes.Equal(fixed[len(fixed)-(len(doc)-last):], doc[last:]) {
					t.Fatalf("%s: changed bytes outside its edits", name)
				}
				for _, g := range CheckDocument(fixed, tp.lang) {
					at := mapDocBack(g.Start, fx.Edits)
					if g.Code == d.Code && at == d.Start {
						t.Errorf("%s: still there in %q", name, fixed)
					}
					if !isViolation(g.Code) {
						continue
					}
					if !existed(before, g, fx.Edits) && !exposedByFix(d.Code, g.Code) {
						t.Errorf("%s: new %s in %q: %s", name, g.Code, fixed, g.Message)
					}
				}
				applied++
			}
		}
		// All fixes at once, as "fix all" applies them: still no new error
		// before the first syntax error. Past it, fixing what made the
		// URL unparsable may reveal errors that were there all along.
		masked := len(doc)
		for _, d := range before {
			if d.Code == codeSyntax {
				masked = min(masked, d.Start)
			}
		}
		if edits := fixAll(before); len(edits) > 0 {
			fixed, err := applyDocEdits(doc, edits)
			if err != nil {
				t.Fatalf("%s %q: fix all: %v", tp.lang, doc, err)
			}
			for _, g := range CheckDocument(fixed, tp.lang) {
				if isViolation(g.Code) && !existed(before, g, edits) && mapDocBack(g.Start, edits) < masked {
					t.Errorf("%s %q: fix all: new %s in %q: %s", tp.lang, doc, g.Code, fixed, g.Message)
				}
			}
		}
		if t.Failed() {
			break
		}
	}
	if applied < 500 {
		t.Errorf("only %d fixes exercised", applied)
	}
	t.Logf("%d fixes applied", applied)
}

func TestCheckCandidatesContext(t *testing.T) {
	doc := []byte(strings.Repeat("http://x.org/%zz ", 1000))
	cands := scan.Scan(doc, "plaintext").Candidates
	ctx, cancel := context.WithCancel(context.Background())
	if out, err := CheckCandidatesContext(ctx, doc, cands); err != nil || len(out) != 1000 {
		t.Fatalf("%d findings, %v", len(out), err)
	}
	cancel()
	if out, err := CheckCandidatesContext(ctx, doc, cands); err != context.Canceled || out != nil {
		t.Errorf("cancelled: %d findings, %v", len(out), err)
	}
}
