package scan

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	"golang.org/x/tools/txtar"
)

// The differential test: on the CommonMark spec examples, on the Markdown
// of ../shared/corpus/realworld and on the fixtures of
// testdata/markdown/*.txtar, the link destinations urlls finds in Markdown
// are the ones goldmark (a CommonMark 0.31.2 parser) finds, but for the
// exceptions listed below, each with its reason. The test fails on a
// difference that is not listed, and on a listed exception that no longer
// happens.
//
// What is compared, as multisets of strings per document:
//   - goldmark: the Destination of every inline link and image, the
//     Destination of every link reference definition (ast.
//     LinkReferenceDefinition: once where it is written, used or not,
//     duplicates included, as urlls reports a definition where it is
//     written; links that use a definition, [text][label], are not compared,
//     since urlls checks the definition), and the URL of every URI autolink
//     <scheme:…>. Destinations are decoded as goldmark's HTML renderer
//     decodes them (backslash escapes, then numeric and named character
//     references); autolinks are not decoded, by either side.
//   - urlls: the Text of the candidates of Scan(doc, "markdown").Candidates in context
//     Link, RefDef or Angle, and those of context Wrapped as the autolink
//     CommonMark sees in "<URL:…>" (the bytes between "<" and ">").
//   - Out of scope on both sides: empty destinations ("[a]()": nothing to
//     check, urlls has no empty candidate), e-mail autolinks (urlls does not
//     invent "mailto:"), raw HTML (goldmark keeps it as text; urlls scans
//     its attributes, context Attr and Base).
//
// The real documents are parsed with the GFM extensions that change what is
// a link destination or bare URL: tables, strikethrough and, for the bare
// URLs, linkify. Not the task list extension: goldmark takes "[x](url)" at
// the start of a list item for a checked box, where GFM wants white space
// after "]".
//
// Bare URLs are compared on the real documents only (the spec examples are
// core CommonMark, without extended autolinks): goldmark's linkify autolinks
// that start with "http:", "https:" or "ftp:" (the only schemes GFM
// linkifies; "www." links are out of scope, urlls does not invent the
// scheme) against urlls's candidates in context Bare or Quoted with those
// schemes, each under the key "bare " + the URL.

// gmException is a difference from goldmark that urlls keeps on purpose.
type gmException struct {
	dest   string // the compared string (a destination, or "bare " + a bare URL)
	urlls  bool   // true: urlls finds it and goldmark does not; false: the reverse
	reason string
}

// Reasons shared by several exceptions.
const (
	whyQuoted         = "urlls finds a URL in quotes (context Quoted); GFM links one only after white space, *, _, ~ or ("
	whyHTMLBlock      = "the line is in an HTML block (CommonMark §4.6, to the blank line): urlls scans its text for bare URLs, GFM does not linkify HTML"
	whyBoundary       = "GFM links a URL only after white space, *, _, ~ or (; urlls after any character but a letter, digit, +, - or . (here \"[\")"
	whyNoDot          = "GFM wants a dot in an autolink's host; urlls finds every URL with a known scheme and leaves the host to the checks"
	whyUnrendered     = "white space in a link destination: CommonMark makes text of the link, urlls reports the destination (Unrendered) for the writer who meant a link"
	whyUnrenderedPart = "GFM links the destination's start, before the white space, as a bare URL; urlls reports the whole destination (Unrendered)"
	whyTemplate       = "a template action with white space in a destination: the site generator replaces it before the Markdown is rendered, so urlls takes it whole"
)

// specExceptions are the CommonMark spec examples, by number, where urlls
// and goldmark differ.
var specExceptions = map[int][]gmException{
	488: {{"/my uri", true, whyUnrendered}},
}

