package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/urlls/urlls/analysis/grammar"
	"github.com/urlls/urlls/analysis/parser"
)

// urlls runs the command in-process and returns what a user would see.
func urlls(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return urllsIn(t, "", args...)
}

// treeOf returns the drawn tree of explain's output, without the verdicts
// of the standards that follow it after a blank line.
func treeOf(out string) string {
	tree, _, _ := strings.Cut(out, "\n\n")
	return tree
}

// productions returns the rule names of a drawn tree, one a line, in order.
func productions(out string) []string {
	var names []string
	for _, line := range strings.Split(strings.TrimRight(treeOf(out), "\n"), "\n") {
		line = strings.TrimLeft(line, "│├└─… ")
		if f := strings.Fields(line); len(f) > 0 {
			names = append(names, f[0])
		}
	}
	return names
}

func TestExplainProductions(t *testing.T) {
	tests := []struct {
		name string
		url  string
		want []string // productions that must appear in the tree
	}{
		{"http", "http://www.example.com:8080/docs/a.html?q=1", []string{"URL", "httpurl", "hostport", "host", "hostname", "port", "hpath", "hsegment", "search"}},
		{"https", "https://secure.example.com/login?next=home", []string{"httpsurl", "hostport", "hpath", "hsegment", "search"}},
		{"ftp", "ftp://anonymous:guest@ftp.example.com/pub/file.txt;type=i", []string{"ftpurl", "login", "user", "password", "hostport", "fpath", "fsegment", "ftptype"}},
		{"file", "file://localhost/etc/fstab", []string{"fileurl", "host", "fpath", "fsegment"}},
		{"gopher", "gopher://gopher.example.com:70/1menu", []string{"gopherurl", "hostport", "port", "gtype", "selector"}},
		{"mailto", "mailto:joe@example.com", []string{"mailtourl", "encoded822addr"}},
		{"news group", "news:comp.infosystems.www.misc", []string{"newsurl", "grouppart", "group"}},
		{"news article", "news:123@host.com", []string{"newsurl", "grouppart", "article", "host"}},
		{"nntp", "nntp://news.example.com/comp.lang.go/42", []string{"nntpurl", "hostport", "group"}},
		{"telnet", "telnet://guest:secret@bbs.example.com:23/", []string{"telneturl", "login", "user", "password", "hostport", "port"}},
		{"wais database", "wais://wais.example.com:210/db", []string{"waisurl", "waisdatabase", "database"}},
		{"wais index", "wais://wais.example.com/db?query", []string{"waisurl", "waisindex", "database", "search"}},
		{"wais doc", "wais://wais.example.com/db/TEXT/doc1", []string{"waisurl", "waisdoc", "database", "wtype", "wpath"}},
		{"prospero", "prospero://prospero.example.com:1525/pub/doc;type=text", []string{"prosperourl", "ppath", "psegment", "fieldspec", "fieldname", "fieldvalue"}},
		{"escape", "http://example.com/a%2Fb", []string{"hsegment", "escape"}},
		{"fragment", "http://example.com/p#sec-2", []string{"URL", "httpurl", "fragment"}},
		{"unknown scheme", "urn:isbn:0451450523", []string{"genericurl", "scheme", "schemepart"}},
		{"upper-case scheme", "HTTP://EXAMPLE.COM/", []string{"httpurl", "hostport"}},
		{"relative reference", "../a/b?q", []string{"URL", "relativeURL", "rel_path", "path", "query"}},
		{"network-path reference", "//example.com/a", []string{"relativeURL", "net_path", "net_loc", "abs_path"}},
		{"empty reference", "", []string{"URL", "relativeURL", "rel_path"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := urlls(t, "explain", tt.url)
			if code != 0 || errOut != "" {
				t.Fatalf("explain %q: exit %d, stderr:\n%s", tt.url, code, errOut)
			}
			got := productions(out)
			for _, p := range tt.want {
				if !slices.Contains(got, p) {
					t.Errorf("explain %q: no %s in the tree:\n%s", tt.url, p, out)
				}
			}
			if first := strings.SplitN(out, "\n", 2)[0]; !strings.Contains(first, fmt.Sprintf("%q", tt.url)) {
				t.Errorf("explain %q: the root line does not quote the URL: %s", tt.url, first)
			}
		})
	}
}

