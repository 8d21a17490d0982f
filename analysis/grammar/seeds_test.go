package grammar

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The embedded grammar files are transcriptions of the seeds in
// testdata/seeds (see SOURCE.md there). These tests hold them to the seeds:
// every rule a seed defines is in its transcription with the same
// alternatives, the renderings of RFC 1738 §5 agree with each other, and
// every difference is listed below with its reason. A listed difference that
// no longer differs fails the tests, so the lists cannot go stale.

// seedException is a seed rule that does not read, or reads differently from
// the transcription, because the seed is garbled. Reading is the rule's
// right-hand side as it evidently reads, in the seed's own notation; the
// transcription must equal the reading, and the seed's text must still
// differ from it.
type seedException struct {
	seed, rule string
	reading    string
	reason     string
}

var seedExceptions = []seedException{
	{"000", "gopherurl",
		`"gopher://" hostport [ "/" [ gtype [ selector [ "%09" search [ "%09" gopher+_string ] ] ] ] ]`,
		`the "/" after hostport is unquoted, as in the RFC's own text; read as the literal "/", as seed 001 writes it`},
	{"002", "httpaddress",
		`"http:" "//" $hostport O( "/" $path ) O( "?" $search ).`,
		`no closing "." and a stray "$" before the next rule's name ("$ftpaddress ::="); RFC 1630 has two rules here`},
	{"002", "gopheraddress",
		`"gopher://" $hostport O( "/" $gtype O( $gcommand ) ).`,
		`unquoted "/" in O(/ ...; read as the literal "/" (RFC 1630: "[/ gtype [ gcommand ] ]")`},
	{"002", "login",
		`O( $user O( ":" $password ) "@" ) $hostport.`,
		`quote marks where the parentheses close, ")"@")"; read as RFC 1630's "[ user [ : password ] @ ] hostport"`},
	{"002", "host",
		`$hostname | $hostnumber.`,
		`closed by ".." instead of "."`},
	{"002", "xpalpha",
		`$xalpha | $void.`,
		`"v$oid" is "$void" with the "$" one letter late (RFC 1630 has "+" here, which adds nothing non-empty: "+" is an xalpha through safe)`},
	{"002", "safe",
		`"$" | "-" | "_" | "@" | "." | "&" | "+" | "-".`,
		`two empty alternatives and an unquoted "."; read as RFC 1630's "$ | - | _ | @ | . | & | + | -"`},
	{"002", "reserved",
		`"=" | ";" | "/" | "#" | "?" | ":" | space.`,
		`unquoted "?"; read as the character (RFC 1630: "= | ; | / | # | ? | : | space")`},
	{"002", "alphanum",
		`$alpha | $digit.`,
		`no closing "."; "void ::=" follows at once`},
	{"002", "void",
		`"".`,
		`no closing "."; "(end of URL BNF)" follows, the end of the document`},
}

// transcriptionAddition is a rule a transcription defines that no seed has.
type transcriptionAddition struct {
	grammar, rule string
	source        string // the rule's ;@source must start with this
	reason        string
}

var transcriptionAdditions = []transcriptionAddition{
	{"rfc1738", "httpsurl", "RFC 2818 §2.4",
		"https URLs have the http syntax (RFC 2818 §2.4); the parser starts https URLs here"},
	{"xbnf", "alpha", "RFC 1738 §5",
		"the XBNF uses alpha but never defines it; RFC 1738's lowalpha / hialpha"},
	{"xbnf", "digit", "RFC 1738 §5",
		"the XBNF uses digit but never defines it; RFC 1738's digit"},
	{"xbnf", "addr_spec", "RFC 822 §6.1",
		"midaddress refers to RFC 822's addr-spec; a minimal stand-in, 1*xalpha \"@\" host, like the XBNF's article"},
	{"xbnf", "content_identifier", "RFC 2111 §2",
		"cidaddress refers to a MIME Content-ID; RFC 2111 writes it as a URL-encoded addr-spec"},
	{"xbnf", "fragmentaddress", "RFC 1630",
		"the XBNF defines fragmentid and nothing that uses it; RFC 1630's fragmentaddress = uri [ # fragmentid ] is the start rule of a URL with a fragment under --grammar xbnf"},
	{"xbnf", "httpsaddress", "RFC 2818 §2.4",
		"https URLs have the http syntax (RFC 2818 §2.4); --grammar xbnf starts https URLs here"},
}