// realworldExceptions are the files of ../shared/corpus/realworld, by path
// under it, where urlls and goldmark differ.
var realworldExceptions = map[string][]gmException{
	"curl__curl/docs/cmdline-opts/globoff.md":                                     {{"bare https://example.com/{[]}", true, whyQuoted}},
	"curl__curl/docs/cmdline-opts/out-null.md":                                    {{"bare https://example.com", true, whyQuoted}},
	"curl__curl/docs/cmdline-opts/output.md":                                      {{"bare http://{one,two}.example.com", true, whyQuoted}, {"bare http://{site,host}.host[1-5].example", true, whyQuoted}},
	"curl__curl/docs/cmdline-opts/proxy-ntlm.md":                                  {{"bare http://proxy", true, whyNoDot}},
	"curl__curl/docs/cmdline-opts/proxy1.0.md":                                    {{"bare http://proxy", true, whyNoDot}},
	"expressjs__expressjs.com/src/content/docs/en/4x/guide/routing.mdx":           {{"bare https://github.com/expressjs/express/issues/2495", true, whyHTMLBlock}},
	"expressjs__expressjs.com/src/content/docs/ko/4x/guide/routing.mdx":           {{"bare https://github.com/expressjs/express/issues/2495", true, whyHTMLBlock}},
	"expressjs__expressjs.com/src/content/pages/de/resources/middleware/cors.mdx": {{"bare http://example.com", true, whyQuoted}, {"bare http://example1.com", true, whyQuoted}},
	"expressjs__expressjs.com/src/content/pages/ko/resources/middleware/cors.mdx": {{"bare http://example.com", true, whyQuoted}, {"bare http://example1.com", true, whyQuoted}},
	"expressjs__expressjs.com/src/content/pages/pt-br/resources/middleware/session.mdx": {
		{"loja de sessões baseada emhttp://www.couchbase.com/", true, whyUnrendered},
		{"loja de sessões baseada emhttps://neo4j.com", true, whyUnrendered},
		{"loja de sessões baseada emhttps://couchdb.apache.org/", true, whyUnrendered},
		{"loja de sessões baseada emhttps://github.com/hendrysadrak/firestore-store", true, whyUnrendered},
	},
	"gohugoio__hugoDocs/content/en/configuration/languages.md":          {{"bare https://en.example.org/", true, whyQuoted}, {"bare https://fr.example.org", true, whyQuoted}},
	"gohugoio__hugoDocs/content/en/configuration/menus.md":              {{"bare https://gohugo.io/", true, whyQuoted}},
	"gohugoio__hugoDocs/content/en/functions/hugo/IsMultihost.md":       {{"bare https://de.example.org/", true, whyQuoted}, {"bare https://en.example.org/", true, whyQuoted}},
	"gohugoio__hugoDocs/content/en/functions/images/QR.md":              {{"bare https://gohugo.io", true, whyQuoted}, {"bare https://gohugo.io", true, whyQuoted}},
	"gohugoio__hugoDocs/content/en/functions/transform/PortableText.md": {{"bare https://*.*.sanity.io/", true, whyQuoted}},
	"gohugoio__hugoDocs/content/en/methods/menu-entry/Params.md":        {{"bare https://gohugo.io", true, whyQuoted}},
	"gohugoio__hugoDocs/content/en/methods/page/Aliases.md":             {{"bare https://example.org/", true, whyQuoted}},
	"gohugoio__hugoDocs/content/en/methods/page/RelPermalink.md":        {{"bare https://example.org/docs/", true, whyQuoted}},
	"gohugoio__hugoDocs/content/en/methods/site/Home.md":                {{"bare https://example.org/docs/", true, whyQuoted}},
	"gohugoio__hugoDocs/content/en/shortcodes/qr.md":                    {{"bare https://gohugo.io", true, whyQuoted}},
	"gohugoio__hugoDocs/content/en/templates/embedded.md":               {{"bare https://example.org/blog/my-post/", true, whyQuoted}},
	"gohugoio__hugoDocs/content/en/templates/introduction.md":           {{"bare https://example.org", true, whyQuoted}},
}