// The drawn tree, as a user sees it: glyphs, spans, quoted text and sources.
func TestExplainTreeLayout(t *testing.T) {
	out, _, code := urlls(t, "explain", "http://a:80/b?q#f")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimRight(treeOf(out), "\n"), "\n")
	wantLines := []struct{ prefix, rule, span, text, source string }{
		{"", "URL", "0-17", `"http://a:80/b?q#f"`, "RFC 1808 §2.2"},
		{"├─ ", "httpurl", "0-15", `"http://a:80/b?q"`, "RFC 1738 §5 (HTTP)"},
		{"│  ├─ ", "hostport", "7-11", `"a:80"`, "RFC 1738 §5"},
		{"│  │  ├─ ", "host", "7-8", `"a"`, "RFC 1738 §5"},
		{"│  │  │  └─ ", "hostname", "7-8", `"a"`, "RFC 1738 §5"},
		{"│  │  │     └─ ", "toplabel", "7-8", `"a"`, "RFC 1738 §5"},
		{"│  │  └─ ", "port", "9-11", `"80"`, "RFC 1738 §5"},
		{"│  ├─ ", "hpath", "12-13", `"b"`, "RFC 1738 §5 (HTTP)"},
		{"│  │  └─ ", "hsegment", "12-13", `"b"`, "RFC 1738 §5 (HTTP)"},
		{"│  └─ ", "search", "14-15", `"q"`, "RFC 1738 §5 (HTTP)"},
		{"└─ ", "fragment", "16-17", `"f"`, "RFC 1808 §2.2"},
	}
	if len(lines) != len(wantLines) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(wantLines), out)
	}
	col := func(line, field string) int { return len([]rune(line[:strings.Index(line, field)])) }
	for i, w := range wantLines {
		line := lines[i]
		re := regexp.MustCompile(`^` + regexp.QuoteMeta(w.prefix+w.rule) + ` +` + regexp.QuoteMeta(w.span) + `  ` + regexp.QuoteMeta(w.text) + ` +` + regexp.QuoteMeta(w.source) + `$`)
		if !re.MatchString(line) {
			t.Errorf("line %d = %q, want %s %s %s %s", i, line, w.prefix+w.rule, w.span, w.text, w.source)
			continue
		}
		// Columns are aligned: spans end, texts and sources start, in one column.
		if i > 0 {
			prev := lines[0]
			if a, b := col(line, w.span)+len(w.span), col(prev, wantLines[0].span)+len(wantLines[0].span); a != b {
				t.Errorf("line %d: span ends in column %d, the root's in %d", i, a, b)
			}
			if a, b := col(line, w.text), col(prev, wantLines[0].text); a != b {
				t.Errorf("line %d: text starts in column %d, the root's in %d", i, a, b)
			}
			if a, b := col(line, w.source), col(prev, wantLines[0].source); a != b {
				t.Errorf("line %d: source starts in column %d, the root's in %d", i, a, b)
			}
		}
	}
}

