package checks

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/urlls/urlls/analysis/parser"
	"github.com/urlls/urlls/analysis/scan"
)

var propertyBases = []string{
	"http://www.example.com/",
	"http://example.com:8080/path/to/file.html?query=1&b=2#frag",
	"https://example.com/a;b:c@d&e=f",
	"http://192.168.0.1/x",
	"ftp://ftp.example.com/pub/file.txt;type=i",
	"ftp://anonymous@ftp.example.com/pub",
	"file:///etc/passwd",
	"file://localhost/etc/hosts",
	"gopher://gopher.example.com/1selector%09search",
	"mailto:someone@example.com",
	"news:comp.lang.go",
	"news:12345@news.example.com",
	"nntp://news.example.com/comp.lang.go/42",
	"telnet://host.example.com/",
	"wais://wais.example.com/db?query",
	"wais://wais.example.com/db/type/path",
	"prospero://host.example.com/path;field=value",
	"foo:bar/baz",
	"afs://cell.example.com/path",
}

// propertyTokens are the defects inserted at a random place.
var propertyTokens = []string{"%zz", "%4", "%", " ", "\t", "|", "{}", "^", "`", "\"", "<", "~", "é", "例え", "\xff", "%41", "%2d", "%2E", "%2e", "[", "]", "(", ")", "{", "}", "'", "&", ";", ".", ",", "#", "?", "/", ":", "@", "\u00a0", "\u3000"}

// inject returns url with one to three defects.
func inject(rng *rand.Rand, url string) string {
	for n := 1 + rng.IntN(3); n > 0; n-- {
		sch := parser.Scheme(url)
		au := parseAuthority(url, sch)
		switch k := rng.IntN(12); {
		case k == 0 && sch != "":
			url = strings.ToUpper(sch[:1]) + url[1:]
		case k == 1 && au.ok:
			host := []string{"[::1]", "[2001:db8::7]", "10.0.0.300", "256.1.2.3", "bücher.example", "a b.com", "x-.com"}[rng.IntN(7)]
			url = url[:au.hostStart] + host + url[au.hostEnd:]
		case k == 2 && au.ok:
			url = url[:au.hostEnd] + []string{":99999", ":", ":8a", ":65536"}[rng.IntN(4)] + url[au.end:]
		case k == 3 && au.ok:
			url = url[:au.start] + []string{"user:pw@", "u@", "u:@", "us er:p~w@"}[rng.IntN(4)] + url[au.start:]
		case k == 4 && au.ok && au.end < len(url):
			url += []string{"?a/b", "?x=http://y/?z", "/?a?b"}[rng.IntN(3)]
		default:
			at := len(sch) + 1 + rng.IntN(len(url)-len(sch))
			if at > len(url) {
				at = len(url)
			}
			url = url[:at] + propertyTokens[rng.IntN(len(propertyTokens))] + url[at:]
		}
	}
	return url
}

// The ways a URL stands in a document, each with its decoding.
const (
	modePlain = iota
	modeEntities
	modeWrapped
	modes
)

// encode returns a document holding url the mode's way, and the bounds of
// the URL in it.
func encode(rng *rand.Rand, url string, mode int) (doc []byte, start, end int) {
	doc = []byte("text before <")
	start = len(doc)
	switch mode {
	case modePlain:
		doc = append(doc, url...)
	case modeEntities:
		for i := 0; i < len(url); {
			r, size := utf8.DecodeRuneInString(url[i:])
			switch {
			case url[i] == '&':
				doc = append(doc, "&amp;"...)
			case r != utf8.RuneError && rng.IntN(4) == 0:
				doc = append(doc, "&#"+strconv.Itoa(int(r))+";"...)
			default:
				doc = append(doc, url[i:i+size]...)
			}
			i += size
		}
	case modeWrapped:
		for i := 0; i < len(url); i++ {
			if i > 0 && rng.IntN(8) == 0 {
				doc = append(doc, "\n    "...)
			}
			doc = append(doc, url[i])
		}
	}
	end = len(doc)
	doc = append(doc, "> and after"...)
	return doc, start, end
}

