package checks

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/urlls/urlls/analysis/grammar"
	"github.com/urlls/urlls/analysis/parser"
	"github.com/urlls/urlls/analysis/scan"
)

// digitsRule returns the start rule of a user's grammar for http that
// reads URLs another way than RFC 1738 ("http://" and digits).
func digitsRule(tb testing.TB) *grammar.Rule {
	tb.Helper()
	user, err := grammar.LoadUser("x.abnf", "x.abnf", []byte("xurl = \"http://\" 1*DIGIT\n"))
	if err != nil {
		tb.Fatal(err)
	}
	r := user.Rule("xurl")
	if r == nil {
		tb.Fatal("no rule xurl")
	}
	return r
}

// withoutMemo checks each candidate alone, as CheckURL does: what
// CheckCandidates, which remembers the findings of a URL seen before in the
// document (urlMemo), must return too.
func withoutMemo(o Options, doc []byte, cands []scan.Candidate) []Diagnostic {
	var out []Diagnostic
	for _, c := range cands {
		out = append(out, o.CheckURL(doc, c)...)
	}
	return out
}

// TestMemoRealworld: on every real document, under each grammar, the
// findings with the memo are those without it.
func TestMemoRealworld(t *testing.T) {
	repeated := 0
	realworldDocs(t, func(path, lang string, doc []byte) {
		cands := scan.Scan(doc, lang).Candidates
		seen := map[string]bool{}
		for _, c := range cands {
			if seen[c.Text] {
				repeated++
			}
			seen[c.Text] = true
		}
		for _, name := range parser.ProfileNames() {
			profile, _ := parser.ProfileNamed(name)
			o := Options{Grammar: profile}
			got, want := o.CheckCandidates(doc, cands), withoutMemo(o, doc, cands)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s (%s): with the memo\n%v\nwithout\n%v", path, name, got, want)
			}
			// A Checker, one candidate at a time, as the language server
			// checks what an edit changed.
			k := o.NewChecker()
			var one []Diagnostic
			for _, c := range cands {
				one = append(one, k.CheckURL(doc, c)...)
			}
			if !reflect.DeepEqual(one, want) {
				t.Errorf("%s (%s): with a Checker\n%v\nwithout the memo\n%v", path, name, one, want)
			}
		}
	})
	if repeated == 0 {
		t.Error("no URL repeated in the corpus: the test tests nothing")
	}
	t.Logf("%d repeated URLs", repeated)
}

// TestMemoContexts: the same URL text in the contexts that change how it
// is read (a relative reference in a link and in text, a link destination
// in <…> that may hold spaces, one that does not render, HTML character
// references, a <URL:…> wrapper, a user's grammar), several times over in
// one document and in turn, gets the findings it gets alone.
func TestMemoContexts(t *testing.T) {
	xurl := digitsRule(t)
	cases := []struct {
		name, lang, doc string
		opts            Options
	}{
		{"relative in link and text", "markdown",
			"[a](my notes/a%zz.md) my notes/a%zz.md [b](<my notes/a%zz.md>) <my notes/a%zz.md>\n", Options{}},
		{"spaced destination", "markdown",
			"[a](<docs/my file.md>) [b](docs/my file.md) [c](<docs/my file.md>)\n\n[r]: <docs/my file.md>\n", Options{}},
		{"absolute with space", "markdown",
			"[a](<https://x.org/a b>) [b](https://x.org/a b) <https://x.org/a b> [c](<https://x.org/a b>)\n", Options{}},
		{"unrendered", "markdown",
			"[a](see https://x.org/a b) [b](see https://x.org/a b) [c](https://x.org/a|b) [d](https://x.org/a|b)\n", Options{}},
		{"html entities", "html",
			`<a href="http://x.org/a|b&amp;c%zz">1</a> <a href="http://x.org/a|b&#38;c%zz">2</a> <a href="http://x.org/a|b&c%zz">3</a>` + "\n", Options{}},
		{"wrappers", "plaintext",
			"<URL:http://x.org/a b%zz> <URL:http://x.org/a\n b%zz> http://x.org/a%zz <URL:http://x.org/a%zz>\n", Options{}},
		{"scheme case and typo", "markdown",
			"HTTP://X.org/~a htps://x.org/~a [l](HTTP://X.org/~a) [m](htps://x.org/~a) HTTP://X.org/~a\n", Options{}},
		{"grammar", "plaintext", "http://[::1]/a~b http://u:p@h/ http://[::1]/a~b\n", Options{Grammar: parser.RFC3986}},
		{"user grammar", "plaintext", "http://12 http://1a http://12 http://1a\n", Options{Schemes: map[string]*grammar.Rule{"http": xurl}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// Each case twice in a row, so that every URL is met again.
			doc := []byte(tc.doc + tc.doc)
			cands := scan.Scan(doc, tc.lang).Candidates
			got, want := tc.opts.CheckCandidates(doc, cands), withoutMemo(tc.opts, doc, cands)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("with the memo\n%v\nwithout\n%v", got, want)
			}
			if len(want) == 0 {
				t.Error("no findings: the case tests nothing")
			}
		})
	}
}

