package parser

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/urlls/urlls/analysis/grammar"
)

// corpusDir holds the copies of ../shared/corpus (see its README.md).
const corpusDir = "../../testdata/corpus"

// corpusInputs returns every string worth parsing in the external corpus:
// each URL, base and reference of the JSON and TSV tables, and each line and
// each white-space separated word of the text fixtures, deduplicated and
// sorted so that runs are repeatable.
func corpusInputs(t testing.TB) []string {
	t.Helper()
	seen := map[string]bool{}
	add := func(s string) {
		if len(s) <= 4096 {
			seen[s] = true
		}
	}
	addText := func(s string) {
		add(s)
		for _, w := range strings.Fields(s) {
			add(w)
			// The URL inside punctuation a writer put around it.
			add(strings.Trim(w, `<>()[]"'.,;:!?`))
		}
	}
	err := filepath.WalkDir(corpusDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		switch filepath.Ext(path) {
		case ".json":
			var v any
			if err := json.Unmarshal(data, &v); err != nil {
				return fmt.Errorf("%s: %v", path, err)
			}
			var walk func(v any)
			walk = func(v any) {
				switch v := v.(type) {
				case string:
					addText(v)
				case []any:
					for _, x := range v {
						walk(x)
					}
				case map[string]any:
					for _, x := range v {
						walk(x)
					}
				}
			}
			walk(v)
		case ".tsv":
			for _, line := range strings.Split(string(data), "\n") {
				if strings.HasPrefix(line, "#") {
					continue
				}
				for _, f := range strings.Split(line, "\t") {
					add(f)
				}
			}
		case ".txt":
			for _, line := range strings.Split(string(data), "\n") {
				addText(line)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// generatedURLs builds n realistic URLs of every RFC 1738 scheme, and
// relative references, from a fixed seed: the same list on every run.
func generatedURLs(n int) []string {
	r := rand.New(rand.NewPCG(1738, 1808))
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	words := []string{"index", "docs", "a", "pub", "README", "file.txt", "2024", "images", "logo.png",
		"api", "v1", "users", "search", "x%20y", "caf%C3%A9", "report-final_v2.pdf", "%7Euser", "en", "wiki", "Main_Page"}
	hosts := []string{"example.com", "www.example.com", "ftp.funet.fi", "localhost", "a.b.c.d.example.org",
		"192.168.0.1", "10.0.0.254", "news.example.net", "host-1.example.co.uk", "x.org", "mirror3.kernel.org"}
	path := func(k int) string {
		parts := make([]string, k)
		for i := range parts {
			parts[i] = pick(words...)
		}
		return strings.Join(parts, "/")
	}
	port := func() string {
		if r.IntN(4) == 0 {
			return ":" + pick("80", "8080", "21", "443", "70", "119", "23", "210", "1525")
		}
		return ""
	}
	query := func() string {
		return pick("q=go", "a=1&b=2", "id=42;x=y", "search=rfc%201738", "", "page=2&sort=asc")
	}
	var out []string
	for len(out) < n {
		h := pick(hosts...)
		var u string
		switch r.IntN(14) {
		case 0, 1, 2:
			u = "http://" + h + port() + "/" + path(r.IntN(4))
			if r.IntN(2) == 0 {
				u += "?" + query()
			}
		case 3, 4:
			u = "https://" + h + port() + "/" + path(1+r.IntN(3))
			if r.IntN(3) == 0 {
				u += "#" + pick("top", "section-2", "L10-L20", "")
			}
		case 5:
			u = "ftp://" + pick("", "anonymous@", "user:secret@") + h + port() + "/" + path(1+r.IntN(3)) + pick("", ";type=a", ";type=i", ";type=d")
		case 6:
			u = "file://" + pick("", "localhost", h) + "/" + path(1+r.IntN(3))
		case 7:
			u = "gopher://" + h + port() + "/" + pick("0", "1", "7") + path(1+r.IntN(2)) + pick("", "%09search", "%09q%09plus")
		case 8:
			u = "mailto:" + pick("user", "first.last", "info+list") + "@" + h
		case 9:
			u = "news:" + pick("comp.infosystems.www", "alt.test", "*", "1234@"+h, "msg.5%40x@"+h)
		case 10:
			u = "nntp://" + h + port() + "/" + pick("comp.lang.go", "alt.test") + pick("", "/123")
		case 11:
			u = "telnet://" + pick("", "guest@", "guest:pw@") + h + port() + pick("", "/")
		case 12:
			u = "wais://" + h + port() + "/" + pick("db", "src") + pick("", "?query", "/TEXT/doc-17")
		case 13:
			u = pick("prospero://"+h+port()+"/"+path(1+r.IntN(2))+pick("", ";type=text", ";a=b;c=d"),
				path(1+r.IntN(3)), "../"+path(1), "/"+path(2)+"?"+query(), "//"+h+"/"+path(1),
				"?"+query(), "#frag", "g;x=1?y", "urn:isbn:0451450523", "git+ssh://"+h+"/repo.git")
		}
		out = append(out, u)
	}
	return out
}

// benchURLs is the URL set of the benchmarks: the generated URLs and the
// corpus inputs that parse, relative references included.
func benchURLs(t testing.TB) []string {
	urls := generatedURLs(3000)
	for _, s := range corpusInputs(t) {
		if _, err := ReferenceRelative(s); err == nil && s != "" {
			urls = append(urls, s)
		}
	}
	return urls
}

// TestFastAgreesWithMatcherOnCorpus is the differential test: on every input
// of the corpus and the generated set, whenever the fast path builds a tree,
// the general matcher builds the same tree; and Parse, which falls back to
// the matcher, always answers as the matcher does.
func TestFastAgreesWithMatcherOnCorpus(t *testing.T) {
	inputs := append(corpusInputs(t), generatedURLs(3000)...)
	if len(inputs) < 4000 {
		t.Fatalf("only %d inputs: is testdata/corpus complete?", len(inputs))
	}
	var valid, fastValid int
	for _, in := range inputs {
		for _, relative := range []bool{false, true} {
			if msg := checkAgreement(in, relative); msg != "" {
				t.Errorf("%q (relative=%v): %s", in, relative, msg)
			}
			ref := Reference
			if relative {
				ref = ReferenceRelative
			}
			if _, err := ref(in); err == nil {
				valid++
				if _, ok := parseFast(in, relative); ok {
					fastValid++
				}
			}
		}
	}
	t.Logf("%d inputs; %d parses valid, %d of them on the fast path", len(inputs), valid, fastValid)
}

// errorCases are inputs that fail in each way the fast path reports a
// syntax error itself (errors.go), and near them.
var errorCases = []string{
	"http://h/%", "http://h/%4", "http://h/%4z", "http://h/a%", "http://h/a%z", "http://h/a%4", "http://h/a/%",
	"http://h/a/%zz", "http://h/{", "http://h/a{", "http://h/a/{", "http://h/a/b{", "http://h//{", "http://h/a//{",
	"http://h/?{", "http://h/?a{", "http://h/a?{", "http://h/a?b{", "http://h/?%", "http://h/?a%", "http://h/?%4",
	"http://h/?a%4x", "http://h/a?b/c", "http://h/a?b?c", "http://h/~", "http://h/a~", "http://h/ a", "http://h/a b",
	"HTTP://h/a b", "https://h/a b", "https://h/{", "https://h/a/{", "https://h/?{", "https://h/?a{", "https://h/a%",
	"https://h/?%", "http://1.2.3.4/a b", "http://h:80/a b", "http://h.a-b.c:8080/x/y?z{", "http://h/é", "http://h/?é",
	"http://h/a\x00", "http://h#{", "http://h#a{", "http://h/#%", "http://h#a%4", "https://h/a#b c", "a:b#{", "#{",
	"#a%", "a#%z", "{", "{a", " a", "é", "%", "%z", "a{", "/{", "//{", "?{", ";{", "a/{", "mailto:a#{",
	"http://h?a", "http://h:/a b", "http://h/a#b#c", "http://h/\u00e9{",
	"a b", "a/b c", "a/{", "a//{", "a%", "a%z", "a%4z", "a/b%", "a/%", "a/%z", "%", "%4", "/%", "/%z", "/a%",
	"/a/%", "/a b", "/a/b c", "/a/{", "/{", "/ ", "/a//b{", "a;b{", "a?b{", "a;b?c d", "/a;b c", "//h/a b",
	"http://{", "http://$X", "http://*.a", "http://", "http://%41", "http:///", "http://:80", "http://@h", "http://é",
	"http://-a/", "http://a-/", "http://a..b/", "http://1.2/", "http://1.2.3.4?", "http://1.2.3.4:x", "http://1.2.3.4:8?",
	"http://a?", "http://ab?", "http://a.b?", "http://a.bc?", "http://a.b2?", "http://1a.b?", "http://a.1b?", "http://a:?",
	"http://a:", "http://a:80?", "http://a:80x/", "http://a.b:8080 ", "https://depot.dev?x", "https://a\\.com/", "http://a-b.c-d?",
	"http://a.b.", "http://a.b./", "http://a.-b/", "http://_a/", "http://a_b/", "http://host:port", "http://u:p@h/", "http://u@h/",
	"HTTPS://A.B?", "http://1.2.3.4.5/", "http://1.2.3/", "http://123.45.6.7x/", "http://a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p?",
	"//h/{", "//h{", "./a b", "../a/b c", "a:b c", "/a:b@c{", "é/a", "/é", "a/é", "/a/é", "a/b/c/d{", "/a/b/c%zz",
}

func TestFastErrorsAgreeWithMatcher(t *testing.T) {
	for _, in := range errorCases {
		for _, relative := range []bool{false, true} {
			if msg := checkAgreement(in, relative); msg != "" {
				t.Errorf("%q (relative=%v): %s", in, relative, msg)
			}
		}
	}
}

// TestFastErrorsOnRealURLs checks the fast path's errors on the invalid URLs
// of real documents (testdata/real-invalid.txt) and counts how many it
// reports itself; the others go to the general matcher.
func TestFastErrorsOnRealURLs(t *testing.T) {
	invalid := realURLs(t, "real-invalid.txt")
	fastErrs := 0
	for _, in := range invalid {
		if msg := checkAgreement(in, true); msg != "" {
			t.Errorf("%q: %s", in, msg)
		}
		var p fast
		if !p.parse(in, true) && p.failShape != nil {
			fastErrs++
		}
	}
	for _, in := range realURLs(t, "real-valid.txt") {
		if msg := checkAgreement(in, true); msg != "" {
			t.Errorf("%q: %s", in, msg)
		}
	}
	t.Logf("%d invalid real URLs, %d errors from the fast path, %d from the general matcher", len(invalid), fastErrs, len(invalid)-fastErrs)
}

// TestFastPathCoversValidURLs keeps the speed claim honest: every valid URL of
// the generated set, which has every scheme, takes the fast path.
func TestFastPathCoversValidURLs(t *testing.T) {
	for _, in := range generatedURLs(3000) {
		if _, err := ReferenceRelative(in); err != nil {
			continue
		}
		if _, ok := parseFast(in, true); !ok {
			t.Errorf("valid URL %q misses the fast path", in)
		}
	}
}

// checkAgreement compares the fast path and Parse with the general matcher
// on one input; it returns "" when they agree.
func checkAgreement(in string, relative bool) string {
	parse, ref := Parse, Reference
	if relative {
		parse, ref = ParseReference, ReferenceRelative
	}
	want, wantErr := ref(in)
	if fastTree, ok := parseFast(in, relative); ok {
		if wantErr != nil {
			return fmt.Sprintf("fast path accepts, matcher says %v\nfast tree:\n%s", wantErr, fastTree)
		}
		if got, want := fastTree.String(), want.String(); got != want {
			return fmt.Sprintf("trees differ\nfast:\n%s\nmatcher:\n%s", got, want)
		}
	}
	got, gotErr := parse(in)
	switch {
	case (gotErr == nil) != (wantErr == nil):
		return fmt.Sprintf("Parse error %v, matcher error %v", gotErr, wantErr)
	case gotErr != nil:
		if g, w := errorString(gotErr), errorString(wantErr); g != w {
			return fmt.Sprintf("Parse error %s, matcher error %s", g, w)
		}
	case got.String() != want.String():
		return fmt.Sprintf("Parse tree differs\nParse:\n%s\nmatcher:\n%s", got, want)
	}
	// The reusable Parser answers as Parse does, with a tree that held
	// another URL's nodes before.
	var p Parser
	t := grammar.Tree{Nodes: make([]grammar.Node, 3, 64)}
	pErr := p.Parse(in, &t)
	if relative {
		pErr = p.ParseReference(in, &t)
	}
	switch {
	case errorString(pErr) != errorString(gotErr):
		return fmt.Sprintf("Parser error %s, Parse error %s", errorString(pErr), errorString(gotErr))
	case pErr == nil && t.String() != got.String():
		return fmt.Sprintf("Parser tree differs\nParser:\n%s\nParse:\n%s", t, got)
	}
	return ""
}

// errorString renders every field of a syntax error: offset, production,
// chain, expected and whether the matcher gave up.
func errorString(err error) string {
	if err == nil {
		return "<nil>"
	}
	var se *grammar.SyntaxError
	if !errors.As(err, &se) {
		return "not a *grammar.SyntaxError: " + err.Error()
	}
	var chain []string
	for _, r := range se.Chain {
		chain = append(chain, r.Name)
	}
	return fmt.Sprintf("{%q offset %d rule %s chain %v expected %q gaveUp %v}", se.Input, se.Offset, se.Rule.Name, chain, se.Expected, se.GaveUp)
}

// FuzzParse looks for an input where the fast path and the general matcher
// disagree, or where either panics.
func FuzzParse(f *testing.F) {
	for _, s := range generatedURLs(200) {
		f.Add(s)
	}
	for _, s := range []string{"", "#", "http://", "HTTP://A.B:1/%41?%zz#%", "news:*", "file:///", "ftp://@h/;type=a",
		"gopher://h/%09", "wais://h/d/t/p", "prospero://h/p;a=b", "//h/p;q?r", "mailto:", "a:b"} {
		f.Add(s)
	}
	for _, s := range errorCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, relative := range []bool{false, true} {
			if msg := checkAgreement(in, relative); msg != "" {
				t.Errorf("%q (relative=%v): %s", in, relative, msg)
			}
		}
	})
}

// TestFastErrorsOnRandomURLs compares the fast path with the general
// matcher on random inputs over the bytes that decide where a URL fails
// (label and segment bytes, separators, escapes, bytes no URL holds), after
// the prefixes whose failures the fast path reports itself.
func TestFastErrorsOnRandomURLs(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 3))
	prefixes := []string{"http://", "https://", "HTTP://", "", "/", "//", "file://", "ftp://", "x:"}
	pieces := []string{"a", "b", "Z", "1", "9", "-", ".", ":", "/", "?", ";", "=", "&", "@", "%", "%4", "%41", "%zz",
		"#", "{", " ", "~", "é", "ab", "12", "a.b", "1.2.3.4", ":80", "_"}
	for i := 0; i < 20000; i++ {
		var sb strings.Builder
		sb.WriteString(prefixes[r.IntN(len(prefixes))])
		for n := r.IntN(8); n >= 0; n-- {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		in := sb.String()
		for _, relative := range []bool{false, true} {
			if msg := checkAgreement(in, relative); msg != "" {
				t.Fatalf("%q (relative=%v): %s", in, relative, msg)
			}
		}
	}
}