// fixtureExceptions are the fixtures of testdata/markdown, by archive and
// file name ("containers.txtar/lazy.md"), where urlls and goldmark differ.
var fixtureExceptions = map[string][]gmException{
	"references.txtar/text.md":         {{"bare http://u.example", true, whyBoundary}},
	"containers.txtar/html-in-item.md": {{"bare http://example.com/in-html-block", true, whyHTMLBlock}},
	"destinations.txtar/space.md": {
		{"https://example.com/about us", true, whyUnrendered}, {"images/my logo.png", true, whyUnrendered},
		{"bare https://example.com/about", false, whyUnrenderedPart},
	},
	"destinations.txtar/space-fragment.md":     {{"#initial setup", true, whyUnrendered}, {"../docs/user guide.md", true, whyUnrendered}},
	"destinations.txtar/hugo-ref.md":           {{`{{% relref "guide" %}}`, true, whyTemplate}, {`{{< ref "intro.md" >}}`, true, whyTemplate}},
	"destinations.txtar/hugo-baseurl.md":       {{"/docs/{{ .Version }}/install", true, whyTemplate}, {"{{ .Site.BaseURL }}/about", true, whyTemplate}},
	"destinations.txtar/hugo-eturl.md":         {{"{{% eturl opengraph %}}", true, whyTemplate}, {`{{< ref "alias.md" >}}`, true, whyTemplate}},
	"destinations.txtar/jekyll-link.md":        {{"{% link _posts/2024-01-01-hello.md %}", true, whyTemplate}, {"{{ site.baseurl }}{% link about.md %}", true, whyTemplate}},
	"destinations.txtar/template-and-space.md": {{"{{ .Site.BaseURL }}/about us", true, whyUnrendered}},
}

// gmParsers are goldmark parsers: CommonMark, GFM without linkify (for the
// destinations) and GFM with linkify (for the bare URLs).
var gmParsers = struct{ core, gfm, linkify parser.Parser }{
	core:    goldmark.New().Parser(),
	gfm:     goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough)).Parser(),
	linkify: goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify)).Parser(),
}

// gmDecode decodes a destination as goldmark's HTML renderer does
// (util.URLEscape with resolveReference, before its percent-encoding).
func gmDecode(b []byte) string {
	b = util.UnescapePunctuations(b)
	b = util.ResolveNumericReferences(b)
	b = util.ResolveEntityNames(b)
	return string(b)
}

// goldmarkFinds returns what goldmark finds in doc, sorted: destinations
// and URI autolinks, and with gfm set the bare URLs GFM links.
func goldmarkFinds(doc []byte, gfm bool) []string {
	p := gmParsers.core
	if gfm {
		p = gmParsers.gfm
	}
	var out, autolinks []string
	ast.Walk(p.Parse(text.NewReader(doc)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			if n.Reference == nil && len(n.Destination) > 0 {
				out = append(out, gmDecode(n.Destination))
			}
		case *ast.Image:
			if n.Reference == nil && len(n.Destination) > 0 {
				out = append(out, gmDecode(n.Destination))
			}
		case *ast.LinkReferenceDefinition:
			if len(n.Destination) > 0 {
				out = append(out, gmDecode(n.Destination))
			}
		case *ast.AutoLink:
			if n.AutoLinkType == ast.AutoLinkURL {
				u := string(n.URL(doc))
				out = append(out, u)
				autolinks = append(autolinks, u)
			}
		}
		return ast.WalkContinue, nil
	})
	if gfm {
		// The bare URLs are the autolinks linkify adds: those of a parse
		// with linkify less those of a parse without it.
		slices.Sort(autolinks)
		var all []string
		ast.Walk(gmParsers.linkify.Parse(text.NewReader(doc)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if a, ok := n.(*ast.AutoLink); ok && entering && a.AutoLinkType == ast.AutoLinkURL && a.Protocol == nil {
				all = append(all, string(a.URL(doc)))
			}
			return ast.WalkContinue, nil
		})
		slices.Sort(all)
		bare, _ := multisetDiff(all, autolinks)
		for _, u := range bare {
			out = append(out, "bare "+u)
		}
	}
	slices.Sort(out)
	return out
}

