package scan

import (
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The fixtures are copies of ../shared/corpus (see testdata/corpus/README.md
// and each folder's SOURCE.md).
const corpusDir = "../../testdata/corpus"

// Which fixtures are in scope: urlls finds URLs that have a scheme. It never
// links "www.example.com", bare domains, IP addresses, "//host" or e-mail
// addresses without "mailto:", because it has no grammar to check them
// against and would have to invent the scheme. So:
//   - a linkify-it links.txt case is in scope when the link it expects
//     starts with a scheme (hasScheme); its first candidate must then be
//     exactly that text, at its place in the input;
//   - a not_links.txt line is in scope when it holds a scheme-like string
//     ("letters:"); Scan must then find nothing in it;
//   - a GFM link is in scope when the link text (or an image's src) starts
//     with a scheme; the candidates of each example must be exactly its
//     in-scope links, in order, at their places in the input. The core
//     CommonMark examples (no extension) expect bare URLs not to be linked,
//     because the autolink extension is off there, while urlls always finds
//     them (as GFM with the extension does): for those examples only the
//     candidates that are not Bare are compared.
var schemeLike = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*:`)

func hasScheme(s string) bool {
	loc := schemeLike.FindStringIndex(s)
	return loc != nil && loc[0] == 0
}

// exception is a fixture whose expectation urlls does not share, with the
// reason and what urlls finds instead (the first candidate's text, or ""
// for none). The test fails when an exception is no longer needed.
type exception struct {
	reason string
	ours   string
}

var linkifyExceptions = map[string]exception{
	`http://foo.com/blah_blah_"doublequoted"`: {
		`RFC 1738 §2.2: the quote mark delimits URLs in some systems, so '"' ends a bare URL (it is unsafe and would have to be %22); the "_" before it is then trailing punctuation, as in GFM`,
		"http://foo.com/blah_blah"},
}

var notLinksExceptions = map[string]exception{
	"http://.example.com": {
		"urlls exists to report URLs that do not parse: this one has an empty domain label (RFC 1738 §3.1 hostname), which the checks report",
		"http://.example.com"},
	"http://-example.com": {
		"a domain label cannot start with \"-\" (RFC 1738 §3.1 domainlabel): a URL to report, not text to ignore",
		"http://-example.com"},
	"_http://example.com": {
		"a \"_\" that starts a word is emphasis, not part of an identifier, so the URL starts after it (GFM treats \"_\" as an emphasis delimiter and links _http://example.com_); inside a word (\"a_http://\") it is not a boundary",
		"http://example.com"},
	"http://example.com_": {
		"a trailing \"_\" is dropped as GFM drops it (it closes emphasis), leaving a well-formed URL; linkify-it rejects the host instead",
		"http://example.com"},
	"hppt://example.com": {
		"any scheme-shaped word before \"://\" is a candidate, so that the checks can report a near-miss of a common scheme (\"hppt\" for http) as an error with a fix; linkify-it leaves unknown schemes out",
		"hppt://example.com"},
}

// linkifyCases reads a linkify-it fixture file as its test/test.mjs does:
// "%" lines are comments (read as blank), blank lines separate cases; in
// links.txt a line followed by a non-blank line is an input and its expected
// match, and a line followed by a blank line is matched whole.
func linkifyCases(t *testing.T, name string, pairs bool) [][2]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpusDir, "linkify-it", name))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "%") {
			lines[i] = ""
		}
	}
	var out [][2]string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) == "" {
			continue
		}
		if pairs && i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" {
			out = append(out, [2]string{l, lines[i+1]})
			i++
			continue
		}
		out = append(out, [2]string{l, l})
	}
	return out
}

func TestLinkifyLinks(t *testing.T) {
	cases := linkifyCases(t, "links.txt", true)
	inScope, outScope, excepted := 0, 0, 0
	for _, c := range cases {
		input, want := c[0], c[1]
		if !hasScheme(want) {
			outScope++
			continue
		}
		inScope++
		got := Scan([]byte(input), "plaintext").Candidates
		checkInvariants(t, []byte(input), got)
		first := ""
		if len(got) > 0 {
			first = got[0].Text
		}
		start := strings.Index(input, want)
		ok := len(got) > 0 && first == want && got[0].Start == start && got[0].End == start+len(want) && got[0].Offsets == nil
		if ex, isEx := linkifyExceptions[input]; isEx {
			excepted++
			if ok {
				t.Errorf("exception no longer needed: %q now gives %q", input, want)
			} else if first != ex.ours {
				t.Errorf("exception %q: urlls finds %q, the exception says %q", input, first, ex.ours)
			}
			continue
		}
		if !ok {
			t.Errorf("links.txt %q: want %q at %d, got %v", input, want, start, shows(got))
		}
	}
	for input := range linkifyExceptions {
		if !containsCase(cases, input) {
			t.Errorf("exception %q is not a fixture", input)
		}
	}
	t.Logf("linkify-it links.txt: %d cases, %d in scope (%d of them exceptions), %d out of scope (no scheme)", len(cases), inScope, excepted, outScope)
}

