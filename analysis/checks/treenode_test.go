package checks

import (
	"fmt"
	"testing"

	"github.com/urlls/urlls/analysis/grammar"
	"github.com/urlls/urlls/analysis/parser"
)

// treeNodeEveryNode is treeNode as it was: every node of the tree read.
func treeNodeEveryNode(t *grammar.Tree, name string, o int) (int, bool) {
	found := -1
	for i, n := range t.Nodes {
		if int(n.Start) <= o && o <= int(n.End) && n.Rule().Name == name {
			found = i
		}
	}
	return found, found >= 0
}

// TestTreeNodeSkipsOnlyWhatCannotHoldOffset: treeNode and laterNodesAt,
// which skip the subtrees of nodes that do not hold the offset, find what
// reading every node finds, for every offset and every rule of the trees RFC 3986 and
// RFC 1738 build for the forms laterForm words and for generated URLs
// (both fast paths and the general matcher build them).
func TestTreeNodeSkipsOnlyWhatCannotHoldOffset(t *testing.T) {
	inputs := []string{
		"http://user:pw@example.com:80/a/b?q=/x?y#f", "http://[::1]/a", "http://[v7.x]:8/", "https://my_host.example.com./p",
		"http://h:/", "http://h?q", "https://xn--e.example/%C3%A9", "ftp://u@h/a;type=d", "mailto:a@b.c",
		"news:comp.lang", "file:///etc/x", "wais://h/db?q", "//h/a", "a/b?c#d", "../x;p?q", "http://1.2.3.4:8080/",
		"http://[2001:db8::7]:443/a/b/c?d=e&f=g#h", "urn:isbn:0451450523", "x-y+z.w://a.b/c",
	}
	for i := range 300 {
		inputs = append(inputs, fmt.Sprintf("http://u%d:p@h%d.example.org:%d/p/%d?q=%d/x#f%d", i, i, i, i, i, i),
			fmt.Sprintf("https://[::%x]/a%d?b", i, i), fmt.Sprintf("ftp://h%d/d/%d;type=a", i, i))
	}
	trees := 0
	for _, in := range inputs {
		for _, relative := range []bool{false, true} {
			var ts []*grammar.Tree
			if tr, err := parser.ParseRFC3986(in, relative); err == nil {
				ts = append(ts, tr)
			}
			if tr, err := parser.Parse(in); err == nil && !relative {
				ts = append(ts, &tr)
			}
			for _, tr := range ts {
				trees++
				names := map[string]bool{}
				for _, n := range tr.Nodes {
					names[n.Rule().Name] = true
				}
				for o := 0; o <= len(in)+1; o++ {
					at := laterNodesAt(tr, o)
					for name, got := range map[string]int{"userinfo": at.userinfo, "IP-literal": at.ipLiteral,
						"port": at.port, "reg-name": at.regName, "authority": at.authority, "query": at.query} {
						if want, _ := treeNodeEveryNode(tr, name, o); got != want {
							t.Fatalf("%q: laterNodesAt(%d).%s = %d; every node read: %d", in, o, name, got, want)
						}
					}
				}
				for name := range names {
					for o := 0; o <= len(in)+1; o++ {
						got, gok := treeNode(tr, name, o)
						want, wok := treeNodeEveryNode(tr, name, o)
						if got != want || gok != wok {
							t.Fatalf("%q: treeNode(%s, %d) = %d, %v; every node read: %d, %v", in, name, o, got, gok, want, wok)
						}
					}
				}
			}
		}
	}
	if trees < 1000 {
		t.Fatalf("only %d trees built", trees)
	}
}
