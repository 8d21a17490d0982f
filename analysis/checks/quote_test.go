package checks

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"strconv"
	"strings"
	"testing"
)

// TestMessagesBounded: whatever the length of the part of a URL that a
// message or a fix message names, the message stays short (the issue: a
// 32 KB line of bad characters gave 542 MB of JSON). Each case must report
// its code, so that the bound is checked where it matters.
func TestMessagesBounded(t *testing.T) {
	const n = 32 << 10
	var distinct strings.Builder // many different needless escapes, apart
	for i := range 2000 {
		fmt.Fprintf(&distinct, "%%%02X/", 'A'+i%26)
		fmt.Fprintf(&distinct, "%%%02X%%%02X/", 'a'+i%26, '0'+i%10)
	}
	tests := []struct {
		name, url, code string
	}{
		{"run of unsafe characters", "http://x.org/" + strings.Repeat("|", n), "unsafe-char"},
		{"scattered unsafe characters", "http://x.org/" + strings.Repeat("a^b{", n/4), "unsafe-char"},
		{"run of needless escapes", "http://x.org/" + strings.Repeat("%41", n), "redundant-escape"},
		{"distinct needless escapes", "http://x.org/" + distinct.String() + "x", "redundant-escape"},
		{"run of non-ascii characters", "http://x.org/" + strings.Repeat("é", n), "non-ascii"},
		{"invalid utf-8", "http://x.org/" + strings.Repeat("\xff", n), "non-ascii"},
		{"non-ascii label", "http://" + strings.Repeat("é", n) + ".org/", "non-ascii"},
		{"userinfo", "http://" + strings.Repeat("u", n) + "@x.org/", "rfc1738-unsafe"},
		{"password", "ftp://u:" + strings.Repeat("p", n) + "@x.corp/", "credentials"},
		{"trailing dot", "http://" + strings.Repeat("a.", n/2) + "/", "rfc1738-unsafe"},
		{"underscore", "http://" + strings.Repeat("a_", n/2) + "b/", "rfc1738-unsafe"},
		{"port", "http://x.org:" + strings.Repeat("9", n) + "/", "port-range"},
		{"host number", "http://1.2.3." + strings.Repeat("9", n) + "/", "host-range"},
		{"long unknown scheme", strings.Repeat("x", n) + "://x.org/", "unknown-scheme"},
		{"scheme case", "HTTP://x.org/" + strings.Repeat("a", n), "scheme-case"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, c := candidateIn(tc.url, false)
			found := false
			for _, d := range CheckURL(doc, c) {
				found = found || d.Code == tc.code
				if len(d.Message) > 300 {
					t.Errorf("%s: message of %d bytes: %.200q…", d.Code, len(d.Message), d.Message)
				}
				for _, f := range d.SuggestedFixes {
					if len(f.Message) > 300 {
						t.Errorf("%s: fix message of %d bytes: %.200q…", d.Code, len(f.Message), f.Message)
					}
				}
			}
			if !found {
				t.Errorf("no %s finding", tc.code)
			}
		})
	}
}

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"abc", `"abc"`},
		{strings.Repeat("|", 64), `"` + strings.Repeat("|", 64) + `"`},
		{strings.Repeat("|", 65), `"` + strings.Repeat("|", 48) + `"… (65 bytes)`},
		// Never half a character.
		{"a" + strings.Repeat("é", 40), `"a` + strings.Repeat("é", 23) + `"… (81 bytes)`},
	}
	for _, tc := range tests {
		if got := quote(tc.in); got != tc.want {
			t.Errorf("quote(%.20q…) = %s, want %s", tc.in, got, tc.want)
		}
	}
	if got := cut(strings.Repeat("%7C", 30)); got != strings.Repeat("%7C", 21)+"…" {
		t.Errorf("cut = %q", got)
	}
}

// TestWordqAsSprintf: wordq writes every message of its callers in the
// package as fmt.Sprintf would, for a short text and a long one (quote
// cuts it). The formats are read from the source, so that a new caller
// with a verb wordq does not write (it writes %s only) fails here.
func TestWordqAsSprintf(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	var formats []string
	for _, pkg := range pkgs {
		ast.Inspect(pkg, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "wordq" {
				lit, ok := call.Args[0].(*ast.BasicLit)
				if !ok {
					t.Errorf("%s: wordq's format is not a literal", fset.Position(call.Pos()))
					return true
				}
				f, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				formats = append(formats, f)
				// Each call passes text and len(call.Args)-2 strings more.
				more := make([]string, len(call.Args)-2)
				for i := range more {
					more[i] = fmt.Sprintf("more%d", i)
				}
				for _, text := range []string{"[::1]", `a"b` + strings.Repeat("é", 200)} {
					args := []any{quote(text)}
					for _, m := range more {
						args = append(args, m)
					}
					want := fmt.Sprintf(f, args...)
					if got := (&analyzer{}).wordq(f, text, more...); got != want {
						t.Errorf("wordq(%q, %q) = %q, fmt.Sprintf writes %q", f, text, got, want)
					}
				}
			}
			return true
		})
	}
	if len(formats) < 5 {
		t.Fatalf("found %d calls of wordq, want 5 at least: %q", len(formats), formats)
	}
	if got := (&analyzer{brief: true}).wordq(formats[0], "x"); got != "" {
		t.Errorf("a brief check's wordq = %q, want none", got)
	}
}