func TestLinkifyNotLinks(t *testing.T) {
	cases := linkifyCases(t, "not_links.txt", false)
	inScope, outScope, excepted := 0, 0, 0
	for _, c := range cases {
		input := c[0]
		if !schemeLike.MatchString(input) {
			outScope++
			continue
		}
		inScope++
		got := Scan([]byte(input), "plaintext").Candidates
		checkInvariants(t, []byte(input), got)
		if ex, isEx := notLinksExceptions[input]; isEx {
			excepted++
			switch {
			case len(got) == 0:
				t.Errorf("exception no longer needed: %q now gives no candidate", input)
			case len(got) != 1 || got[0].Text != ex.ours || got[0].Start != strings.Index(input, ex.ours):
				t.Errorf("exception %q: urlls finds %v, the exception says %q", input, shows(got), ex.ours)
			}
			continue
		}
		if len(got) != 0 {
			t.Errorf("not_links.txt %q: want no candidate, got %v", input, shows(got))
		}
	}
	for input := range notLinksExceptions {
		if !containsCase(cases, input) {
			t.Errorf("exception %q is not a fixture", input)
		}
	}
	t.Logf("linkify-it not_links.txt: %d cases, %d in scope (%d of them exceptions), %d out of scope (nothing scheme-like)", len(cases), inScope, excepted, outScope)
}

func containsCase(cases [][2]string, input string) bool {
	for _, c := range cases {
		if c[0] == input {
			return true
		}
	}
	return false
}

func shows(cs []Candidate) []string {
	var out []string
	for _, c := range cs {
		out = append(out, show(c))
	}
	return out
}

// gfmLink matches the links of the expected HTML: anchors and images.
var gfmLink = regexp.MustCompile(`<a href="[^"]*">(.*?)</a>|<img src="([^"]*)"`)

func TestGFMAutolinks(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpusDir, "gfm-autolinks", "gfm-autolinks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var examples []struct {
		Source     string   `json:"source"`
		Example    int      `json:"example"`
		Extensions []string `json:"extensions"`
		Markdown   string   `json:"markdown"`
		HTML       string   `json:"html"`
	}
	if err := json.Unmarshal(data, &examples); err != nil {
		t.Fatal(err)
	}
	inScope, outScope, ignored, uncompared := 0, 0, 0, 0
	for _, ex := range examples {
		name := strings.TrimPrefix(ex.Source, "test/") + "#" + itoa(ex.Example)
		got := Scan([]byte(ex.Markdown), "markdown").Candidates
		checkInvariants(t, []byte(ex.Markdown), got)
		if strings.TrimSpace(ex.HTML) == "<IGNORE>" {
			ignored++ // upstream only checks that it does not crash
			continue
		}
		core := len(ex.Extensions) == 0
		var want []string
		for _, m := range gfmLink.FindAllStringSubmatch(ex.HTML, -1) {
			text := html.UnescapeString(m[1])
			if m[1] == "" {
				text = html.UnescapeString(m[2])
			}
			if hasScheme(text) {
				want = append(want, text)
				inScope++
			} else {
				outScope++
			}
		}
		var cmp []Candidate
		for _, c := range got {
			if core && (c.Context == Bare || c.Context == Quoted) {
				uncompared++
				continue
			}
			cmp = append(cmp, c)
		}
		// Each candidate's bytes must be exactly the link's text (no
		// decoding happens in these examples), in document order. The
		// text may occur more than once ("![http://x](http://x)"), so its
		// place is checked as the candidate's own span.
		bad := len(cmp) != len(want)
		from := 0
		for i := 0; !bad && i < len(want); i++ {
			c := cmp[i]
			if c.Text != want[i] || c.Offsets != nil || c.Start < from || ex.Markdown[c.Start:c.End] != want[i] {
				bad = true
			}
			from = c.End
		}
		if bad {
			t.Errorf("%s %q:\n got %v\nwant %q", name, ex.Markdown, shows(cmp), want)
		}
	}
	t.Logf("GFM autolinks: %d examples (%d ignored upstream); %d links in scope, %d out of scope (www., e-mail); %d bare URLs of core examples not compared (extension off there)",
		len(examples), ignored, inScope, outScope, uncompared)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}