// seed004LastRule is where seed 004 is cut off: it has RFC 1738 §5 only up to
// the HTTP rules, ending after "; GOPHER (see also RFC1436)", so it defines
// exactly the rules of seed 000 up to this one.
const seed004LastRule = "search"

func findSeedException(seed, rule string) *seedException {
	for i := range seedExceptions {
		if x := &seedExceptions[i]; x.seed == seed && strings.EqualFold(x.rule, rule) {
			return x
		}
	}
	return nil
}

func mustLoadSeeds(t *testing.T) []*seedDoc {
	t.Helper()
	docs, err := loadSeeds()
	if err != nil {
		t.Fatalf("reading the seeds: %v", err)
	}
	return docs
}

func seedByID(t *testing.T, docs []*seedDoc, id string) *seedDoc {
	t.Helper()
	for _, d := range docs {
		if d.ID == id {
			return d
		}
	}
	t.Fatalf("no seed %s", id)
	return nil
}

// seedReading returns the expression a seed rule stands for: its reading
// when it is a listed exception, else what the seed says.
func seedReading(d *seedDoc, r *seedRule) (*Expr, error) {
	if x := findSeedException(d.ID, r.Name); x != nil {
		e, err := d.parse(x.reading)
		if err != nil {
			return nil, fmt.Errorf("listed reading %q does not parse: %v", x.reading, err)
		}
		return e, nil
	}
	if r.Err != nil {
		return nil, fmt.Errorf("does not read (%v); if it is garbled, list it in seedExceptions with its reading", r.Err)
	}
	return r.Expr, nil
}

// transcriptionProblems compares seed rule r of d with its transcription in
// g, and reports what is wrong, nothing when they agree.
func transcriptionProblems(g *Grammar, d *seedDoc, r *seedRule) []string {
	rule := g.Rule(r.Name)
	if rule == nil {
		return []string{fmt.Sprintf("seed %s defines %s (line %d); %s does not", d.ID, r.Name, r.Line, g.Name)}
	}
	var problems []string
	if rule.Name != r.Name {
		problems = append(problems, fmt.Sprintf("the rule is spelled %s in seed %s and %s in %s", r.Name, d.ID, rule.Name, g.Name))
	}
	want := normal(rule.Expr)
	if x := findSeedException(d.ID, r.Name); x != nil && r.Err == nil && normal(r.Expr) == want {
		problems = append(problems, fmt.Sprintf("seed %s's %s is listed as an exception (%s), but the transcription now equals the seed; remove it from seedExceptions", d.ID, r.Name, x.reason))
	}
	e, err := seedReading(d, r)
	if err != nil {
		return append(problems, fmt.Sprintf("seed %s's %s %v", d.ID, r.Name, err))
	}
	if got := normal(e); got != want {
		label := "seed:"
		if findSeedException(d.ID, r.Name) != nil {
			label = "listed reading:"
		}
		problems = append(problems, fmt.Sprintf("seed %s's %s differs from %s:%d\n\t%-15s %s\n\t%-15s %s\n\t%-15s %s",
			d.ID, r.Name, g.Name, rule.Line, label, got, "transcription:", want, "seed text:", r.Text))
	}
	return problems
}

// seedGrammars are the embedded grammars transcribed from the seeds; the
// others (rfc3986) are transcribed from the RFC text their header cites.
var seedGrammars = []string{"rfc1738", "rfc1808", "xbnf"}

