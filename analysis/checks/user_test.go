package checks

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/urlls/urlls/analysis/grammar"
)

// userSchemes loads the grammars of the tests: RFC 5870's geo (the README's
// worked example) and a made-up ticket scheme no registry knows.
func userSchemes(t testing.TB) map[string]*grammar.Rule {
	t.Helper()
	src, err := os.ReadFile("../../testdata/geo/geo.abnf")
	if err != nil {
		t.Fatal(err)
	}
	geo, err := grammar.LoadUser("geo.abnf", "geo.abnf", src)
	if err != nil {
		t.Fatal(err)
	}
	ticket, err := grammar.LoadUser("ticket.abnf", "ticket.abnf", []byte(
		"ticket-URI = \"ticket:\" project \"-\" number [ \"?\" query ]\n"+
			"project    = 1*10( %x41-5A / DIGIT )\n"+
			"number     = %x31-39 *DIGIT\n"))
	if err != nil {
		t.Fatal(err)
	}
	afs, err := grammar.LoadUser("afs.abnf", "afs.abnf", []byte("afs-URI = \"afs://\" reg-name path-abempty\n"))
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*grammar.Rule{"geo": geo.Rule("geo-URI"), "ticket": ticket.Rule("ticket-URI"), "afs": afs.Rule("afs-URI")}
}

func TestUserGrammars(t *testing.T) {
	opts := Options{Schemes: userSchemes(t)}
	tests := []struct {
		doc  string
		want []string // "start-end code: message"
		none []string // without the user grammars
	}{
		{doc: "<geo:48.2010,16.3695,183;crs=wgs84;u=40>"},
		{doc: "[x](geo:-33.8568,151.2153#top)"},
		{doc: "[x](geo:1.2838;103.8592)",
			want: []string{`14-15 syntax: unexpected ";" in geo-URI › geo-path › coordinates › coord-a › num › pnum: expected DIGIT or ","`}},
		{doc: "[x](geo:31.15,-24.15;crs=)",
			want: []string{`24-25 syntax: unexpected end of input in geo-URI › geo-path › p › crsp: expected crslabel or pvalue`}},
		// The character-level codes report their bytes, and the parse does not again.
		{doc: "[x](geo:1,2;a=b%zz)",
			want: []string{`15-18 bad-escape: "%zz" is not an escape: "%" must be followed by two hex digits`}},
		{doc: "[x](GEO:1,2)",
			want: []string{`4-7 scheme-case: scheme "GEO" is not lower case`}},
		{doc: "[x](geo:1,2;a=x~y)",
			want: []string{`15-16 rfc1738-unsafe: "~" is unsafe in RFC 1738 (RFC 3986 made it unreserved)`}},
		// A scheme no registry knows is known once the user gives its grammar.
		{doc: "[t](ticket:URLLS-42?from=a/b#c)",
			none: []string{`4-10 unknown-scheme: unregistered scheme "ticket"; checked as genericurl`}},
		{doc: "[t](ticket:urlls-42)",
			want: []string{`11-12 syntax: unexpected "u" in ticket-URI: expected project`},
			none: []string{`4-10 unknown-scheme: unregistered scheme "ticket"; checked as genericurl`}},
		{doc: "[t](ticket:URLLS-042)",
			want: []string{`17-18 syntax: unexpected "0" in ticket-URI: expected number`}},
		{doc: "[t](ticket:URLLS-4#a#b)",
			want: []string{`20-21 syntax: unexpected "#" in fragment: expected`}},
		// A scheme RFC 1738 §4 reserves without a syntax, given one.
		{doc: "<afs://cell.example.org/usr>",
			none: []string{`1-4 reserved-scheme: scheme "afs" is reserved by RFC 1738 §4 without a syntax; checked as genericurl`}},
	}
	for _, tc := range tests {
		t.Run(tc.doc, func(t *testing.T) {
			show := func(ds []Diagnostic) []string {
				var out []string
				for _, d := range ds {
					out = append(out, fmt.Sprintf("%d-%d %s: %s", d.Start, d.End, d.Code, d.Message))
				}
				return out
			}
			got := show(opts.CheckDocument([]byte(tc.doc), "markdown"))
			if !prefixes(got, tc.want) {
				t.Errorf("with the user grammars:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if tc.none != nil {
				got := show(CheckDocument([]byte(tc.doc), "markdown"))
				if !prefixes(got, tc.none) {
					t.Errorf("without them:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.none, "\n"))
				}
			}
		})
	}
}

// prefixes reports whether each of got starts with the want of its index.
func prefixes(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if !strings.HasPrefix(got[i], want[i]) {
			return false
		}
	}
	return true
}

// TestUserGrammarFixes: a fix is verified against the user's grammar, as
// against any scheme's: percent-encoding is offered where the grammar
// admits an escape, and not where it does not.
func TestUserGrammarFixes(t *testing.T) {
	opts := Options{Schemes: userSchemes(t)}
	tests := []struct {
		doc, code string
		fixed     bool
	}{
		{"[x](geo:1,2;a=b%zz)", "bad-escape", true}, // pvalue admits pct-encoded
		{"[x](geo:1,2;a=b|c)", "unsafe-char", true},
		{"[x](geo:1|,2)", "unsafe-char", false}, // a coordinate admits no escape
		{"[x](geo:1%2C2,3)", "syntax", false},
	}
	for _, tc := range tests {
		t.Run(tc.doc, func(t *testing.T) {
			ds := opts.CheckDocument([]byte(tc.doc), "markdown")
			if len(ds) != 1 || ds[0].Code != tc.code {
				t.Fatalf("findings %+v, want one %s", ds, tc.code)
			}
			if got := len(ds[0].SuggestedFixes) > 0; got != tc.fixed {
				t.Errorf("fix offered = %v, want %v: %+v", got, tc.fixed, ds[0])
			}
		})
	}
}
