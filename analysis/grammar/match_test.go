package grammar

import (
	"fmt"
	"strings"
	"testing"
)

// nodeRules lists "rule=text" for each node of t, in preorder.
func nodeRules(t *Tree) []string {
	var out []string
	for i, n := range t.Nodes {
		out = append(out, n.Rule().Name+"="+t.Text(i))
	}
	return out
}

func TestMatchRFC1738(t *testing.T) {
	g := Builtin("rfc1738")
	tests := []struct {
		name, rule, input string
		want              []string // nodes that must be in the tree, in this order
	}{
		// A first-match (PEG) parser takes domainlabel's first alternative,
		// "a", and can then never match "ab": the backtracking matcher can.
		{"domainlabel of two letters", "domainlabel", "ab", []string{"domainlabel=ab"}},
		{"hostname of two-letter labels", "hostname", "ab.cd", []string{"hostname=ab.cd", "domainlabel=ab", "toplabel=cd"}},
		{"hostnumber, not hostname", "host", "10.0.0.1", []string{"host=10.0.0.1", "hostnumber=10.0.0.1"}},
		{"http with port, path and search", "httpurl", "http://www.example.com:8080/a/b%20c?q=1",
			[]string{"httpurl=http://www.example.com:8080/a/b%20c?q=1", "hostport=www.example.com:8080", "port=8080",
				"hpath=a/b%20c", "hsegment=a", "hsegment=b%20c", "escape=%20", "search=q=1"}},
		{"ftp with login and type", "ftpurl", "ftp://anonymous:me@ftp.x.org/pub/a.txt;type=i",
			[]string{"login=anonymous:me@ftp.x.org", "user=anonymous", "password=me", "fpath=pub/a.txt", "fsegment=pub", "fsegment=a.txt", "ftptype=i"}},
		{"ftp host without user", "ftpurl", "ftp://ftp.x.org:21/", []string{"login=ftp.x.org:21", "hostport=ftp.x.org:21", "port=21"}},
		{"gopher selector", "gopherurl", "gopher://h:70/0about", []string{"gtype=0", "selector=about"}},
		{"news group", "newsurl", "news:comp.lang.go", []string{"grouppart=comp.lang.go", "group=comp.lang.go"}},
		{"news article", "newsurl", "news:123@host.com", []string{"article=123@host.com", "host=host.com"}},
		{"news all", "newsurl", "news:*", []string{"grouppart=*"}},
		{"nntp group", "nntpurl", "nntp://h/alt.test/12", []string{"group=alt.test"}},
		{"wais index", "waisurl", "wais://h/db?x", []string{"waisindex=wais://h/db?x", "database=db", "search=x"}},
		{"wais doc", "waisurl", "wais://h/db/t/p", []string{"waisdoc=wais://h/db/t/p", "database=db", "wtype=t", "wpath=p"}},
		{"prospero fields", "prosperourl", "prospero://h/a;x=y", []string{"ppath=a", "fieldspec=;x=y", "fieldname=x", "fieldvalue=y"}},
		{"mailto", "mailtourl", "mailto:a%40b@c", []string{"encoded822addr=a%40b@c", "escape=%40"}},
		{"scheme names are case-insensitive literals", "httpurl", "HTTP://X.ORG/", []string{"hostport=X.ORG"}},
		{"file without host", "fileurl", "file:///etc/hosts", []string{"fpath=etc/hosts"}},
		{"generic", "genericurl", "z39.50s://h/x", []string{"scheme=z39.50s", "schemepart=//h/x"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tree, err := g.Match(tc.rule, tc.input)
			if err != nil {
				t.Fatalf("Match(%s, %q): %v", tc.rule, tc.input, err)
			}
			got := nodeRules(tree)
			i := 0
			for _, n := range got {
				if i < len(tc.want) && n == tc.want[i] {
					i++
				}
			}
			if i < len(tc.want) {
				t.Errorf("tree lacks %q (in order); tree:\n%s", tc.want[i], tree)
			}
			if tree.Nodes[0].Start != 0 || int(tree.Nodes[0].End) != len(tc.input) || int(tree.Nodes[0].Size) != len(tree.Nodes) {
				t.Errorf("root %+v does not span the input and the tree", tree.Nodes[0])
			}
		})
	}
}

func TestTransparentRulesLeaveNoNodes(t *testing.T) {
	tree, err := Builtin("rfc1738").Match("httpurl", "http://h/a%41")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range tree.Nodes {
		switch name := n.Rule().Name; name {
		case "uchar", "xchar", "alpha", "digit", "unreserved", "alphadigit", "digits":
			t.Errorf("transparent rule %s is a node:\n%s", name, tree)
		}
	}
}

