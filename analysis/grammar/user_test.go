package grammar

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestLoadUserGeo loads RFC 5870's grammar of the geo scheme as published:
// plain ABNF, no directive, the core rules used without a definition and
// RFC 3986's unreserved and pct-encoded defined anew.
func TestLoadUserGeo(t *testing.T) {
	src, err := os.ReadFile("../../testdata/geo/geo.abnf")
	if err != nil {
		t.Fatal(err)
	}
	g, err := LoadUser("geo.abnf", "testdata/geo/geo.abnf", src)
	if err != nil {
		t.Fatal(err)
	}
	for in, ok := range map[string]bool{
		// RFC 5870 §1, §6.2 and §9.4 examples.
		"geo:13.4125,103.8667":                     true,
		"geo:48.2010,16.3695,183":                  true,
		"geo:48.198634,16.371648;crs=wgs84;u=40":   true,
		"geo:66,30;u=6.500;FOo=this%2dthat":        true,
		"GEO:66.0,30;u=6.5;foo=this-that":          true,
		"geo:-33.8568,151.2153":                    true,
		"geo:90,-22.43;crs=WGS84":                  true,
		"geo:13.4125":                              false, // one coordinate
		"geo:1,2,3,4":                              false,
		"geo:48.2010;16.3695":                      false,
		"geo:1,2;crs=":                             false,
		"geo:1,2;u=":                               false,
		"geo:1,2;a=b c":                            false,
		"geo:1,2;a=%zz":                            false,
		"geo:1,2;a=[x]":                            true, // p-unreserved
		"geo:1,2;a=x~y":                            true, // mark
		"geo:1,2;a=x/y":                            false,
		"geo:66.0000000000000000000000000001,30,0": true,
	} {
		_, err := g.Match("geo-URI", in)
		if (err == nil) != ok {
			t.Errorf("geo-URI %q: err = %v, want ok = %v", in, err, ok)
		}
	}
	if r := g.Rule("geo-URI"); r.Source != "geo.abnf" || r.Line != 10 {
		t.Errorf("geo-URI: source %q, line %d; want the file's name and line 10", r.Source, r.Line)
	}
	// The file's unreserved, not RFC 3986's.
	if r := g.Rule("unreserved"); r.Source != "geo.abnf" || !strings.Contains(r.Definition, "alphanum / mark") {
		t.Errorf("unreserved is %q from %s", r.Definition, r.Source)
	}
	// The core rules, predefined, keep their source and stay out of trees.
	if r := g.Rule("DIGIT"); r == nil || r.Source != "RFC 5234 Appendix B.1" || !r.Transparent {
		t.Errorf("DIGIT = %+v", r)
	}
	if r := g.Rule("query"); r != nil {
		t.Errorf("the grammar has RFC 3986's query, which it never uses")
	}
	tree, err := g.Match("geo-URI", "geo:48.2010,16.3695;u=40")
	if err != nil {
		t.Fatal(err)
	}
	want := `geo-URI 0-24 "geo:48.2010,16.3695;u=40"
  geo-scheme 0-3 "geo"
  geo-path 4-24 "48.2010,16.3695;u=40"
    coordinates 4-19 "48.2010,16.3695"
      coord-a 4-11 "48.2010"
        num 4-11 "48.2010"
          pnum 4-11 "48.2010"
      coord-b 12-19 "16.3695"
        num 12-19 "16.3695"
          pnum 12-19 "16.3695"
    p 19-24 ";u=40"
      uncp 19-24 ";u=40"
        uval 22-24 "40"
          pnum 22-24 "40"
`
	if got := tree.String(); got != want {
		t.Errorf("tree:\n%s\nwant:\n%s", got, want)
	}
}