// TestMemoBound: a document of more different URLs than the memo holds
// gets the findings it gets without the memo.
func TestMemoBound(t *testing.T) {
	var b strings.Builder
	for i := range maxMemo + 100 {
		fmt.Fprintf(&b, "http://x.org/%d/a%%zz http://x.org/%d/a%%zz\n", i%(maxMemo+50), i)
	}
	doc := []byte(b.String())
	cands := scan.Scan(doc, "plaintext").Candidates
	got, want := CheckCandidates(doc, cands), withoutMemo(Options{}, doc, cands)
	if !reflect.DeepEqual(got, want) {
		t.Error("the findings with the memo differ from those without")
	}
}

// FuzzMemo: a document made of a few URLs, each repeated in several
// contexts, gets the same findings with the memo as without.
func FuzzMemo(f *testing.F) {
	f.Add("http://x.org/a%zz", "../a b", uint8(0))
	f.Add("HTTP://x.org/a|b~c", "my file.md", uint8(3))
	f.Add("htps://x.org/é", "<a>", uint8(7))
	f.Fuzz(func(t *testing.T, u, v string, shape uint8) {
		if len(u)+len(v) > 200 {
			return
		}
		forms := []string{"%s", "<%s>", "[l](%s)", "[l](<%s>)", "<URL:%s>", `<a href="%s">x</a>`, "`%s`", "\"%s\""}
		doc := shapedDocument(u, v, shape, forms, 12, " ")
		for _, lang := range []string{"markdown", "html", "plaintext"} {
			cands := scan.Scan(doc, lang).Candidates
			got, want := CheckCandidates(doc, cands), withoutMemo(Options{}, doc, cands)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %q: with the memo\n%v\nwithout\n%v", lang, doc, got, want)
			}
		}
	})
}

// TestMemoShortLived: the findings of a URL met for the first time are
// made in memory the next check writes over (scratch.short); URLs with
// findings met once, twice and more, interleaved, and a Checker that
// checks them one at a time, still get the findings of a check of each
// alone.
func TestMemoShortLived(t *testing.T) {
	urls := []string{"http://a.org/%zz", "http://b.org/a b|c", "http://c.org/~x%", "HTTP://d.org/é", "http://e.org/ok"}
	var b strings.Builder
	for i := range 200 {
		// Each URL again after a varying number of others.
		fmt.Fprintf(&b, "%s and %s/%d\n", urls[i%len(urls)], urls[(i*7)%len(urls)], i%3)
	}
	doc := []byte(b.String())
	cands := scan.Scan(doc, "plaintext").Candidates
	want := withoutMemo(Options{}, doc, cands)
	if got := CheckCandidates(doc, cands); !reflect.DeepEqual(got, want) {
		t.Errorf("with the memo\n%v\nwithout\n%v", got, want)
	}
	k := Options{}.NewChecker()
	var one []Diagnostic
	for _, c := range cands {
		one = append(one, k.CheckURL(doc, c)...)
	}
	if !reflect.DeepEqual(one, want) {
		t.Errorf("with a Checker\n%v\nwithout the memo\n%v", one, want)
	}
	if len(want) < len(cands) {
		t.Errorf("%d findings for %d URLs: most should have some", len(want), len(cands))
	}
}