// decode makes the candidate for doc[start:end] the mode's way, as the
// tokenizer would.
func decode(doc []byte, start, end, mode int, relative bool) scan.Candidate {
	c := scan.Candidate{Start: start, End: end, Relative: relative}
	switch mode {
	case modePlain:
		c.Text = string(doc[start:end])
		return c
	case modeWrapped:
		return wrapped(doc, start, end)
	}
	var text []byte
	for i := start; i < end; {
		if doc[i] == '&' {
			if bytes.HasPrefix(doc[i:end], []byte("&amp;")) {
				text = append(text, '&')
				c.Offsets = append(c.Offsets, i)
				i += 5
				continue
			}
			if semi := bytes.IndexByte(doc[i:end], ';'); bytes.HasPrefix(doc[i:end], []byte("&#")) && semi > 2 {
				if n, err := strconv.Atoi(string(doc[i+2 : i+semi])); err == nil {
					for _, b := range []byte(string(rune(n))) {
						text = append(text, b)
						c.Offsets = append(c.Offsets, i)
					}
					i += semi + 1
					continue
				}
			}
		}
		text = append(text, doc[i])
		c.Offsets = append(c.Offsets, i)
		i++
	}
	c.Offsets = append(c.Offsets, end)
	c.Text = string(text)
	return c
}

// mapDocBack maps offset p of a document after edits to the document before.
func mapDocBack(p int, edits []TextEdit) int {
	shift := 0
	for _, e := range edits {
		ns := e.Start + shift
		if p < ns {
			break
		}
		if p < ns+len(e.NewText) {
			return e.Start
		}
		shift += len(e.NewText) - (e.End - e.Start)
	}
	return p - shift
}

// existed reports whether g, found after edits, was there before them: the
// same code at the same place, its start or (with the same message) its end
// mapped back. The end matters for a syntax error at the end of the input,
// whose span is the last character: when a fix rewrote that character, the
// span's start moved into the fix's new text but its end did not move.
func existed(before []Diagnostic, g Diagnostic, edits []TextEdit) bool {
	start, end := mapDocBack(g.Start, edits), mapDocBack(g.End, edits)
	for _, b := range before {
		// The findings of one code in a URL are merged into one (merge):
		// what is left of them after a fix lies inside the span they had.
		if b.Code == g.Code && (b.Start == start || b.End == end && b.Message == g.Message || b.Start <= start && end <= b.End) {
			return true
		}
	}
	return false
}

// exposedByFix reports whether a finding of code g, after a fix of a
// finding of code d, may be one the fix only let the syntax parse reach
// (verifier.exposed): the fixes of scheme-typo and syntax findings rewrite
// the scheme or its "://", and another production then judges the URL.
func exposedByFix(d, g string) bool {
	return (d == codeSchemeTypo || d == codeSyntax) && (g == codeSyntax || g == codeRFC1738Unsafe)
}

func isViolation(code string) bool {
	c, _ := Lookup(code)
	return c.Severity == Error || c.Strict == Error
}