func TestExplainGrammarAndRule(t *testing.T) {
	tests := []struct {
		name string
		args []string
		root string   // the production on the first line
		want []string // further productions in the tree
	}{
		{"rule only: rfc1738", []string{"--rule", "hostport", "example.com:80"}, "hostport", []string{"host", "port"}},
		// --grammar rfc1738 dispatches by scheme, as the default does: an
		// https URL is judged by httpsurl, not by url's catch-all otherurl.
		{"grammar rfc1738: by scheme", []string{"--grammar", "rfc1738", "http://a/b"}, "URL", []string{"httpurl", "hpath"}},
		{"grammar rfc1738: https", []string{"--grammar", "rfc1738", "https://a/b"}, "URL", []string{"httpsurl", "hpath"}},
		{"grammar rfc1738: other scheme", []string{"--grammar", "rfc1738", "git://h/r"}, "URL", []string{"genericurl", "ip-schemepart", "login", "urlpath"}},
		// --rule url keeps the literal start rule, and the matcher's first
		// derivation.
		{"rule url: otherurl", []string{"--rule", "url", "https://a/b"}, "url", []string{"otherurl", "genericurl", "schemepart"}},
		{"grammar rfc1808: URL", []string{"--grammar", "rfc1808", "http://a/b;p?q#f"}, "URL", []string{"absoluteURL", "generic-RL", "net_loc", "params", "query", "fragment"}},
		{"grammar and rule", []string{"--grammar", "rfc1808", "--rule", "rel_path", "a/b;p?q"}, "rel_path", []string{"path", "params", "query"}},
		{"rule names ignore case", []string{"--rule", "HOSTPORT", "a:1"}, "hostport", []string{"port"}},
		{"flags after the URL", []string{"a:1", "--rule", "hostport"}, "hostport", []string{"port"}},
		{"xbnf", []string{"--grammar", "xbnf", "http://www.example.com/a"}, "url", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := urlls(t, append([]string{"explain"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d, stderr:\n%s", code, errOut)
			}
			got := productions(out)
			if got[0] != tt.root {
				t.Errorf("root %s, want %s:\n%s", got[0], tt.root, out)
			}
			for _, p := range tt.want {
				if !slices.Contains(got, p) {
					t.Errorf("no %s in the tree:\n%s", p, out)
				}
			}
		})
	}
}

func TestExplainErrors(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		offset int
		// production lists the productions the error may name, the first the
		// most specific. Whether a failure at the first byte of a rule names
		// that rule or the one around it is analysis/grammar's policy (the
		// innermost rule that had begun); explain prints what it is given.
		production []string
		chain      string // the chain line, "" to skip
		expected   string // a part of the expected line
		caret      string // the caret line without its indent
	}{
		{"bad port", []string{"http://host:8x/"}, 13, []string{"port"}, "httpurl › hostport › port", "digit", strings.Repeat(" ", 13) + "^"},
		{"space in host", []string{"http://ex ample.com/"}, 9, []string{"domainlabel"}, "httpurl › hostport › host › hostname › domainlabel", `"."`, strings.Repeat(" ", 9) + "^"},
		{"bad ftptype", []string{"ftp://h/f;type=q"}, 15, []string{"ftptype", "ftpurl"}, "", "ftptype", strings.Repeat(" ", 15) + "^"},
		{"end of input", []string{"ftp://h/f;type="}, 15, []string{"ftptype", "ftpurl"}, "", "ftptype", strings.Repeat(" ", 15) + "^"},
		{"bad escape", []string{"http://h/a%zz"}, 11, []string{"escape"}, "", "hex", strings.Repeat(" ", 11) + "^"},
		{"bad fragment", []string{"http://h/#a b"}, 11, []string{"fragment"}, "fragment", "", strings.Repeat(" ", 11) + "^"},
		{"non-ASCII", []string{"http://h/é"}, 9, nil, "", "", strings.Repeat(" ", 9) + "^"},
		{"NUL byte", []string{"http://h/a\x00b"}, 10, nil, "", "", strings.Repeat(" ", 10) + "^"},
		{"with --rule", []string{"--rule", "port", "8x"}, 1, []string{"port"}, "port", "digit", " ^"},
		// A literal fails at its first byte; the caret goes where the URL
		// stops matching it, and what is still expected is its rest.
		{"scheme without //", []string{"http:foo"}, 5, []string{"httpurl"}, "httpurl", `"//"`, strings.Repeat(" ", 5) + "^"},
		{"scheme alone", []string{"https:"}, 6, []string{"httpsurl"}, "httpsurl", `"//"`, strings.Repeat(" ", 6) + "^"},
		{"literal with --grammar", []string{"--grammar", "rfc1738", "ftp:/x"}, 5, []string{"ftpurl"}, "ftpurl", `"/"`, strings.Repeat(" ", 5) + "^"},
		// An upper-case unknown scheme is judged as check judges it: by
		// its lower-case form, so the error is where check finds it.
		{"upper-case unknown scheme", []string{"Foo:b]ar"}, 5, []string{"schemepart"}, "genericurl › schemepart", "", strings.Repeat(" ", 5) + "^"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := urlls(t, append([]string{"explain"}, tt.args...)...)
			if code != 1 {
				t.Fatalf("exit %d, want 1; stderr:\n%s", code, errOut)
			}
			// No tree: stdout has what the standards make of the URL, and
			// nothing at all for a --rule, whose input need not be a URL.
			if slices.Contains(tt.args, "--rule") {
				if out != "" {
					t.Errorf("stdout not empty: %s", out)
				}
			} else if !regexp.MustCompile(`^RFC 1738 +not accepted: offset \d+: .*\nRFC 3986 .*\nWHATWG URL .*\n$`).MatchString(out) {
				t.Errorf("stdout is not the verdicts of the standards:\n%s", out)
			}
			lines := strings.Split(errOut, "\n")
			if !strings.HasPrefix(lines[0], fmt.Sprintf("urlls: offset %d: ", tt.offset)) {
				t.Errorf("message %q, want offset %d", lines[0], tt.offset)
			}
			input := tt.args[len(tt.args)-1]
			if want := "  " + message(input); lines[1] != want {
				t.Errorf("input line %q, want %q", lines[1], want)
			}
			if want := "  " + tt.caret; lines[2] != want {
				t.Errorf("caret line %q, want %q", lines[2], want)
			}
			if len(tt.production) > 0 {
				m := regexp.MustCompile(`(?m)^  production: (\S+), from `).FindStringSubmatch(errOut)
				if m == nil || !slices.Contains(tt.production, m[1]) {
					t.Errorf("production is not %s:\n%s", strings.Join(tt.production, " or "), errOut)
				}
			}
			if tt.chain != "" && !strings.Contains(errOut, "  chain:      "+tt.chain+"\n") {
				t.Errorf("no chain %s:\n%s", tt.chain, errOut)
			}
			if !strings.Contains(errOut, "  expected:   ") || !strings.Contains(errOut, tt.expected) {
				t.Errorf("expected line lacks %s:\n%s", tt.expected, errOut)
			}
		})
	}
}