func TestMatchErrors(t *testing.T) {
	g := Builtin("rfc1738")
	tests := []struct {
		name, rule, input string
		offset            int
		production        string
		expected          []string // each must be among the expected items
	}{
		{"letter in port", "httpurl", "http://host:8x80/", 13, "port", []string{"digit", `"/"`}},
		{"space in host", "httpurl", "http://ex ample.com/", 9, "domainlabel", []string{`"."`}},
		{"space in path", "httpurl", "http://h/a b", 10, "hsegment", []string{`"/"`, `"?"`, "end of input"}},
		{"bad ftptype", "ftpurl", "ftp://h/f;type=q", 15, "ftpurl", []string{"ftptype"}},
		{"bad escape", "httpurl", "http://h/%zz", 10, "escape", []string{"hex"}},
		{"empty port", "httpurl", "http://h:/", 9, "hostport", []string{"port"}},
		{"escape expected in a segment", "httpurl", "http://h/a b", 10, "hsegment", []string{"escape", "unreserved"}},
		{"nntp article number", "nntpurl", "nntp://h/g/12x", 13, "nntpurl", []string{"digit", "end of input"}},
		{"trailing junk", "newsurl", "news:a b", 6, "group", []string{"end of input"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := g.Match(tc.rule, tc.input)
			serr, ok := err.(*SyntaxError)
			if !ok {
				t.Fatalf("Match(%s, %q) = %v, want a *SyntaxError", tc.rule, tc.input, err)
			}
			if serr.Offset != tc.offset || serr.Rule.Name != tc.production {
				t.Errorf("error at %d in %s, want %d in %s (%v)", serr.Offset, serr.Rule.Name, tc.offset, tc.production, serr)
			}
			if serr.Chain[0].Name != tc.rule || serr.Chain[len(serr.Chain)-1] != serr.Rule {
				t.Errorf("chain %v does not run from %s to %s", serr.Chain, tc.rule, serr.Rule.Name)
			}
			for _, e := range tc.expected {
				found := false
				for _, x := range serr.Expected {
					found = found || x == e
				}
				if !found {
					t.Errorf("expected list %v lacks %s", serr.Expected, e)
				}
			}
			if !strings.Contains(serr.Error(), tc.production) {
				t.Errorf("message %q does not name %s", serr.Error(), tc.production)
			}
		})
	}
}

func TestTreePath(t *testing.T) {
	tree, err := Builtin("rfc1738").Match("httpurl", "http://h.com:80/a%20b")
	if err != nil {
		t.Fatal(err)
	}
	names := func(off int) string {
		var out []string
		for _, i := range tree.Path(off) {
			out = append(out, tree.Nodes[i].Rule().Name)
		}
		return strings.Join(out, " › ")
	}
	for off, want := range map[int]string{
		0:  "httpurl",
		7:  "httpurl › hostport › host › hostname › domainlabel",
		11: "httpurl › hostport › host › hostname › toplabel",
		13: "httpurl › hostport › port",
		16: "httpurl › hpath › hsegment",
		17: "httpurl › hpath › hsegment › escape",
		99: "",
	} {
		if got := names(off); got != want {
			t.Errorf("Path(%d) = %s, want %s", off, got, want)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"no source", "a = \"x\"\n", "t.abnf:1:1: rule before any ;@source directive"},
		{"undefined rule", ";@source T\na = b\n", `t.abnf:2:5: rule "a" refers to undefined rule "b"`},
		{"undefined rule on a continuation line", ";@source T\na = \"x\"\n    / ( \"y\" zz )\n", `t.abnf:3:13: rule "a" refers to undefined rule "zz"`},
		{"duplicate rule", ";@source T\na = \"x\"\nA = \"y\"\n", `t.abnf:3:1: rule "A" already defined at line 2`},
		{"left recursion", ";@source T\na = [\"x\"] a \"y\"\n", `t.abnf:2:1: rule "a" is left-recursive`},
		{"unclosed group", ";@source T\na = ( \"x\"\n", `t.abnf:2:10: expected ')'`},
		{"prose value", ";@source T\na = <prose>\n", "t.abnf:2:5: prose values"},
		{"unterminated string", ";@source T\na = \"x\n", "t.abnf:2:7: unterminated string"},
		{"bad range", ";@source T\na = %x7A-61\n", "t.abnf:2:10: expected the upper end of a byte range, at least %x7A"},
		{"unknown directive", ";@sauce T\n", `t.abnf:1:1: unknown directive ";@sauce"`},
		{"transparent undefined", ";@source T\n;@transparent b\na = \"x\"\n", `t.abnf:2:1: ;@transparent names undefined rule "b"`},
		{"present undefined", ";@source T\n;@present b\na = \"x\"\n", `t.abnf:2:1: ;@present names undefined rule "b"`},
		{"present without an optional", ";@source T\n;@present a\na = \"x\" \"y\"\n", `t.abnf:2:1: ;@present names rule "a", whose definition does not end in an optional part`},
		{"present with an optional alone", ";@source T\n;@present a\na = [ \"x\" ]\n", `t.abnf:2:1: ;@present names rule "a", whose definition does not end`},
		{"empty", "; nothing\n", "t.abnf:1:1: no rules"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load("t", "t.abnf", []byte(tc.src))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("Load error = %v, want prefix %q", err, tc.want)
			}
		})
	}
}