// TestSeedRulesTranscribed checks that every rule each seed defines is in
// its transcription, with the same alternatives after normalisation.
func TestSeedRulesTranscribed(t *testing.T) {
	if err := BuiltinError(); err != nil {
		t.Fatal(err)
	}
	docs := mustLoadSeeds(t)
	for _, name := range seedGrammars {
		t.Run(name, func(t *testing.T) {
			g := Builtin(name)
			var mine []*seedDoc
			for _, d := range docs {
				if d.Grammar == name {
					mine = append(mine, d)
				}
			}
			if len(mine) == 0 {
				t.Fatalf("no seed is transcribed as %s", name)
			}
			// One subtest per rule, checked against every seed that has it.
			var order []string
			seen := map[string]bool{}
			for _, d := range mine {
				for _, r := range d.Rules {
					if k := strings.ToLower(r.Name); !seen[k] {
						seen[k] = true
						order = append(order, r.Name)
					}
				}
			}
			for _, rn := range order {
				t.Run(rn, func(t *testing.T) {
					for _, d := range mine {
						r := d.Rule(rn)
						if r == nil {
							continue
						}
						for _, p := range transcriptionProblems(g, d, r) {
							t.Error(p)
						}
						if rule := g.Rule(rn); rule != nil && !strings.HasPrefix(rule.Source, d.Source) {
							t.Errorf("%s cites %q; a rule of seed %s should cite %s", rn, rule.Source, d.ID, d.Source)
						}
					}
				})
			}
			// The other way round: every rule of the transcription comes
			// from a seed or is a listed addition.
			for _, rule := range g.Rules {
				inSeed := seen[strings.ToLower(rule.Name)]
				add := findAddition(name, rule.Name)
				switch {
				case inSeed && add != nil:
					t.Errorf("%s is listed in transcriptionAdditions, but seed text defines it; remove it from the list", rule.Name)
				case !inSeed && add == nil:
					t.Errorf("%s:%d %s is in no seed; list it in transcriptionAdditions with its reason", name, rule.Line, rule.Name)
				case add != nil && !strings.HasPrefix(rule.Source, add.source):
					t.Errorf("%s cites %q, want %s (%s)", rule.Name, rule.Source, add.source, add.reason)
				}
			}
		})
	}
}

func findAddition(grammar, rule string) *transcriptionAddition {
	for i := range transcriptionAdditions {
		if a := &transcriptionAdditions[i]; a.grammar == grammar && strings.EqualFold(a.rule, rule) {
			return a
		}
	}
	return nil
}

// TestSeedListsApply checks that the exception lists name real rules, so
// that a typo cannot silently disable a check.
func TestSeedListsApply(t *testing.T) {
	docs := mustLoadSeeds(t)
	for _, x := range seedExceptions {
		d := seedByID(t, docs, x.seed)
		if d.Rule(x.rule) == nil {
			t.Errorf("seedExceptions lists %s of seed %s, which the seed does not define", x.rule, x.seed)
		}
		if x.reason == "" {
			t.Errorf("seedExceptions: %s of seed %s has no reason", x.rule, x.seed)
		}
	}
	for _, a := range transcriptionAdditions {
		g := Builtin(a.grammar)
		if g == nil || g.Rule(a.rule) == nil {
			t.Errorf("transcriptionAdditions lists %s of %s, which is not defined", a.rule, a.grammar)
		}
		if a.reason == "" {
			t.Errorf("transcriptionAdditions: %s of %s has no reason", a.rule, a.grammar)
		}
	}
	for _, d := range docs {
		names := d.Names()
		if len(names) == 0 || names[0] != d.First || names[len(names)-1] != d.Last {
			t.Errorf("seed %s (%s): read %d rules %v, want them to run from %s to %s", d.ID, d.File, len(names), names, d.First, d.Last)
		}
	}
}

