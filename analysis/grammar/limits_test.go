package grammar

import (
	"strings"
	"testing"
)

// TestLongAmbiguousInputs: past memoLimit, an input that makes the machine
// run out of steps still gets a located error, marked GaveUp, at the byte a
// reader would point at; below it the answer is exact.
func TestLongAmbiguousInputs(t *testing.T) {
	for _, tc := range []struct {
		name, rule, input string
		grammar           string
		gaveUp            bool
	}{
		{"gopher escapes, short", "gopherurl", "gopher://h/" + strings.Repeat("%09", 300) + " ", "rfc1738", false},
		{"gopher escapes, long", "gopherurl", "gopher://h/" + strings.Repeat("%09", 3000) + " ", "rfc1738", true},
		{"xbnf search, long", "httpaddress", "http://h/p?" + strings.Repeat("a+", 3000) + " ", "xbnf", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Builtin(tc.grammar).Rule(tc.rule).Match(tc.input)
			if err == nil {
				t.Fatal("matched")
			}
			if err.Offset != len(tc.input)-1 || err.GaveUp != tc.gaveUp {
				t.Errorf("error at %d (gave up: %v), want %d (gave up: %v): %v", err.Offset, err.GaveUp, len(tc.input)-1, tc.gaveUp, err)
			}
		})
	}
	// A long valid input is accepted on the greedy path, budget or not.
	long := "gopher://h/1" + strings.Repeat("%09", 30000)
	if _, err := Builtin("rfc1738").Rule("gopherurl").Match(long); err != nil {
		t.Errorf("long valid gopher URL: %v", err)
	}
}

// TestLongValidInputs: a valid URL has no size limit. Each input here is
// over 4 KiB, past memoLimit, so the machine must find its derivation within
// its budget, for every grammar; the XBNF's right-recursive lists (user,
// password, hostname, path, search, group, wpath) included.
func TestLongValidInputs(t *testing.T) {
	long := func(unit string) string { return strings.Repeat(unit, 4200/len(unit)+1) }
	for _, tc := range []struct{ grammar, rule, input string }{
		{"xbnf", "url", "telnet://" + long("a")},
		{"xbnf", "url", "telnet://" + long("u") + ":" + long("p") + "@host"},
		{"xbnf", "url", "telnet://" + long("a.b")},
		{"xbnf", "url", "http://" + long("a.") + "a/p"},
		{"xbnf", "url", "http://h/" + long("seg/") + "x?" + long("a+")},
		{"xbnf", "url", "http://h/p?" + long("q")},
		{"xbnf", "url", "ftp://u:p@h/" + long("d/") + "f"},
		{"xbnf", "url", "ftp://h/" + long("dir/") + "fileI"},
		{"xbnf", "url", "news:" + long("comp.")},
		{"xbnf", "url", "news:" + long("x") + "@" + long("h.") + "org"},
		{"xbnf", "url", "nntp:" + long("g.") + "g/" + long("1")},
		{"xbnf", "url", "mailto:" + long("a") + "@" + long("h.") + "org"},
		{"xbnf", "url", "gopher://h/1" + long("s/")},
		{"xbnf", "url", "wais://h/db?" + long("w")},
		{"xbnf", "url", "wais://h/db/t/" + long("12=p;")},
		{"xbnf", "url", "prospero://h/" + long("p/") + "%001" + long("a")},
		{"xbnf", "url", "mid:" + long("m") + "@h"},
		{"rfc1738", "url", "http://" + long("a.") + "com/" + long("p/") + "?" + long("q")},
		{"rfc1738", "url", "ftp://" + long("u") + ":" + long("p") + "@h/" + long("f/") + ";type=i"},
		{"rfc1738", "url", "gopher://h/1" + long("%09")},
		{"rfc1738", "url", "news:" + long("a%40") + "@h"},
		{"rfc1738", "url", "prospero://h/" + long("p/") + long(";a=b")},
		{"rfc1738", "url", "x-" + long("y") + ":" + long("z")},
		{"rfc1808", "URL", long("../") + long("a/") + ";" + long("p;") + "?" + long("q") + "#" + long("f")},
		{"rfc3986", "URI-reference", "https://" + long("u") + "@" + long("h.") + "com:8080/" + long("p/") + "?" + long("q") + "#" + long("f")},
		{"rfc3986", "URI-reference", "http://[" + strings.Repeat("1:", 7) + "1]/" + long("%41")},
	} {
		name := tc.input[:min(24, len(tc.input))]
		t.Run(tc.grammar+"/"+name, func(t *testing.T) {
			tree, err := Builtin(tc.grammar).Rule(tc.rule).Match(tc.input)
			if err != nil {
				t.Fatalf("%d bytes: %v", len(tc.input), err)
			}
			if root := tree.Nodes[0]; int(root.End) != len(tc.input) {
				t.Errorf("root ends at %d of %d", root.End, len(tc.input))
			}
		})
	}
}
