package parser

import (
	"strings"
	"testing"
)

// TestHiddenProductionsShown: the trees show gopher's search and
// gopher+_string, nntp's article number and a genericurl's login, where the
// grammar's first derivation hides them (refine.go); Parse (the fast path)
// and Reference (the general matcher) give the same trees.
func TestHiddenProductionsShown(t *testing.T) {
	for _, tc := range []struct {
		input string
		want  []string // "rule text" of nodes, in preorder
		not   []string // rules that must not appear
	}{
		{"gopher://h/1sel%09find%09plus", []string{`selector "sel"`, `search "find"`, `gopher+_string "plus"`}, nil},
		{"gopher://h/7%09a%20b", []string{`selector ""`, `search "a%20b"`, `escape "%20"`}, []string{"gopher+_string"}},
		{"gopher://h/1a%09b%09c%09d", []string{`selector "a"`, `search "b"`, `gopher+_string "c%09d"`}, nil},
		// RFC 1738's search has no "/": after this tab, no search, and the
		// selector keeps the tab, the only derivation there is.
		{"gopher://h/1a%09b/c", []string{`selector "a%09b/c"`, `escape "%09"`}, []string{"search"}},
		{"gopher://h/1menu", []string{`selector "menu"`}, []string{"search"}},
		{"nntp://h/comp.lang.go/42", []string{`group "comp.lang.go"`, `digits "42"`}, nil},
		{"nntp://h/comp.lang.go", []string{`group "comp.lang.go"`}, []string{"digits"}},
		{"git://u:p@h.example:9418/repo.git", []string{`schemepart "//u:p@h.example:9418/repo.git"`,
			`ip-schemepart "//u:p@h.example:9418/repo.git"`, `login "u:p@h.example:9418"`, `user "u"`, `password "p"`,
			`hostport "h.example:9418"`, `port "9418"`, `urlpath "repo.git"`}, nil},
		{"x-y://h", []string{`ip-schemepart "//h"`, `login "h"`, `hostport "h"`}, []string{"urlpath"}},
		{"urn:isbn:0451450523", []string{`schemepart "isbn:0451450523"`}, []string{"ip-schemepart"}},
		{"foo://h:/x", []string{`schemepart "//h:/x"`}, []string{"ip-schemepart"}}, // an empty port is no hostport
		{"foo:///x", []string{`schemepart "///x"`}, []string{"ip-schemepart"}},
	} {
		t.Run(tc.input, func(t *testing.T) {
			for _, parse := range []struct {
				name string
				f    func(string) (string, error)
			}{
				{"Parse", func(s string) (string, error) { tr, err := Parse(s); return tr.String(), err }},
				{"Reference", func(s string) (string, error) { tr, err := Reference(s); return tr.String(), err }},
			} {
				tree, err := parse.f(tc.input)
				if err != nil {
					t.Fatalf("%s: %v", parse.name, err)
				}
				var nodes []string
				for _, line := range strings.Split(strings.TrimSpace(tree), "\n") {
					f := strings.Fields(line)
					nodes = append(nodes, f[0]+" "+strings.Join(f[2:], " "))
				}
				i := 0
				for _, n := range nodes {
					if i < len(tc.want) && n == tc.want[i] {
						i++
					}
					for _, bad := range tc.not {
						if strings.HasPrefix(n, bad+" ") {
							t.Errorf("%s: %s in the tree:\n%s", parse.name, bad, tree)
						}
					}
				}
				if i < len(tc.want) {
					t.Errorf("%s: no %s (in order) in the tree:\n%s", parse.name, tc.want[i], tree)
				}
			}
		})
	}
}