// TestSeedRenderingsAgree checks that the three renderings of RFC 1738 §5
// (000 the web page, 001 the ABNF, 004 the plain text up to where it is cut
// off) define the same rules with the same alternatives, but for the
// exceptions listed in seedExceptions.
func TestSeedRenderingsAgree(t *testing.T) {
	docs := mustLoadSeeds(t)
	bnf, abnf, text := seedByID(t, docs, "000"), seedByID(t, docs, "001"), seedByID(t, docs, "004")

	if a, b := bnf.Names(), abnf.Names(); !slices.Equal(a, b) {
		t.Errorf("seeds 000 and 001 define different rules:\n\t000: %v\n\t001: %v", a, b)
	}
	// Seed 004 is cut off after "; GOPHER": it defines the rules of 000 up to
	// seed004LastRule, in the same order, and no more.
	all := bnf.Names()
	cut := slices.Index(all, seed004LastRule)
	if cut < 0 {
		t.Fatalf("seed 000 has no %s", seed004LastRule)
	}
	if got, want := text.Names(), all[:cut+1]; !slices.Equal(got, want) {
		t.Errorf("seed 004 should define the rules of seed 000 up to %s:\n\tgot:  %v\n\twant: %v", seed004LastRule, got, want)
	}

	compare := func(a, b *seedDoc, name string) {
		ra, rb := a.Rule(name), b.Rule(name)
		if ra == nil || rb == nil {
			return // reported above
		}
		ea, erra := seedReading(a, ra)
		eb, errb := seedReading(b, rb)
		if erra != nil || errb != nil {
			t.Errorf("%s: seed %s: %v; seed %s: %v", name, a.ID, erra, b.ID, errb)
			return
		}
		if na, nb := normal(ea), normal(eb); na != nb {
			t.Errorf("%s differs:\n\tseed %s: %s\n\tseed %s: %s", name, a.ID, na, b.ID, nb)
		}
		// Where the texts differ as written, an exception must say why.
		rawSame := ra.Err == nil && rb.Err == nil && normal(ra.Expr) == normal(rb.Expr)
		listed := findSeedException(a.ID, name) != nil || findSeedException(b.ID, name) != nil
		if !rawSame && !listed {
			t.Errorf("%s: seeds %s and %s differ as written, and no exception lists it", name, a.ID, b.ID)
		}
	}
	for _, name := range abnf.Names() {
		t.Run("000-001/"+name, func(t *testing.T) { compare(bnf, abnf, name) })
	}
	for _, name := range text.Names() {
		t.Run("000-004/"+name, func(t *testing.T) { compare(bnf, text, name) })
	}
}

// TestSeedNormalisation checks the normaliser both ways: notations of the
// same rule compare equal, and different rules do not.
func TestSeedNormalisation(t *testing.T) {
	abnf := func(s string) func() (*Expr, error) { return func() (*Expr, error) { return parseABNFExpr(s) } }
	bnf := func(s string) func() (*Expr, error) { return func() (*Expr, error) { return parseBNF822(s) } }
	xbnf := func(s string) func() (*Expr, error) { return func() (*Expr, error) { return parseXBNF(s) } }
	tests := []struct {
		name  string
		a, b  func() (*Expr, error)
		equal bool
	}{
		{"range equals letters", abnf(`%x61-65`), bnf(`"a" | "b" | "c" | "d" | "e"`), true},
		{"xbnf range", xbnf(`"a".."f".`), abnf(`%x61-66`), true},
		{"star bracket is star paren", bnf(`*[ uchar | ";" ]`), abnf(`*( uchar / ";" )`), true},
		{"one star bracket", bnf(`1*[ alpha ]`), abnf(`1*alpha`), true},
		{"nested alternation", abnf(`a / ( b / c )`), abnf(`a / b / c`), true},
		{"nested concatenation", abnf(`a ( b c )`), abnf(`a b c`), true},
		{"split literal", xbnf(`"http:" "//" $x.`), abnf(`"http://" x`), true},
		{"literal case", abnf(`"HTTP://"`), abnf(`"http://"`), true},
		{"xbnf words", xbnf(`quotes | space | vline | "\\".`), abnf(`%x22 / %x20 / "|" / %x5C`), true},
		{"optional", xbnf(`O( $a ) N( $b ) #( $c ).`), abnf(`[ a ] 1*b *c`), true},
		{"rule name case", abnf(`absoluteURL`), abnf(`absoluteurl`), true},

		{"upper and lower", abnf(`%x61-7A`), abnf(`%x41-5A`), false},
		{"one letter is exact", abnf(`"a"`), abnf(`"A"`), false},
		{"sets differ", bnf(`"a" | "b"`), abnf(`%x61-63`), false},
		{"optional is not repetition", abnf(`[ x ]`), abnf(`*x`), false},
		{"one or more is not zero or more", abnf(`1*x`), abnf(`*x`), false},
		{"order of alternatives", abnf(`a / b`), abnf(`b / a`), false},
		{"order of items", abnf(`a b`), abnf(`b a`), false},
		{"longer literal", abnf(`"ftp://"`), abnf(`"ftp:/"`), false},
		{"case-sensitive literal", abnf(`%s"ftp"`), abnf(`"ftp"`), false},
		{"dropped alternative", abnf(`*( uchar / ";" / ":" )`), abnf(`*( uchar / ":" )`), false},
		{"optional group", abnf(`[ a b ]`), abnf(`[ a ] b`), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := tt.a()
			if err != nil {
				t.Fatal(err)
			}
			b, err := tt.b()
			if err != nil {
				t.Fatal(err)
			}
			if na, nb := normal(a), normal(b); (na == nb) != tt.equal {
				t.Errorf("equal = %v, want %v:\n\t%s\n\t%s", na == nb, tt.equal, na, nb)
			}
		})
	}
}