// TestCleanRealworld: one Clean shared by every real document, under every
// grammar in turn and brief as well as full, changes no finding: each
// document's are those of CheckURL, URL by URL.
func TestCleanRealworld(t *testing.T) {
	clean := NewClean()
	checked := 0
	realworldDocs(t, func(path, lang string, doc []byte) {
		cands := scan.Scan(doc, lang).Candidates
		checked += len(cands)
		for _, name := range parser.ProfileNames() {
			profile, _ := parser.ProfileNamed(name)
			for _, brief := range []bool{false, true} {
				o := Options{Grammar: profile, Brief: brief}
				got, want := o.CheckCandidatesClean(doc, cands, clean), withoutMemo(o, doc, cands)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s (%s, brief %v): with a Clean\n%v\nwithout\n%v", path, name, brief, got, want)
				}
			}
		}
	})
	// Every grammar but the first meets each clean URL of a document
	// again; the second document of a repository meets its links.
	if clean.hits == 0 {
		t.Errorf("%d URLs checked, none found in the Clean: the test tests nothing", checked)
	}
	t.Logf("%d URLs, %d checks saved", checked, clean.hits)
}

// TestCleanReadings: a URL clean read one way is checked again when read
// another: under another grammar, as a relative reference where it is a
// URL, in a Markdown destination in "<…>", with a user's rule.
func TestCleanReadings(t *testing.T) {
	xurl := digitsRule(t)
	rfc3986, _ := parser.ProfileNamed("rfc3986")
	for _, tc := range []struct {
		name           string
		first, second  Options
		doc, lang, url string
	}{
		{"grammar", Options{Grammar: rfc3986}, Options{}, "see http://[::1]/a\n", "plaintext", "http://[::1]/a"},
		{"user rule", Options{}, Options{Schemes: map[string]*grammar.Rule{"http": xurl}}, "see http://abc\n", "plaintext", "http://abc"},
		{"spaced path", Options{}, Options{}, "[a](<my notes.md>) and [b](my notes.md)\n", "markdown", "my notes.md"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cands := scan.Scan([]byte(tc.doc), tc.lang).Candidates
			clean := NewClean()
			for _, o := range []Options{tc.first, tc.second} {
				doc := []byte(tc.doc)
				got, want := o.CheckCandidatesClean(doc, cands, clean), withoutMemo(o, doc, cands)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("with a Clean\n%v\nwithout\n%v", got, want)
				}
			}
			if _, ok := clean.texts[tc.url]; !ok {
				t.Errorf("%q was not remembered: the test tests nothing (%v)", tc.url, clean.texts)
			}
		})
	}
}

// TestCleanBounds: a Clean keeps no text longer than maxCleanText, and
// starts afresh past maxClean texts; what it keeps is its own copy.
func TestCleanBounds(t *testing.T) {
	clean := NewClean()
	long := "http://x.org/" + strings.Repeat("a", maxCleanText)
	Options{}.CheckCandidatesClean([]byte(long), []scan.Candidate{{Start: 0, End: len(long), Text: long}}, clean)
	if len(clean.texts) != 0 {
		t.Errorf("a text of %d bytes was kept", len(long))
	}
	for i := range maxClean + 1 {
		u := fmt.Sprintf("http://x%d.org/", i)
		Options{}.CheckCandidatesClean([]byte(u), []scan.Candidate{{Start: 0, End: len(u), Text: u}}, clean)
	}
	if len(clean.texts) != 1 {
		t.Errorf("%d texts kept past maxClean, want 1 (a fresh start)", len(clean.texts))
	}
	doc := []byte("http://y.org/ab")
	text := string(doc[:13]) // a substring of a larger string, as a scan's
	clean.add(text, reading{})
	for k := range clean.texts {
		if k == text && unsafe.StringData(k) == unsafe.StringData(text) {
			t.Error("the Clean keeps the caller's string, not a copy")
		}
	}
}