// urllsFinds returns what urlls finds in doc that goldmarkFinds compares
// with, sorted.
func urllsFinds(t *testing.T, doc []byte, gfm bool) []string {
	t.Helper()
	cands := Scan(doc, "markdown").Candidates
	checkInvariants(t, doc, cands)
	var out []string
	for _, c := range cands {
		switch c.Context {
		case Link, RefDef, Angle:
			out = append(out, c.Text)
		case Wrapped:
			lt := strings.LastIndexByte(string(doc[:c.Start]), '<')
			gt := c.End + strings.IndexByte(string(doc[c.End:]), '>')
			out = append(out, string(doc[lt+1:gt]))
		case Bare, Quoted:
			if gfm && (strings.HasPrefix(c.Text, "http:") || strings.HasPrefix(c.Text, "https:") || strings.HasPrefix(c.Text, "ftp:")) {
				out = append(out, "bare "+c.Text)
			}
		}
	}
	slices.Sort(out)
	return out
}

// multisetDiff returns the elements of the sorted a that are not in the
// sorted b, and the reverse, counting repeats.
func multisetDiff(a, b []string) (onlyA, onlyB []string) {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j >= len(b) || i < len(a) && a[i] < b[j]:
			onlyA = append(onlyA, a[i])
			i++
		case i >= len(a) || b[j] < a[i]:
			onlyB = append(onlyB, b[j])
			j++
		default:
			i++
			j++
		}
	}
	return onlyA, onlyB
}

// gmTally counts what a differential run compared.
type gmTally struct {
	docs, agree, excepted, compared, differences int
}

// compareWithGoldmark compares one document and checks its differences
// against the exceptions listed for it, which it consumes from *exc.
func compareWithGoldmark(t *testing.T, name string, doc []byte, gfm bool, exc *[]gmException, tally *gmTally) {
	t.Helper()
	gm, ul := goldmarkFinds(doc, gfm), urllsFinds(t, doc, gfm)
	tally.docs++
	tally.compared += len(gm)
	onlyGM, onlyUL := multisetDiff(gm, ul)
	if len(onlyGM)+len(onlyUL) == 0 {
		tally.agree++
	} else {
		tally.excepted++
	}
	tally.differences += len(onlyGM) + len(onlyUL)
	take := func(dest string, urlls bool) bool {
		for i, e := range *exc {
			if e.dest == dest && e.urlls == urlls {
				*exc = slices.Delete(*exc, i, i+1)
				return true
			}
		}
		return false
	}
	for _, d := range onlyUL {
		if !take(d, true) {
			t.Errorf("%s: urlls finds %q, goldmark does not (not a listed exception)", name, d)
		}
	}
	for _, d := range onlyGM {
		if !take(d, false) {
			t.Errorf("%s: goldmark finds %q, urlls does not (not a listed exception)", name, d)
		}
	}
	for _, e := range *exc {
		t.Errorf("%s: exception no longer needed: %q (urlls only: %v): %s", name, e.dest, e.urlls, e.reason)
	}
}

func TestGoldmarkSpec(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpusDir, "commonmark-spec", "spec.json"))
	if err != nil {
		t.Fatal(err)
	}
	var examples []struct {
		Markdown string `json:"markdown"`
		Example  int    `json:"example"`
	}
	if err := json.Unmarshal(data, &examples); err != nil {
		t.Fatal(err)
	}
	var tally gmTally
	seen := map[int]bool{}
	for _, ex := range examples {
		seen[ex.Example] = true
		exc := slices.Clone(specExceptions[ex.Example])
		compareWithGoldmark(t, fmt.Sprintf("spec example %d %q", ex.Example, ex.Markdown), []byte(ex.Markdown), false, &exc, &tally)
	}
	for n := range specExceptions {
		if !seen[n] {
			t.Errorf("exception for spec example %d, which does not exist", n)
		}
	}
	t.Logf("CommonMark spec: %d examples, %d agree, %d differ as listed (%d differences); %d destinations compared",
		tally.docs, tally.agree, tally.excepted, tally.differences, tally.compared)
}