// TestSeedComparisonCatchesChanges breaks a transcription on purpose and
// checks that the comparison of TestSeedRulesTranscribed reports it, and that
// a listed exception whose seed is no longer garbled is reported as stale.
func TestSeedComparisonCatchesChanges(t *testing.T) {
	docs := mustLoadSeeds(t)
	bnf := seedByID(t, docs, "000")
	src, _ := BuiltinSource("rfc1738")

	problems := func(g *Grammar, d *seedDoc) []string {
		var out []string
		for _, r := range d.Rules {
			out = append(out, transcriptionProblems(g, d, r)...)
		}
		return out
	}
	if p := problems(Builtin("rfc1738"), bnf); len(p) != 0 {
		t.Fatalf("the real transcription should agree with seed 000: %v", p)
	}

	edits := []struct {
		name, old, new, want string
	}{
		{"dropped alternative", `hsegment       = *( uchar / ";" / ":"`, `hsegment       = *( uchar / ":"`, "hsegment differs"},
		{"reordered alternatives", `host           = hostname / hostnumber`, `host           = hostnumber / hostname`, "host differs"},
		{"optional made required", `telneturl      = "telnet://" login [ "/" ]`, `telneturl      = "telnet://" login "/"`, "telneturl differs"},
		{"range narrowed", `lowalpha       = %x61-7A`, `lowalpha       = %x61-79`, "lowalpha differs"},
		{"rule renamed", "\nwpath          = *uchar", "\nwpaths         = *uchar\nwpath = wpaths", "wpath differs"},
	}
	for _, e := range edits {
		t.Run(e.name, func(t *testing.T) {
			broken := strings.Replace(string(src), e.old, e.new, 1)
			if broken == string(src) {
				t.Fatalf("edit %q does not apply", e.old)
			}
			g, err := Load("rfc1738", "broken.abnf", []byte(broken))
			if err != nil {
				t.Fatal(err)
			}
			p := problems(g, bnf)
			if len(p) != 1 || !strings.Contains(p[0], e.want) {
				t.Errorf("want one problem containing %q, got %d: %v", e.want, len(p), p)
			}
		})
	}

	t.Run("stale exception", func(t *testing.T) {
		// Seed 000 with gopherurl as seed 001 writes it: the exception for
		// 000's gopherurl no longer applies, and must be reported.
		fixed := *bnf
		fixed.Rules = nil
		for _, r := range bnf.Rules {
			if r.Name == "gopherurl" {
				r = seedByID(t, docs, "001").Rule("gopherurl")
			}
			fixed.Rules = append(fixed.Rules, r)
		}
		p := problems(Builtin("rfc1738"), &fixed)
		if len(p) != 1 || !strings.Contains(p[0], "remove it from seedExceptions") {
			t.Errorf("want the stale exception reported, got %v", p)
		}
	})

	t.Run("unlisted garble", func(t *testing.T) {
		d := *bnf
		d.ID = "999" // no exceptions apply
		p := problems(Builtin("rfc1738"), &d)
		if len(p) != 1 || !strings.Contains(p[0], "gopherurl does not read") {
			t.Errorf("want gopherurl reported as unreadable, got %v", p)
		}
	})
}