// TestExplainSchemeCase: an upper-case scheme that RFC 1738's genericurl
// does not take (its scheme is lower case) is judged as check judges it, a
// hint, not a syntax error: the tree of its lower-case form, over the URL as
// written, and a note.
func TestExplainSchemeCase(t *testing.T) {
	out, errOut, code := urlls(t, "explain", "Foo:bar")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	if !strings.Contains(out, `scheme      0-3  "Foo"`) || !strings.Contains(out, "genericurl") {
		t.Errorf("tree:\n%s", out)
	}
	if !strings.HasPrefix(errOut, `urlls: explain: scheme "Foo" is not lower case (urlls check reports it as a hint, scheme-case`) {
		t.Errorf("stderr:\n%s", errOut)
	}
	if !strings.Contains(out, "\nRFC 1738    accepted\n") {
		t.Errorf("RFC 1738's verdict is not accepted:\n%s", out)
	}
}

// TestExplainStandards: the output ends with what RFC 1738, RFC 3986 and
// browsers make of the URL, one line each; --json has them as "standards".
func TestExplainStandards(t *testing.T) {
	out, _, code := urlls(t, "explain", "HTTP://Example.COM:80/a/../b c")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	want := "RFC 1738    not accepted: offset 28: unexpected \" \" in hsegment, expected"
	if !strings.HasPrefix(out, want) || !strings.HasSuffix(out, "WHATWG URL  not accepted: a code point is found that is not a URL unit; a browser follows http://example.com/b%20c\n") {
		t.Errorf("stdout:\n%s\nwant the verdicts, RFC 1738's starting %q", out, want)
	}
	out, _, code = urlls(t, "explain", "../a b")
	if code != 1 || !strings.HasPrefix(out, "RFC 1808    not accepted") || !strings.Contains(out, "a browser resolves it against the page's URL") {
		t.Errorf("relative reference: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{{"--json", "https://user@host/"}, {"--json", "http://h:8x/"}} {
		out, _, _ = urlls(t, append([]string{"explain"}, args...)...)
		var v struct {
			Standards []struct {
				Standard string `json:"standard"`
				Accepted bool   `json:"accepted"`
				Reason   string `json:"reason"`
				Offset   int    `json:"offset"`
				Follows  string `json:"follows"`
			} `json:"standards"`
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil || len(v.Standards) != 3 {
			t.Fatalf("%q: %v\n%s", args, err, out)
		}
		if s := v.Standards[0]; s.Standard != "RFC 1738" || s.Accepted || s.Offset < 0 || s.Reason == "" {
			t.Errorf("%q: RFC 1738 verdict %+v", args, s)
		}
		if s := v.Standards[2]; s.Standard != "WHATWG URL" || s.Accepted {
			t.Errorf("%q: WHATWG verdict %+v", args, s)
		}
	}
	// A rule's input need not be a URL: no verdicts.
	if out, _, _ := urlls(t, "explain", "--rule", "hostport", "h:80"); strings.Contains(out, "accepted") {
		t.Errorf("--rule prints verdicts:\n%s", out)
	}
}

// TestExplainRFC1738Only: a URL that only RFC 1738's strictness rejects,
// which check reports as rfc1738-unsafe information, is explained by RFC
// 3986, with a note and the place where RFC 1738 stops on stderr; one that
// check reports as an error still fails.
func TestExplainRFC1738Only(t *testing.T) {
	for _, tt := range []struct {
		url, node string
	}{
		{"https://user@host/", `userinfo      8-12  "user"`},
		{"http://host:", `port`},
		{"http://example.org/~u", `segment      19-21  "~u"`},
		{"http://[::1]/", `IPv6address`},
		{"file:/etc", `path-absolute`},
	} {
		t.Run(tt.url, func(t *testing.T) {
			out, errOut, code := urlls(t, "explain", tt.url)
			if code != 0 || !strings.Contains(out, tt.node) {
				t.Errorf("exit %d, stdout:\n%s\nwant 0 and a tree with %q", code, out, tt.node)
			}
			if !strings.HasPrefix(errOut, "urlls: explain: RFC 1738 rejects this URL and RFC 3986 accepts it (urlls check reports it as rfc1738-unsafe") ||
				!strings.Contains(errOut, "\n  production: ") {
				t.Errorf("stderr:\n%s", errOut)
			}
			out, _, code = urlls(t, "explain", "--json", tt.url)
			var n jsonNode
			if code != 0 || json.Unmarshal([]byte(out), &n) != nil || n.End != len(tt.url) {
				t.Errorf("--json: exit %d, %s", code, out)
			}
		})
	}
	// What check reports as an error is no tree, and neither is a URL
	// matched against a grammar named.
	for _, args := range [][]string{{"ftp://h/a;type=b"}, {"http://h/a%zz"}, {"--rule", "httpurl", "http://user@host/"}} {
		if out, _, code := urlls(t, append([]string{"explain"}, args...)...); code != 1 || strings.Contains(out, "─") {
			t.Errorf("explain %q: exit %d, stdout %q", args, code, out)
		}
	}
}

func TestCaretLines(t *testing.T) {
	long := strings.Repeat("a", 200) + " " + strings.Repeat("b", 200)
	tests := []struct {
		name, input string
		offset      int
		shown       string
		caret       string
	}{
		{"ascii", "http://host:8x/", 13, "http://host:8x/", "             ^"},
		{"at the start", "x", 0, "x", "^"},
		{"end of input", "http://", 7, "http://", "       ^"},
		{"past the end", "ab", 9, "ab", "  ^"},
		{"negative", "ab", -3, "ab", "^"},
		{"empty input", "", 0, "", "^"},
		{"tab is copied", "a\tb c", 3, "a\tb c", " \t ^"},
		{"multi-byte characters take one column", "é中😀 x", 10, "é中😀 x", "    ^"},
		{"offset inside a character", "aé", 2, "aé", " ^"},
		{"NUL shown escaped", "a\x00b", 2, `a\x00b`, "     ^"},
		{"invalid UTF-8 shown escaped", "a\xffb", 2, `a\xffb`, "     ^"},
		{"escape control characters", "\x1b[31m!", 5, `\x1b[31m!`, "        ^"},
		{"non-printing rune", "a\u202eb", 4, `a\u202eb`, "       ^"},
		{"long input is windowed", long, 200, "…" + strings.Repeat("a", contextBefore) + " " + strings.Repeat("b", contextAfter) + "…", " " + strings.Repeat(" ", contextBefore) + "^"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shown, caret := caretLines(tt.input, tt.offset)
			if shown != tt.shown || caret != tt.caret {
				t.Errorf("caretLines(%q, %d) =\n%q\n%q\nwant\n%q\n%q", tt.input, tt.offset, shown, caret, tt.shown, tt.caret)
			}
		})
	}
}

// jsonNode is the --json form of a tree node.
type jsonNode struct {
	Rule     string     `json:"rule"`
	Start    int        `json:"start"`
	End      int        `json:"end"`
	Text     string     `json:"text"`
	Children []jsonNode `json:"children"`
}

// treeNode builds the expected jsonNode of node i of t.
func treeNode(t *grammar.Tree, i int) jsonNode {
	n := t.Nodes[i]
	j := jsonNode{Rule: n.Rule().Name, Start: int(n.Start), End: int(n.End), Text: t.Text(i), Children: []jsonNode{}}
	for _, c := range t.Children(i) {
		j.Children = append(j.Children, treeNode(t, c))
	}
	return j
}

func TestExplainJSON(t *testing.T) {
	t.Run("exact", func(t *testing.T) {
		out, _, code := urlls(t, "explain", "--json", "http://a:80/b")
		if code != 0 {
			t.Fatalf("exit %d", code)
		}
		var got jsonNode
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, out)
		}
		leaf := func(rule string, start, end int, text string) jsonNode {
			return jsonNode{rule, start, end, text, []jsonNode{}}
		}
		node := func(rule string, start, end int, text string, children ...jsonNode) jsonNode {
			return jsonNode{rule, start, end, text, children}
		}
		want := node("URL", 0, 13, "http://a:80/b",
			node("httpurl", 0, 13, "http://a:80/b",
				node("hostport", 7, 11, "a:80",
					node("host", 7, 8, "a", node("hostname", 7, 8, "a", leaf("toplabel", 7, 8, "a"))),
					leaf("port", 9, 11, "80")),
				node("hpath", 12, 13, "b", leaf("hsegment", 12, 13, "b"))))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("explain --json (-want +got):\n%s", diff)
		}
	})

	for _, url := range []string{
		"http://www.example.com:8080/a%20b?q=1&r=2#top",
		"ftp://u:p@h/a/b;type=d",
		"news:123@host.com",
		"prospero://h/p;a=b;c=d",
		"../g;x?y#s",
		"",
	} {
		t.Run(url, func(t *testing.T) {
			out, errOut, code := urlls(t, "explain", url, "--json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var got jsonNode
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("output is not JSON: %v\n%s", err, out)
			}
			if strings.Contains(url, "&") && !strings.Contains(out, "q=1&r=2") {
				t.Errorf("\"&\" is escaped in the output:\n%s", out)
			}
			// Spans match text, children nest inside their parent in order,
			// and children is always an array.
			var walk func(n jsonNode, lo, hi int)
			walk = func(n jsonNode, lo, hi int) {
				if n.Start < lo || n.End > hi || n.Start > n.End {
					t.Errorf("%s %d-%d outside its parent %d-%d", n.Rule, n.Start, n.End, lo, hi)
					return
				}
				if n.Text != url[n.Start:n.End] {
					t.Errorf("%s %d-%d text %q, want %q", n.Rule, n.Start, n.End, n.Text, url[n.Start:n.End])
				}
				if n.Children == nil {
					t.Errorf("%s: children is not an array", n.Rule)
				}
				at := n.Start
				for _, c := range n.Children {
					walk(c, at, n.End)
					at = c.End
				}
			}
			walk(got, 0, len(url))
			tree, err := parser.ParseReference(url)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(treeNode(&tree, 0), got); diff != "" {
				t.Errorf("explain --json differs from the parser's tree (-parser +json):\n%s", diff)
			}
		})
	}

	t.Run("error", func(t *testing.T) {
		out, errOut, code := urlls(t, "explain", "--json", "http://host:8x/")
		if code != 1 {
			t.Fatalf("exit %d, want 1", code)
		}
		if errOut != "" {
			t.Errorf("stderr not empty: %s", errOut)
		}
		var got struct {
			Error    string   `json:"error"`
			Input    string   `json:"input"`
			Offset   int      `json:"offset"`
			Rule     string   `json:"rule"`
			Chain    []string `json:"chain"`
			Expected []string `json:"expected"`
			GaveUp   bool     `json:"gaveUp"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, out)
		}
		if got.Offset != 13 || got.Rule != "port" || got.Input != "http://host:8x/" || !strings.Contains(got.Error, "port") {
			t.Errorf("got %+v, want offset 13 in port", got)
		}
		if diff := cmp.Diff([]string{"httpurl", "hostport", "port"}, got.Chain); diff != "" {
			t.Errorf("chain (-want +got):\n%s", diff)
		}
		if !slices.Contains(got.Expected, "digit") {
			t.Errorf("expected %q lacks digit", got.Expected)
		}
	})
}

func TestResolve(t *testing.T) {
	// RFC 1808 §5.1 and §5.2, base http://a/b/c/d;p?q#f.
	const base = "http://a/b/c/d;p?q#f"
	tests := []struct{ ref, want string }{
		{"g", "http://a/b/c/g"},
		{"./g", "http://a/b/c/g"},
		{"g/", "http://a/b/c/g/"},
		{"/g", "http://a/g"},
		{"//g", "http://g"},
		{"?y", "http://a/b/c/d;p?y"},
		{"g?y", "http://a/b/c/g?y"},
		{"#s", "http://a/b/c/d;p?q#s"},
		{";x", "http://a/b/c/d;x"},
		{"..", "http://a/b/"},
		{"../..", "http://a/"},
		{"../../../g", "http://a/../g"},
		{"g:h", "g:h"},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			out, errOut, code := urlls(t, "resolve", base, tt.ref)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr: %s", code, errOut)
			}
			if diff := cmp.Diff(tt.want+"\n", out); diff != "" {
				t.Errorf("resolve %s %s (-want +got):\n%s", base, tt.ref, diff)
			}
		})
	}
	t.Run("base without a scheme", func(t *testing.T) {
		out, errOut, code := urlls(t, "resolve", "a/b", "g")
		if code != 1 || out != "" || !strings.HasPrefix(errOut, "urlls: resolve: ") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and one line on stderr", code, out, errOut)
		}
	})
}

func TestGrammar(t *testing.T) {
	t.Run("list", func(t *testing.T) {
		out, _, code := urlls(t, "grammar")
		if code != 0 {
			t.Fatalf("exit %d", code)
		}
		lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
		if got := strings.Fields(lines[0]); !slices.Equal(got, []string{"NAME", "RULES", "TITLE"}) {
			t.Errorf("header %q", lines[0])
		}
		names := grammar.BuiltinNames()
		if len(lines) != 1+len(names) {
			t.Fatalf("got %d lines, want a header and %d grammars:\n%s", len(lines), len(names), out)
		}
		for i, name := range names {
			g := grammar.Builtin(name)
			want := regexp.MustCompile(`^` + name + ` +` + fmt.Sprint(len(g.Rules)) + ` +` + regexp.QuoteMeta(g.Title) + `$`)
			if !want.MatchString(lines[1+i]) {
				t.Errorf("line %q, want name, %d rules and title %q", lines[1+i], len(g.Rules), g.Title)
			}
		}
	})
	for _, name := range grammar.BuiltinNames() {
		t.Run(name, func(t *testing.T) {
			out, _, code := urlls(t, "grammar", name)
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			// The output is a grammar file that loads into the same rules.
			g := grammar.Builtin(name)
			got, err := grammar.Load(name, "urlls grammar "+name, []byte(out))
			if err != nil {
				t.Fatalf("output does not load: %v\n%s", err, out)
			}
			type rule struct {
				Name, Definition, Source string
				InTree                   bool
			}
			rules := func(g *grammar.Grammar) []rule {
				var rs []rule
				for _, r := range g.Rules {
					rs = append(rs, rule{r.Name, r.Definition, r.Source, r.InTree()})
				}
				return rs
			}
			if diff := cmp.Diff(rules(g), rules(got)); diff != "" {
				t.Errorf("printed rules differ from the embedded ones (-embedded +printed):\n%s", diff)
			}
			if got.Title != g.Title {
				t.Errorf("title %q, want %q", got.Title, g.Title)
			}
		})
	}
	t.Run("rfc1738 as a user reads it", func(t *testing.T) {
		out, _, _ := urlls(t, "grammar", "rfc1738")
		for _, want := range []string{
			";@source RFC 1738 §5 (HTTP)\nhttpurl        = \"http://\" hostport [ \"/\" hpath [ \"?\" search ]]\n",
			"ftptype        = \"A\" / \"I\" / \"D\" / \"a\" / \"i\" / \"d\"\n",
			";@source RFC 2818 §2.4 (not part of RFC 1738)\nhttpsurl",
			";@transparent ",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q", want)
			}
		}
	})
}

func TestVersion(t *testing.T) {
	out, errOut, code := urlls(t, "version")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !regexp.MustCompile(`^urlls (\(devel\)|v\S+) go\S+ \w+/\w+\n(git commit [0-9a-f]{40} \(\S+\)(, with uncommitted changes)?\n)?$`).MatchString(out) {
		t.Errorf("version printed %q, want \"urlls VERSION GOVERSION OS/ARCH\"", out)
	}
	// --version, what people type first, is the same.
	for _, flag := range []string{"--version", "-version"} {
		if got, errOut, code := urlls(t, flag); code != 0 || errOut != "" || got != out {
			t.Errorf("urlls %s: exit %d, stdout %q, stderr %q; want %q", flag, code, got, errOut, out)
		}
	}
	if _, errOut, code := urlls(t, "--version", "x"); code != 2 || !strings.Contains(errOut, "takes no arguments") {
		t.Errorf("urlls --version x: exit %d, stderr %q", code, errOut)
	}
}

func TestHelp(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"help", []string{"help"}, "Usage:\n  urlls <command> [arguments]"},
		{"-h", []string{"-h"}, "Usage:\n  urlls <command> [arguments]"},
		{"--help", []string{"--help"}, "Commands:"},
		{"help explain", []string{"help", "explain"}, "Usage: urlls explain [--grammar rfc1738|rfc1808|rfc3986|xbnf] [--rule NAME] [--json] [--config FILE] URL"},
		{"explain -h", []string{"explain", "-h"}, "-json"},
		{"explain --help", []string{"explain", "--help"}, "-grammar"},
		{"help resolve", []string{"help", "resolve"}, "Usage: urlls resolve BASE REF"},
		{"grammar -h", []string{"grammar", "-h"}, "Usage: urlls grammar [NAME]"},
		{"help help", []string{"help", "help"}, "Commands:"},
		{"help report", []string{"help", "report"}, "Usage: urlls report [--sample N] [--severity error,warning]"},
		{"report -h", []string{"report", "-h"}, "-severity"},
		{"check -h", []string{"check", "-h"}, "-include glob"},
		{"usage lists report", []string{"help"}, "  report   [--sample N]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := urlls(t, tt.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			if !strings.Contains(out, tt.want) {
				t.Errorf("stdout lacks %q:\n%s", tt.want, out)
			}
		})
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		msg  string // the one-line message
	}{
		{"unknown command", []string{"frobnicate"}, "urlls: unknown command frobnicate"},
		{"unknown flag", []string{"--frob"}, "urlls: unknown flag --frob: flags follow the command"},
		{"command with a newline", []string{"a\nb"}, `urlls: unknown command "a\nb"`},
		{"explain without URL", []string{"explain"}, "urlls: explain: missing URL"},
		{"explain with two URLs", []string{"explain", "http://a/", "http://b/"}, "urlls: explain: want one URL, got 2 arguments (quote a URL that holds spaces)"},
		{"explain bad flag", []string{"explain", "--bogus", "http://a/"}, "urlls: explain: flag provided but not defined: -bogus"},
		{"explain flag without value", []string{"explain", "http://a/", "--grammar"}, "urlls: explain: flag needs an argument: -grammar"},
		{"explain bad bool", []string{"explain", "--json=maybe", "http://a/"}, `urlls: explain: invalid boolean value "maybe" for -json: parse error`},
		{"explain unknown grammar", []string{"explain", "--grammar", "rfc3987", "http://a/"}, "urlls: explain: unknown grammar rfc3987 (choose rfc1738, rfc1808, rfc3986, xbnf)"},
		{"explain unknown rule", []string{"explain", "--rule", "nope", "http://a/"}, "urlls: explain: grammar rfc1738 has no rule nope"},
		{"explain unknown rule of rfc1808", []string{"explain", "--grammar", "rfc1808", "--rule", "httpurl", "http://a/"}, "urlls: explain: grammar rfc1808 has no rule httpurl"},
		{"resolve one argument", []string{"resolve", "http://a/"}, "urlls: resolve: want BASE and REF, got 1 arguments"},
		{"resolve three arguments", []string{"resolve", "http://a/", "b", "c"}, "urlls: resolve: want BASE and REF, got 3 arguments"},
		{"grammar unknown", []string{"grammar", "rfc3987"}, "urlls: grammar: unknown grammar rfc3987 (choose rfc1738, rfc1808, rfc3986, xbnf)"},
		{"grammar two names", []string{"grammar", "rfc1738", "rfc1808"}, "urlls: grammar: want at most one grammar name, got 2 arguments"},
		{"version with an argument", []string{"version", "now"}, "urlls: version: takes no arguments, got 1"},
		{"help unknown command", []string{"help", "frob"}, "urlls: help: unknown command frob"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := urlls(t, tt.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if out != "" {
				t.Errorf("stdout not empty: %q", out)
			}
			lines := strings.Split(errOut, "\n")
			if lines[0] != tt.msg {
				t.Errorf("first line %q, want %q", lines[0], tt.msg)
			}
			if len(lines) < 2 || strings.HasPrefix(lines[1], "urlls:") {
				t.Errorf("want one message line then the usage:\n%s", errOut)
			}
			if !strings.Contains(errOut, "Usage") {
				t.Errorf("no usage on stderr:\n%s", errOut)
			}
		})
	}
	t.Run("unknown rule lists the rules", func(t *testing.T) {
		_, errOut, _ := urlls(t, "explain", "--rule", "nope", "x")
		for _, r := range []string{"httpurl,", "hostport,", "xchar"} {
			if !strings.Contains(errOut, r) {
				t.Errorf("stderr does not name rule %s:\n%s", r, errOut)
			}
		}
	})
	t.Run("-- ends the flags", func(t *testing.T) {
		out, errOut, code := urlls(t, "explain", "--", "-x")
		if code != 0 || !slices.Contains(productions(out), "relativeURL") {
			t.Errorf("explain -- -x: exit %d\n%s%s", code, out, errOut)
		}
	})
}

// FuzzExplain checks that no input makes explain panic, and that it either
// draws a tree (exit 0) or reports an error (exit 1), in every mode. Its seeds
// run with go test.
func FuzzExplain(f *testing.F) {
	for _, s := range []string{
		"http://www.example.com:8080/a%20b?q=1#top",
		"",
		"#",
		"http://h/a\x00b",
		"http://h/\xff\xfe",
		"\x00",
		"http://\t/",
		"news:\u202e@x",
		"http://h/" + strings.Repeat("a", 100_000), // about the most one argument can hold (MAX_ARG_STRLEN)
		"http://h/" + strings.Repeat("a/", 3000) + "a",
		"http://h/" + strings.Repeat("a", 1000) + " " + strings.Repeat("b", 1000),
		"wais://" + strings.Repeat("a.", 5000) + "b/c",
		"ftp://" + strings.Repeat("%", 10000),
	} {
		f.Add(s)
	}
	modes := [][]string{
		{"explain"},
		{"explain", "--json"},
		{"explain", "--grammar", "rfc1808"},
		{"explain", "--grammar", "xbnf"},
		{"explain", "--grammar", "xbnf", "--json"},
		{"explain", "--rule", "hostport"},
	}
	f.Fuzz(func(t *testing.T, url string) {
		for _, mode := range modes {
			args := append(slices.Clip(mode), "--", url)
			var out, errOut bytes.Buffer
			code := run(args, strings.NewReader(""), &out, &errOut)
			switch {
			case code != 0 && code != 1:
				t.Fatalf("%q: exit %d\n%s", args, code, errOut.String())
			case slices.Contains(mode, "--json") && !slices.Contains(mode, "xbnf") && !json.Valid(out.Bytes()):
				// (XBNF trees can nest deeper than encoding/json reads.)
				t.Fatalf("%q: --json output is not JSON:\n%s", args, out.String())
			case code == 1 && !slices.Contains(mode, "--json") && !strings.Contains(errOut.String(), "^"):
				t.Fatalf("%q: error without a caret:\n%s", args, errOut.String())
			}
		}
	})
}

// FuzzMessage: message's shortcut for printable ASCII gives what escaping
// every rune gives.
func FuzzMessage(f *testing.F) {
	for _, s := range []string{"", "plain text: ok", "tab\there", "new\nline", "del\x7f", "\xff", "é", "\u2028", " ~"} {
		f.Add(s)
	}
	for b := range 256 {
		f.Add(string([]byte{byte(b)}))
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := message(s), escapeMessage(s); got != want {
			t.Errorf("message(%q) = %q, want %q", s, got, want)
		}
	})
}