// FuzzClean: documents of two URLs in the contexts that change how a text
// is read (a link destination in "<…>", a relative reference, a string
// literal the program completes), in several languages, checked under
// every grammar, brief and full, with and without a user's grammar for
// http, one Clean shared by all of them in one order and then the other,
// get the findings each gets alone: a text remembered clean one way never
// hides a finding of another.
func FuzzClean(f *testing.F) {
	users := map[string]*grammar.Rule{"http": digitsRule(f)}
	var opts []Options
	for _, name := range parser.ProfileNames() {
		profile, _ := parser.ProfileNamed(name)
		for _, brief := range []bool{false, true} {
			opts = append(opts, Options{Grammar: profile, Brief: brief}, Options{Grammar: profile, Brief: brief, Schemes: users})
		}
	}
	f.Add("http://x.org/a", "my notes.md", uint8(0))
	f.Add("http://12", "http://[::1]/a~b", uint8(5))
	f.Add("http://user@", "javascript:f(1, 2)", uint8(9))
	f.Add("https://x.org/a b", "../a%zz", uint8(3))
	f.Fuzz(func(t *testing.T, u, v string, shape uint8) {
		if len(u)+len(v) > 200 {
			return
		}
		forms := []string{"%s", "<%s>", "[l](%s)", "[l](<%s>)", "\"%s\" + x", "x(\"%s\")", "<a href=\"%s\">x</a>", "`%s`"}
		doc := shapedDocument(u, v, shape, forms, 10, "\n")
		clean := NewClean()
		for pass := range 2 {
			for k := range opts {
				o := opts[k]
				if pass == 1 {
					o = opts[len(opts)-1-k]
				}
				for _, lang := range []string{"markdown", "go", "html", "plaintext"} {
					cands := scan.Scan(doc, lang).Candidates
					got, want := o.CheckCandidatesClean(doc, cands, clean), withoutMemo(o, doc, cands)
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s %+v %q: with a Clean\n%v\nwithout\n%v", lang, o, doc, got, want)
					}
				}
			}
		}
	})
}

// shapedDocument is the document of the fuzz targets FuzzMemo and FuzzClean:
// n URLs, each u or v as the bits of shape say, written in the forms in
// turn from the one shape picks, and each followed by sep.
func shapedDocument(u, v string, shape uint8, forms []string, n int, sep string) []byte {
	var b strings.Builder
	for i := range n {
		w := u
		if (int(shape)>>(i%8))&1 == 1 {
			w = v
		}
		fmt.Fprintf(&b, forms[(i+int(shape))%len(forms)]+sep, w)
	}
	return []byte(b.String())
}