func TestLoadDialect(t *testing.T) {
	src := ";@source test\n" +
		"a = b / c =/ d\n" + // "=/" only at the start of a rule: here it is a parse error
		""
	if _, err := Load("t", "t.abnf", []byte(src)); err == nil {
		t.Error("a stray =/ loaded")
	}
	src = ";@source test\n" +
		"greet = %s\"Hi\" 2*3\"!\" [ rest ]\n" +
		"rest  = %x20.41 / %d66-67\n" +
		"rest  =/ gopher+_x\n" +
		"gopher+_x = \"x\"   ; names may hold + and _\n"
	g, err := Load("t", "t.abnf", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for in, ok := range map[string]bool{"Hi!!": true, "Hi!!! A": true, "hi!!": false, "Hi!": false, "Hi!!B": true, "Hi!!x": true, "Hi!!!!": false} {
		_, err := g.Match("greet", in)
		if (err == nil) != ok {
			t.Errorf("greet %q: err=%v, want ok=%v", in, err, ok)
		}
	}
	if got := g.Rule("rest").Expr.String(); got != `%s" A" / %x42-43 / gopher+_x` {
		t.Errorf("rest = %s", got)
	}
}

// TestXBNFOptionalPartsShown: the XBNF's path would absorb the ftptype and
// the prospero "%00" version; ;@present makes the tree show them, and a
// right-recursive list is one node.
func TestXBNFOptionalPartsShown(t *testing.T) {
	g := Builtin("xbnf")
	for _, tc := range []struct {
		input string
		want  []string // nodes "rule text", in preorder
	}{
		{"ftp://h/pub/fileI", []string{`path "pub/file"`, `segment "pub"`, `segment "file"`, `ftptype "I"`}},
		{"ftp://h/pub/file.txt", []string{`path "pub/file.txt"`, `segment "pub"`, `segment "file.txt"`}},
		{"ftp://h/pub/fileAN", []string{`path "pub/file"`, `ftptype "AN"`, `formcode "N"`}},
		{"prospero://h/pub/papers%001", []string{`hsoname "pub/papers"`, `path "pub/papers"`, `version "1"`}},
		{"prospero://h/p%0012ab", []string{`hsoname "p"`, `version "12"`, `attribute "ab"`}},
		{"telnet://user:pw@h", []string{`login "user:pw@h"`, `user "user"`, `password "pw"`, `hostport "h"`}},
		{"http://a.b.c/p?x+y", []string{`hostname "a.b.c"`, `path "p"`, `search "x+y"`}},
	} {
		t.Run(tc.input, func(t *testing.T) {
			tree, err := g.Match("url", tc.input)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for i, n := range tree.Nodes {
				got = append(got, fmt.Sprintf("%s %q", n.Rule().Name, tree.Text(i)))
			}
			i := 0
			for _, n := range got {
				if i < len(tc.want) && n == tc.want[i] {
					i++
				}
			}
			if i < len(tc.want) {
				t.Errorf("tree lacks %s (in order):\n%s", tc.want[i], tree)
			}
			for j := 1; j < len(tree.Nodes); j++ {
				if p := tree.Path(int(tree.Nodes[j].Start)); len(p) > 1 {
					for k := 1; k < len(p); k++ {
						if a, b := tree.Nodes[p[k-1]], tree.Nodes[p[k]]; a.ID == b.ID && a.End == b.End {
							t.Errorf("%s nested in itself:\n%s", a.Rule().Name, tree)
						}
					}
				}
			}
		})
	}
}