// checkFixes applies every fix of every diagnostic of the candidate and
// checks the fix properties; it returns the codes whose fixes it applied.
func checkFixes(t *testing.T, doc []byte, c scan.Candidate, mode int) map[string]int {
	t.Helper()
	applied := map[string]int{}
	before := CheckURL(doc, c)
	for _, d := range before {
		for _, fx := range d.SuggestedFixes {
			name := fmt.Sprintf("%q %s [%d,%d) fix %q %+v", c.Text, d.Code, d.Start, d.End, fx.Message, fx.Edits)
			prev := c.Start
			for _, e := range fx.Edits {
				if e.Start < prev || e.End < e.Start || e.End > c.End {
					t.Fatalf("%s: edit outside the URL, unordered or overlapping", name)
				}
				prev = e.End
			}
			fixed, err := applyDocEdits(doc, fx.Edits)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			// (b) the document outside the URL is byte-identical.
			tail := len(doc) - c.End
			if !bytes.Equal(fixed[:c.Start], doc[:c.Start]) || !bytes.Equal(fixed[len(fixed)-tail:], doc[c.End:]) {
				t.Fatalf("%s: changed the document outside the URL", name)
			}
			nc := decode(fixed, c.Start, len(fixed)-tail, mode, c.Relative)
			for _, g := range CheckURL(fixed, nc) {
				at := mapDocBack(g.Start, fx.Edits)
				// (a) the diagnostic is gone.
				if g.Code == d.Code && at == d.Start {
					t.Errorf("%s: still there after the fix in %q: %+v", name, nc.Text, g)
				}
				// (c) no new error.
				if !isViolation(g.Code) {
					continue
				}
				if !existed(before, g, fx.Edits) && !exposedByFix(d.Code, g.Code) {
					t.Errorf("%s: new %s in %q: %s", name, g.Code, nc.Text, g.Message)
				}
			}
			applied[d.Code]++
		}
	}
	return applied
}

func TestFixProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1738, 1808))
	applied := map[string]int{}
	urls := 0
	for range 3000 {
		url := inject(rng, propertyBases[rng.IntN(len(propertyBases))])
		for mode := range modes {
			doc, start, end := encode(rng, url, mode)
			c := decode(doc, start, end, mode, rng.IntN(4) == 0)
			for code, n := range checkFixes(t, doc, c, mode) {
				applied[code] += n
			}
			urls++
		}
		if t.Failed() {
			break
		}
	}
	t.Logf("%d URLs, fixes applied: %v", urls, applied)
	for _, code := range []string{codeBadEscape, codeUnsafeChar, codeRFC1738Unsafe, codeNonASCII, codeSchemeCase, codeRedundantEscape} {
		if applied[code] < 20 {
			t.Errorf("only %d %s fixes exercised", applied[code], code)
		}
	}
}

// fixAll merges the first fix of each diagnostic as an editor's "fix all"
// does: the fixes of different diagnostics may share edits (the "}" that
// the fix of its "{" encodes too) or overlap; an edit already taken is not
// taken twice, and a fix that would overlap another otherwise is left for
// the next round.
func fixAll(ds []Diagnostic) []TextEdit {
	var taken []TextEdit
	for _, d := range ds {
		if len(d.SuggestedFixes) == 0 {
			continue
		}
		var add []TextEdit
		ok := true
		for _, e := range d.SuggestedFixes[0].Edits {
			dup := false
			for _, o := range taken {
				if o == e {
					dup = true
				} else if e.Start < o.End && o.Start < e.End {
					ok = false
				}
			}
			if !dup {
				add = append(add, e)
			}
		}
		if ok {
			taken = append(taken, add...)
		}
	}
	sort.Slice(taken, func(i, j int) bool { return taken[i].Start < taken[j].Start })
	return taken
}

// TestFixAll applies the first fix of every diagnostic of a URL, as an
// editor's "fix all" does, and checks that only the diagnostics without a
// fix remain.
func TestFixAll(t *testing.T) {
	for _, url := range []string{
		"HTTP://x.com/a b{c}%zz~é%41",
		"http://bücher.example/パス?q=a|b{",
		"ftp://u@h.com/%7e%2d~x;type=i",
	} {
		doc, c := candidateIn(url, false)
		fixed, err := applyDocEdits(doc, fixAll(CheckURL(doc, c)))
		if err != nil {
			t.Fatalf("%s: %v", url, err)
		}
		nc := decode(fixed, c.Start, len(fixed)-len(docAfter), modePlain, false)
		for _, d := range CheckURL(fixed, nc) {
			if len(d.SuggestedFixes) > 0 || d.Code == codeSyntax {
				t.Errorf("%s -> %s: left %+v", url, nc.Text, d)
			}
		}
	}
}