// TestBuiltinGrammarsLoad checks the embedded grammars: each loads, has a
// title, and each rule has a source and a definition that starts with its
// name, which hovers quote.
func TestBuiltinGrammarsLoad(t *testing.T) {
	if err := BuiltinError(); err != nil {
		t.Fatal(err)
	}
	names := BuiltinNames()
	if want := []string{"rfc1738", "rfc1808", "rfc3986", "xbnf"}; !slices.Equal(names, want) {
		t.Errorf("BuiltinNames() = %v, want %v", names, want)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			g := Builtin(name)
			if g == nil {
				t.Fatal("not loaded")
			}
			if g.Title == "" {
				t.Error("no ;@title")
			}
			if len(g.Rules) == 0 {
				t.Fatal("no rules")
			}
			for _, r := range g.Rules {
				if r.Source == "" {
					t.Errorf("%s: no source", r.Name)
				}
				if !strings.HasPrefix(r.Definition, r.Name) {
					t.Errorf("%s: definition does not start with the name: %q", r.Name, r.Definition)
				}
				if r.Expr == nil {
					t.Errorf("%s: no expression", r.Name)
				}
				if r.Grammar() != g {
					t.Errorf("%s: Grammar() is not its grammar", r.Name)
				}
			}
		})
	}
}

// TestXBNFMatches shows the XBNF transcription at work on the kind of URLs
// the W3C wrote it for.
func TestXBNFMatches(t *testing.T) {
	g := Builtin("xbnf")
	if g == nil {
		t.Fatal(BuiltinError())
	}
	tests := []struct {
		rule, input string
		match       bool
	}{
		{"httpaddress", "http://www.w3.org/hypertext/WWW/Addressing/URL/5_BNF.html", true},
		{"httpaddress", "http://info.cern.ch:80/hypertext/WWW/TheProject.html?www+cern", true},
		{"mailtoaddress", "mailto:timbl@w3.org", true},
		{"prefixedurl", "url:http://info.cern.ch/", true},
		{"url", "ftp://ftp.w3.org/pub/www/doc/url-spec.txt", true},
		{"url", "ftp://anonymous:guest@ftp.w3.org/pub/AI", true},
		{"url", "news:comp.infosystems.www", true},
		{"url", "news:1234@cernvax.cern.ch", true},
		{"url", "nntp:comp.infosystems.www/42", true},
		{"url", "telnet://info.cern.ch", true},
		{"url", "gopher://gopher.micro.umn.edu/1/", true},
		{"url", "wais://quake.think.com/directory-of-servers?cooking", true},
		{"url", "prospero://prospero.isi.edu/pub/papers%001", true},
		{"url", "mid:960101.1234@example.org", true},
		{"url", "cid:part1.960101@example.org", true},
		{"afsaddress", "afs://cern.ch/usr/timbl", true},
		{"hostport", "128.141.201.214:80", true},
		{"ftptype", "AN", true},
		{"escape", "%7e", true},
		{"escape", "%7g", false},
		{"httpaddress", "http://www.w3.org/a b", false},
		{"httpaddress", "http://www.w3.org/a%zz", false},
		{"mailtoaddress", "mailto:timbl", false},
		{"url", "file:///etc/motd", false}, // the XBNF has no file scheme
		{"afsaddress", "afs://", false},
	}
	for _, tt := range tests {
		t.Run(tt.rule+"/"+tt.input, func(t *testing.T) {
			tree, err := g.Match(tt.rule, tt.input)
			var serr *SyntaxError
			if errors.As(err, &serr) && serr.GaveUp {
				t.Errorf("the matcher gave up on %q (%v)", tt.input, err)
				return
			}
			if got := err == nil; got != tt.match {
				t.Errorf("Match(%s, %q) = %v, want match %v; tree:\n%v", tt.rule, tt.input, err, tt.match, tree)
			}
		})
	}
}