// sharedDir returns ../shared beside the repository root, or skips the
// test when it is absent, unless CI is "true": CI has it.
func sharedDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared")
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("../shared beside the repository is missing (CI=true): %v", err)
		}
		t.Skipf("../shared beside the repository is missing: %v", err)
	}
	return dir
}

func TestGoldmarkRealworld(t *testing.T) {
	root := filepath.Join(sharedDir(t), "corpus", "realworld")
	var tally gmTally
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if ext := filepath.Ext(path); ext != ".md" && ext != ".mdx" {
			return nil
		}
		doc, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		seen[rel] = true
		exc := slices.Clone(realworldExceptions[rel])
		compareWithGoldmark(t, rel, doc, true, &exc, &tally)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if tally.docs == 0 {
		t.Fatalf("no Markdown under %s", root)
	}
	for name := range realworldExceptions {
		if !seen[name] {
			t.Errorf("exception for %s, which is not a Markdown file of the corpus", name)
		}
	}
	t.Logf("realworld: %d files, %d agree, %d differ as listed (%d differences); %d destinations and bare URLs compared",
		tally.docs, tally.agree, tally.excepted, tally.differences, tally.compared)
}

// TestGoldmarkFixtures compares the Markdown files of the txtar archives
// of testdata/markdown, written for urlls, one document per file.
func TestGoldmarkFixtures(t *testing.T) {
	archives, err := filepath.Glob(filepath.Join("testdata", "markdown", "*.txtar"))
	if err != nil || len(archives) == 0 {
		t.Fatalf("no fixtures in testdata/markdown: %v", err)
	}
	var tally gmTally
	seen := map[string]bool{}
	for _, path := range archives {
		ar, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			name := filepath.Base(path) + "/" + f.Name
			seen[name] = true
			exc := slices.Clone(fixtureExceptions[name])
			compareWithGoldmark(t, name, f.Data, true, &exc, &tally)
		}
	}
	for name := range fixtureExceptions {
		if !seen[name] {
			t.Errorf("exception for fixture %s, which does not exist", name)
		}
	}
	t.Logf("fixtures: %d documents, %d agree, %d differ as listed (%d differences); %d destinations and bare URLs compared",
		tally.docs, tally.agree, tally.excepted, tally.differences, tally.compared)
}

// TestTemplateDestinations checks that the scanner and Placeholders, which
// the checks use to leave template syntax alone, agree: in each candidate
// of the fixtures of testdata/markdown that is not in <…>, white space
// outside Placeholders' template actions ("{{…}}", "{%…%}") is there
// exactly when the candidate is Unrendered.
func TestTemplateDestinations(t *testing.T) {
	archives, _ := filepath.Glob(filepath.Join("testdata", "markdown", "*.txtar"))
	n := 0
	for _, path := range archives {
		ar, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			for _, c := range Scan(f.Data, "markdown").Candidates {
				if !strings.ContainsAny(c.Text, " \t") || f.Data[c.Start-1] == '<' {
					continue // white space in <…> is fine
				}
				n++
				outside := false
				spans := Placeholders(c.Text)
				for i := 0; i < len(c.Text); i++ {
					if c.Text[i] != ' ' && c.Text[i] != '\t' {
						continue
					}
					in := false
					for _, s := range spans {
						a := c.Text[s.Start:]
						if s.Start <= i && i < s.End && (strings.HasPrefix(a, "{{") || strings.HasPrefix(a, "{%")) {
							in = true
						}
					}
					outside = outside || !in
				}
				if outside != c.Unrendered {
					t.Errorf("%s: %s: white space outside template actions: %v, Unrendered: %v", f.Name, show(c), outside, c.Unrendered)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no candidate with white space in the fixtures")
	}
}