// TestLoadUserPredefined: the rules of RFC 3986 Appendix A and the core rules
// of RFC 5234 are there when used, with the rules they use; a rule of the
// file under a predefined name replaces it in the predefined rules too.
func TestLoadUserPredefined(t *testing.T) {
	tests := []struct {
		name, src, rule string
		match           map[string]bool
		sources         map[string]string // rule -> source
		absent          []string
	}{
		{
			name: "RFC 3986 rules and their own",
			src:  "ticket-URI = \"ticket:\" project \"-\" number [ \"?\" query ]\nproject = 1*10( %x41-5A / DIGIT )\nnumber = %x31-39 *DIGIT\n",
			rule: "ticket-URI",
			match: map[string]bool{
				"ticket:URLLS-42": true, "TICKET:URLLS-42?from=a/b": true, "ticket:urlls-42": false,
				"ticket:URLLS-042": false, "ticket:URLLS-4#2": false, "ticket:URLLS-4?%zz": false, "ticket:URLLS-4?x%2F~": true,
			},
			sources: map[string]string{"ticket-URI": "t.abnf", "query": "RFC 3986 Appendix A", "pchar": "RFC 3986 Appendix A",
				"pct-encoded": "RFC 3986 Appendix A", "DIGIT": "RFC 5234 Appendix B.1", "HEXDIG": "RFC 5234 Appendix B.1"},
			absent: []string{"URI", "host", "http-URI"},
		},
		{
			name:    "a rule of the file replaces a predefined one everywhere",
			src:     "u = \"x:\" segment\nunreserved = \"z\"\n",
			rule:    "u",
			match:   map[string]bool{"x:zz": true, "x:z%41!:@": true, "x:ab": false},
			sources: map[string]string{"unreserved": "t.abnf", "segment": "RFC 3986 Appendix A"},
		},
		{
			name:    "names in any case",
			src:     "a = 1*digit alpha sp vchar\n",
			rule:    "a",
			match:   map[string]bool{"12x ~": true, "12x  ": false},
			sources: map[string]string{"DIGIT": "RFC 5234 Appendix B.1", "SP": "RFC 5234 Appendix B.1"},
		},
		{
			name:    "directives still work",
			src:     ";@title A test\n;@transparent pct-encoded\n;@source RFC 0000 §1\na = \"%\" / pct-encoded\n",
			rule:    "a",
			match:   map[string]bool{"%": true, "%41": true, "%4": false},
			sources: map[string]string{"a": "RFC 0000 §1"},
		},
		{
			name: "RFC 5234 values and RFC 7405 strings",
			src:  "a = %s\"Ab\" %i\"cd\" %d48 %b110001 %x32-33 %x34.35 2*3\"!\"\na =/ \"z\"\n",
			rule: "a",
			match: map[string]bool{"AbCD01245!!": true, "abcd01245!!": false, "AbCD01345!!!": true, "AbCD01245!": false,
				"z": true, "Z": true},
		},
		{
			name:  "the core rules",
			src:   "a = BIT CHAR CR LF CRLF CTL DQUOTE HTAB OCTET SP VCHAR WSP HEXDIG LWSP \"!\"\n",
			rule:  "a",
			match: map[string]bool{"1x\r\n\r\n\x00\"\t\xff ~\tF \r\n\t!": true, "1x\r\n\r\n\x00\"\t\xff ~\tG!": false},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := LoadUser("t.abnf", "t.abnf", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			for in, ok := range tc.match {
				if _, err := g.Match(tc.rule, in); (err == nil) != ok {
					t.Errorf("%s %q: err = %v, want ok = %v", tc.rule, in, err, ok)
				}
			}
			for name, src := range tc.sources {
				if r := g.Rule(name); r == nil || r.Source != src {
					t.Errorf("rule %s: %+v, want the source %q", name, r, src)
				}
			}
			for _, name := range tc.absent {
				if g.Rule(name) != nil {
					t.Errorf("rule %s is in the grammar, which does not use it", name)
				}
			}
		})
	}
}

func TestLoadUserErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"undefined rule", "a = \"x\" b\n", `u.abnf:1:9: rule "a" refers to undefined rule "b"`},
		{"undefined rule on a continuation line", "a = \"x\"\n  / \"y\" ALPHA\n  / nope\n", `u.abnf:3:5: rule "a" refers to undefined rule "nope"`},
		{"only RFC 3986's Appendix A", "a = http-URI\n", `u.abnf:1:5: rule "a" refers to undefined rule "http-URI"`},
		{"left recursion", "a = b \"x\"\nb = [ \"y\" ] a\n", `u.abnf:1:1: rule "a" is left-recursive, which the matcher does not support`},
		{"left recursion through a predefined rule", "a = \"x\" segment\nunreserved = pchar \"y\"\n", `u.abnf:2:1: rule "unreserved" is left-recursive, which the matcher does not support`},
		{"duplicate rule", "a = \"x\"\nA = \"y\"\n", `u.abnf:2:1: rule "A" already defined at line 1`},
		{"=/ on a predefined rule", "a = unreserved\nunreserved =/ \"!\"\n", `u.abnf:2:1: incremental alternative for rule "unreserved", which this file does not define: "=/" extends a rule of the file, not the predefined one (RFC 3986 Appendix A); define unreserved whole with "="`},
		{"=/ on an undefined rule", "a =/ \"x\"\n", `u.abnf:1:1: incremental alternative for undefined rule "a"`},
		{"bad value", "a = \"x\"\nb = %q20\n", `u.abnf:2:6: expected x, d, b, s or i after %`},
		{"missing =", "a \"x\"\n", `u.abnf:1:3: expected "=" after rule name "a"`},
		{"unclosed option", "a = [ \"x\"\n", `u.abnf:1:10: expected ']'`},
		{"indented like an RFC", "   a = \"x\"\n", `u.abnf:1:1: indented line outside a rule (a rule starts at the start of its line, RFC 5234 §2.2; ABNF copied from an RFC keeps its indentation)`},
		{"prose", "a = <an a>\n", `u.abnf:1:5: prose values <...> cannot be matched; define the rule in ABNF`},
		{"empty", "; nothing but a comment\n", `u.abnf:1:1: no rules`},
		{"transparent undefined", ";@transparent b\na = \"x\"\n", `u.abnf:1:1: ;@transparent names undefined rule "b"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadUser("u.abnf", "u.abnf", []byte(tc.src))
			if err == nil || err.Error() != tc.want {
				t.Errorf("LoadUser error = %v, want %s", err, tc.want)
			}
			if _, ok := err.(*LoadError); !ok {
				t.Errorf("error %T, want *LoadError", err)
			}
		})
	}
}

// TestLoadUserOnce: the same file loads once, so that re-reading a
// configuration registers no new rules; another content loads anew.
func TestLoadUserOnce(t *testing.T) {
	src := []byte("once-a = \"x\" DIGIT\n")
	g1, err := LoadUser("once.abnf", "once.abnf", src)
	if err != nil {
		t.Fatal(err)
	}
	g2, err := LoadUser("once.abnf", "once.abnf", slices.Clone(src))
	if err != nil {
		t.Fatal(err)
	}
	if g1 != g2 {
		t.Error("the same file loaded twice")
	}
	g3, err := LoadUser("once.abnf", "once.abnf", []byte("once-a = \"y\" DIGIT\n"))
	if err != nil {
		t.Fatal(err)
	}
	if g3 == g1 {
		t.Error("a changed file was not loaded anew")
	}
	if g1.Rule("DIGIT") == Builtin("rfc3986").Rule("DIGIT") {
		t.Error("a user grammar shares a rule with a built-in grammar")
	}
}

func TestPredefinedRules(t *testing.T) {
	names := PredefinedRules()
	for _, n := range []string{"ALPHA", "BIT", "CHAR", "CR", "CRLF", "CTL", "DIGIT", "DQUOTE", "HEXDIG", "HTAB", "LF", "LWSP", "OCTET", "SP", "VCHAR", "WSP",
		"URI", "hier-part", "URI-reference", "absolute-URI", "relative-ref", "relative-part", "scheme", "authority", "userinfo", "host", "port",
		"IP-literal", "IPvFuture", "IPv6address", "h16", "ls32", "IPv4address", "dec-octet", "reg-name", "path", "path-abempty", "path-absolute",
		"path-noscheme", "path-rootless", "path-empty", "segment", "segment-nz", "segment-nz-nc", "pchar", "query", "fragment", "pct-encoded",
		"unreserved", "reserved", "gen-delims", "sub-delims"} {
		if !slices.Contains(names, n) {
			t.Errorf("%s is not predefined", n)
		}
	}
	if len(names) != 16+36 {
		t.Errorf("%d predefined rules, want 52: %v", len(names), names)
	}
}