// TestCleanKeepsEarlierDiagnostics: the Checkers made with one Clean
// share their working memory, document after document, as a worker of
// check uses them. What each returned must not change as later documents
// are checked (check prints a file's findings while its workers go on),
// and must be what a check from scratch finds, fixes included: bad
// escapes and unsafe characters with fixes, between real documents.
func TestCleanKeepsEarlierDiagnostics(t *testing.T) {
	type checked struct {
		name      string
		doc       []byte
		cands     []scan.Candidate
		got, want []Diagnostic
		copyOfGot string
	}
	var all []checked
	clean := NewClean()
	add := func(name, lang string, doc []byte) {
		cands := scan.Scan(doc, lang).Candidates
		got := Options{}.CheckCandidatesClean(doc, cands, clean)
		all = append(all, checked{name: name, doc: doc, cands: cands, got: got, copyOfGot: fmt.Sprintf("%#v", got)})
	}
	for i := range 40 {
		add(fmt.Sprintf("bad%d", i), "markdown", []byte(fmt.Sprintf(
			"[a](http://x.org/a%%zz%d) and http://y.org/b c|d%d\n<http://z.org/%%g%d%%20>\n", i, i, i)))
	}
	realworldDocs(t, func(path, lang string, doc []byte) { add(path, lang, doc) })
	fixes := 0
	for i := range all {
		c := &all[i]
		if now := fmt.Sprintf("%#v", c.got); now != c.copyOfGot {
			t.Fatalf("%s: its diagnostics changed as later documents were checked:\nthen %s\nnow  %s", c.name, c.copyOfGot, now)
		}
		if want := withoutMemo(Options{}, c.doc, c.cands); !reflect.DeepEqual(c.got, want) {
			t.Errorf("%s: with a shared Clean\n%v\nfrom scratch\n%v", c.name, c.got, want)
		}
		for _, d := range c.got {
			fixes += len(d.SuggestedFixes)
		}
	}
	if fixes < 80 {
		t.Errorf("only %d fixes in %d documents: the test tests little", fixes, len(all))
	}
}

// TestCleanReusesMemory: a Checker made with a Clean that made one before
// reuses its memory: checking a small document again allocates less than
// a Checker of its own does, and nothing at all when its URLs are clean
// (they are in the Clean, and the Checker's memo is not made for them).
func TestCleanReusesMemory(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		most      float64 // allocations with the Clean, at most
	}{
		{"findings", "see http://x.org/a and http://x.org/a and http://y.org/%zz\n", 3},
		{"clean", "see http://x.org/a and http://x.org/a and http://y.org/b, http://y.org/b\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := []byte(tc.doc)
			cands := scan.Scan(doc, "plaintext").Candidates
			clean := NewClean()
			Options{}.CheckCandidatesClean(doc, cands, clean)
			if m := clean.spare.memo.m; tc.most == 0 && m != nil {
				t.Errorf("the memo holds %d texts the Clean has", len(m))
			}
			shared := testing.AllocsPerRun(50, func() { Options{}.CheckCandidatesClean(doc, cands, clean) })
			own := testing.AllocsPerRun(50, func() { Options{}.CheckCandidatesClean(doc, cands, nil) })
			if shared >= own || shared > tc.most {
				t.Errorf("a check with a shared Clean allocates %v times (at most %v), one of its own %v", shared, tc.most, own)
			}
			t.Logf("allocations: shared %v, own %v", shared, own)
		})
	}
}

// TestCleanLetsHugeScratchGo: the working memory a huge URL grew is not
// kept for the next document (it would stay for the rest of a run), and
// what an ordinary one grew is.
func TestCleanLetsHugeScratchGo(t *testing.T) {
	clean := NewClean()
	huge := []byte("see http://x.org/" + strings.Repeat("a%zz", 100_000) + "\n")
	Options{}.CheckCandidatesClean(huge, scan.Scan(huge, "plaintext").Candidates, clean)
	if n := clean.spare.memo.scratch.retained(); n <= maxKeptScratch {
		t.Fatalf("a URL of %d bytes left only %d bytes of scratch: the test tests nothing", len(huge), n)
	}
	small := []byte("see http://y.org/%zz\n")
	Options{}.NewCheckerClean(1, clean) // the next document's Checker
	if n := clean.spare.memo.scratch.retained(); n > maxKeptScratch {
		t.Errorf("the next document's Checker keeps %d bytes of scratch", n)
	}
	Options{}.CheckCandidatesClean(small, scan.Scan(small, "plaintext").Candidates, clean)
	kept := clean.spare.memo.scratch.retained()
	Options{}.NewCheckerClean(1, clean)
	if n := clean.spare.memo.scratch.retained(); n != kept || n == 0 {
		t.Errorf("an ordinary document's scratch (%d bytes) is not kept for the next: %d", kept, n)
	}
}
