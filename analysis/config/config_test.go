package config

import (
	"fmt"
	"math/rand"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/urlls/urlls/analysis/checks"
	"github.com/urlls/urlls/analysis/parser"
	"github.com/urlls/urlls/analysis/scan"
)

func TestParse(t *testing.T) {
	c, err := Parse(".urlls.json", []byte(`{
  "strict": true,
  "severity": {"redundant-escape": "off", "non-ascii": "error", "scheme-case": "info"},
  "ignore": ["http://localhost*"],
  "languages": {".mdx": "markdown"},
  "include": ["*.go", "docs/**/*.yaml", "!gen.go"]
}`))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Strict || !c.Severity["redundant-escape"].Off || c.Severity["non-ascii"].Severity != checks.Error ||
		c.Severity["scheme-case"].Severity != checks.Information || c.Language(".MDX") != "markdown" || c.Ignore[0] != "http://localhost*" ||
		strings.Join(c.Include, " ") != "*.go docs/**/*.yaml !gen.go" {
		t.Errorf("parsed %+v", c)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"syntax", "{\n  \"strict\": tru\n}", ".urlls.json:2:16: invalid JSON"},
		{"not an object", "[1]", ".urlls.json:1:1: the configuration must be a JSON object"},
		{"unknown key", "{\n\"strikt\": true}", `.urlls.json:2:1: unknown setting "strikt"`},
		{"unknown code", "{\"severity\": {\n  \"bad-escap\": \"off\"}}", `.urlls.json:2:3: unknown code "bad-escap"`},
		{"bad level", "{\"severity\": {\"bad-escape\": \"fatal\"}}", `.urlls.json:1:15: severity of "bad-escape" must be`},
		{"wrong type", "{\"strict\": \"yes\"}", `.urlls.json:1:2: "strict" must be true or false`},
		{"extension without dot", "{\"languages\": {\"md\": \"markdown\"}}", `.urlls.json:1:16: file extension "md" must start with "."`},
		{"include not a list", "{\n  \"include\": \"*.go\"}", `.urlls.json:2:3: "include" must be a list of file patterns`},
		{"include of numbers", "{\"include\": [1]}", `.urlls.json:1:2: "include" must be a list of file patterns`},
		{"include of an object", "{\"include\": {\"*.go\": true}}", `.urlls.json:1:2: "include" must be a list of file patterns`},
		{"empty include pattern", "{\"include\": [\"*.go\", \" \"]}", `.urlls.json:1:22: "include" has an empty pattern`},
		{"include comment", "{\"include\": [\n \"#x.go\"]}", `.urlls.json:2:2: include pattern "#x.go" starts with "#"`},
		// The key an error is about, not the same text elsewhere.
		{"key text in a value before it", "{\n  \"ignore\": [\"strict\"],\n  \"strict\": 1\n}", `.urlls.json:3:3: "strict" must be true or false`},
		{"code as a key elsewhere", "{\"languages\": {\".x\": \"md\"},\n \"severity\": {\n  \"x\": \"off\"}}", `.urlls.json:3:3: unknown code "x"`},
		{"key written with an escape", "{\n \"str\\u0069ct\": 1}", `.urlls.json:2:2: "strict" must be true or false`},
		{"the last of duplicate keys", "{\"strict\": true,\n \"strict\": 1}", `.urlls.json:2:2: "strict" must be true or false`},
		{"the element of a list", "{\"include\": [\n  \"*.go\",\n  \"\"\n]}", `.urlls.json:3:3: "include" has an empty pattern`},
		// Line breaks as editors count them.
		{"CR line breaks", "{\r  \"strict\": 1\r}\r", `.urlls.json:2:3: "strict" must be true or false`},
		{"CRLF line breaks", "{\r\n  \"strict\": 1\r\n}\r\n", `.urlls.json:2:3: "strict" must be true or false`},
		{"syntax error after CR", "{\r  \"strict\": tru\r}", ".urlls.json:2:16: invalid JSON"},
		// A byte order mark is not an error, and not a column.
		{"byte order mark", "\xEF\xBB\xBF{\"strikt\": 1}", `.urlls.json:1:2: unknown setting "strikt"`},
		{"unknown key names include", "{\"includes\": []}", `.urlls.json:1:2: unknown setting "includes" (known: "strict", "grammar", "severity", "ignore", "languages", "include", "maxFindings", "schemes")`},
		{"unknown grammar", "{\n  \"grammar\": \"rfc2396\"}", `.urlls.json:2:3: unknown grammar "rfc2396" (known: "rfc1738", "rfc3986", "xbnf")`},
		{"empty grammar", "{\"grammar\": \"\"}", `.urlls.json:1:2: unknown grammar ""`},
		{"grammar not a string", "{\"grammar\": 3986}", `.urlls.json:1:2: "grammar" must be one of "rfc1738", "rfc3986", "xbnf"`},
		{"negative maxFindings", "{\"maxFindings\": -1}", `.urlls.json:1:2: "maxFindings" must be a whole number, 0 for no limit`},
		{"fractional maxFindings", "{\"maxFindings\": 2.5}", `.urlls.json:1:2: "maxFindings" must be a whole number`},
		{"maxFindings as a string", "{\"maxFindings\": \"10\"}", `.urlls.json:1:2: "maxFindings" must be a whole number`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(".urlls.json", []byte(tc.src))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %v, want prefix %q", err, tc.want)
			}
		})
	}
}

func TestLevelAndStrict(t *testing.T) {
	var c Config
	if got := c.Level("rfc1738-unsafe"); got.Severity != checks.Information {
		t.Errorf("default rfc1738-unsafe = %v", got)
	}
	c.Strict = true
	if got := c.Level("rfc1738-unsafe"); got.Severity != checks.Error {
		t.Errorf("strict rfc1738-unsafe = %v", got)
	}
	if got := c.Level("redundant-escape"); got.Severity != checks.Hint {
		t.Errorf("strict redundant-escape = %v (not an RFC 1738 violation)", got)
	}
	c.Severity = map[string]Level{"rfc1738-unsafe": Off}
	if got := c.Level("rfc1738-unsafe"); !got.Off {
		t.Errorf("configured off = %v", got)
	}
}

// TestGrammar: the key "grammar" picks the checks' profile, a client's
// setting overrides a file's, and under a grammar the user chose non-ascii
// is an error (the grammar rejects it) unless "severity" says otherwise.
func TestGrammar(t *testing.T) {
	file, err := Parse(".urlls.json", []byte(`{"grammar": "xbnf"}`))
	if err != nil || file.CheckOptions().Grammar != parser.XBNF {
		t.Fatalf("grammar xbnf: %+v, %v", file, err)
	}
	if (Config{}).CheckOptions().Grammar != parser.RFC1738 {
		t.Error("the default grammar is not rfc1738")
	}
	client, err := ParseValue("client", map[string]any{"grammar": "rfc3986"})
	if err != nil {
		t.Fatal(err)
	}
	merged := file.Merge(client)
	if merged.CheckOptions().Grammar != parser.RFC3986 || file.Merge(Config{}).Grammar != "xbnf" {
		t.Errorf("merge: %q, %q", merged.Grammar, file.Merge(Config{}).Grammar)
	}
	if got := merged.Level("non-ascii"); got.Severity != checks.Error {
		t.Errorf("non-ascii under rfc3986 = %v, want error", got)
	}
	if got := (Config{Grammar: "rfc1738"}).Level("non-ascii"); got.Severity != checks.Information {
		t.Errorf("non-ascii under rfc1738 = %v, want information", got)
	}
	merged.Severity = map[string]Level{"non-ascii": {Severity: checks.Information}}
	if got := merged.Level("non-ascii"); got.Severity != checks.Information {
		t.Errorf("non-ascii set to information under rfc3986 = %v", got)
	}
}

func TestParseValueFromClients(t *testing.T) {
	// Neovim sends an empty Lua table as [].
	for _, v := range []any{[]any{}, map[string]any{"severity": []any{}, "languages": []any{}}, nil} {
		if _, err := ParseValue("client", v); err != nil {
			t.Errorf("ParseValue(%v): %v", v, err)
		}
	}
	// Errors in client settings name the setting, not a position in JSON
	// the client never wrote.
	if _, err := ParseValue("workspace/configuration", map[string]any{"activateOn": []any{"rst"}}); err == nil ||
		!strings.HasPrefix(err.Error(), `workspace/configuration: unknown setting "activateOn"`) {
		t.Errorf("unknown client setting: %v", err)
	}
	// "include" means nothing to an editor, which checks every document it
	// opens, but a client that sends the file's settings along must not be
	// refused.
	if c, err := ParseValue("client", map[string]any{"include": []any{"*.go"}}); err != nil || len(c.Include) != 1 {
		t.Errorf("include from a client: %+v, %v", c, err)
	}
	// A client's strict=false overrides a file's strict=true.
	file, _ := Parse("f", []byte(`{"strict": true}`))
	client, err := ParseValue("client", map[string]any{"strict": false})
	if err != nil {
		t.Fatal(err)
	}
	if file.Merge(client).Strict {
		t.Error("strict false from the client did not override the file")
	}
	if !file.Merge(Config{}).Strict {
		t.Error("a client that says nothing about strict turned it off")
	}
}

func TestMerge(t *testing.T) {
	file := Config{Severity: map[string]Level{"bad-escape": Off, "syntax": {Severity: checks.Warning}}, Ignore: []string{"a"}, Include: []string{"*.go"}}
	client := Config{Severity: map[string]Level{"syntax": {Severity: checks.Error}}, Strict: true}
	m := file.Merge(client)
	if !m.Severity["bad-escape"].Off || m.Severity["syntax"].Severity != checks.Error || !m.Strict || m.Ignore[0] != "a" || m.Include[0] != "*.go" {
		t.Errorf("merged %+v", m)
	}
	if file.Severity["syntax"].Severity != checks.Warning {
		t.Error("Merge changed its receiver")
	}
}

func TestApply(t *testing.T) {
	doc := []byte("see http://a/%zz and http://localhost/%zz\n" +
		"<!-- urlls-disable-next-line -->\n" +
		"http://b/%zz\n" +
		"http://c/%zz <!-- urlls-disable-line bad-escape -->\n")
	diags := checks.CheckDocument(doc, "markdown")
	c := Config{Ignore: []string{"http://localhost*"}}
	var got []string
	for _, f := range c.Apply(scan.Scan(doc, "markdown").Suppressions, diags) {
		got = append(got, f.URL+" "+f.Code+" "+f.Severity.String())
	}
	want := []string{"http://a/%zz bad-escape error"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestGlobMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, s string
		want       bool
	}{
		{"http://localhost*", "http://localhost:8080/x", true},
		{"http://localhost*", "https://localhost", false},
		{"*example.com*", "https://www.example.com/a", true},
		{"https://*.example.com/*", "https://a.example.com/b", true},
		{"https://*.example.com/*", "https://example.com/b", false},
		{"exact", "exact", true},
		{"exact", "exactly", false},
		{"*", "", true},
		{strings.Repeat("*a", 50), strings.Repeat("a", 49) + "b", false}, // no exponential blow-up
	} {
		if got := globMatch(tc.pattern, tc.s); got != tc.want {
			t.Errorf("globMatch(%q, %q) = %v", tc.pattern, tc.s, got)
		}
	}
}

func TestMaxFindingsSetting(t *testing.T) {
	if got := (Config{}).FindingsLimit(); got != DefaultMaxFindings {
		t.Errorf("default limit %d", got)
	}
	file, err := Parse("f", []byte(`{"maxFindings": 0}`))
	if err != nil || file.FindingsLimit() != 0 {
		t.Fatalf("maxFindings 0: %d, %v", file.FindingsLimit(), err)
	}
	// A client's setting (a JSON number, float64 once decoded) overrides
	// the file's; a client that says nothing keeps it.
	client, err := ParseValue("client", map[string]any{"maxFindings": float64(20)})
	if err != nil {
		t.Fatal(err)
	}
	if got := file.Merge(client).FindingsLimit(); got != 20 {
		t.Errorf("merged limit %d, want 20", got)
	}
	if got := file.Merge(Config{}).FindingsLimit(); got != 0 {
		t.Errorf("a client without maxFindings changed the file's 0 to %d", got)
	}
}

// TestMaxFindingsHuge: a limit as large as an int holds shows every
// finding, as no limit does, and panics nowhere (FindingsLimit+1 wrapped
// around to a negative capacity).
func TestMaxFindingsHuge(t *testing.T) {
	c, err := Parse("f", []byte(`{"maxFindings": 9223372036854775807}`))
	if err != nil {
		t.Fatal(err)
	}
	doc := []byte("http://x.org/a%zz http://x.org/b|c http://x.org/%41\n")
	scanned := scan.Scan(doc, "plaintext")
	diags := c.CheckOptions().CheckCandidates(doc, scanned.Candidates)
	if len(diags) < 3 {
		t.Fatalf("%d diagnostics, want 3 at least", len(diags))
	}
	want := c.Apply(nil, diags)
	first, counts := c.ApplyFirst(nil, diags, checks.Hint)
	if diff := cmp.Diff(want, c.LimitCounted(first, counts, checks.Hint)); diff != "" {
		t.Errorf("ApplyFirst (-Apply +ApplyFirst)\n%s", diff)
	}
	first, counts = c.CheckFirst(doc, scanned.Candidates, nil, checks.Hint)
	if diff := cmp.Diff(want, c.LimitCounted(first, counts, checks.Hint)); diff != "" {
		t.Errorf("CheckFirst (-Apply +CheckFirst)\n%s", diff)
	}
}

func finding(start int, code string, sev checks.Severity) Finding {
	return Finding{Diagnostic: checks.Diagnostic{Start: start, End: start + 3, Code: code, URL: "http://x/"}, Severity: sev}
}

func TestLimit(t *testing.T) {
	three := func(n int) *int { return &n }(3)
	fs := []Finding{
		finding(0, "bad-escape", checks.Error), finding(10, "non-ascii", checks.Information),
		finding(20, "redundant-escape", checks.Hint), finding(30, "scheme-case", checks.Hint),
		finding(40, "bad-escape", checks.Error), finding(50, "unknown-scheme", checks.Information),
	}
	tests := []struct {
		name string
		c    Config
		want []string // code@start severity
		msg  string
	}{
		{"under the limit", Config{}, []string{"bad-escape@0 error", "non-ascii@10 information", "redundant-escape@20 hint",
			"scheme-case@30 hint", "bad-escape@40 error", "unknown-scheme@50 information"}, ""},
		{"no limit", Config{MaxFindings: new(int)}, []string{"bad-escape@0 error", "non-ascii@10 information", "redundant-escape@20 hint",
			"scheme-case@30 hint", "bad-escape@40 error", "unknown-scheme@50 information"}, ""},
		{"cut, an error among the rest", Config{MaxFindings: three},
			[]string{"bad-escape@0 error", "non-ascii@10 information", "redundant-escape@20 hint", "too-many-findings@30 error"},
			"3 more findings not shown, from here on (1 error, 1 information, 1 hint): at most 3 findings are shown per document (maxFindings)"},
		{"configured severity", Config{MaxFindings: three, Severity: map[string]Level{"too-many-findings": {Severity: checks.Warning}}},
			[]string{"bad-escape@0 error", "non-ascii@10 information", "redundant-escape@20 hint", "too-many-findings@30 warning"}, ""},
		{"turned off", Config{MaxFindings: three, Severity: map[string]Level{"too-many-findings": Off}},
			[]string{"bad-escape@0 error", "non-ascii@10 information", "redundant-escape@20 hint"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.c.Limit(fs)
			var s []string
			for _, f := range got {
				s = append(s, fmt.Sprintf("%s@%d %s", f.Code, f.Start, f.Severity))
			}
			if strings.Join(s, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(s, "\n"), strings.Join(tc.want, "\n"))
			}
			if last := got[len(got)-1]; tc.msg != "" && last.Message != tc.msg {
				t.Errorf("message %q\nwant %q", last.Message, tc.msg)
			}
		})
	}
	// Only hints left out: the summary is information, not a hint that
	// editors barely show.
	hints := append(slices.Clone(fs[:4]), finding(60, "redundant-escape", checks.Hint))
	if got := (Config{MaxFindings: three}).Limit(hints); got[3].Severity != checks.Information || !strings.HasPrefix(got[3].Message, "2 more findings") {
		t.Errorf("summary of two findings: %+v", got[3])
	}
	one := func(n int) *int { return &n }(1)
	if got := (Config{MaxFindings: one}).Limit(fs[:3]); got[1].Message != "2 more findings not shown, from here on (1 information, 1 hint): at most 1 finding is shown per document (maxFindings)" {
		t.Errorf("a limit of one: %q", got[1].Message)
	}
	if got := (Config{MaxFindings: new(int)}).Limit(fs[:1]); len(got) != 1 {
		t.Errorf("one finding, no limit: %v", got)
	}
}

// TestApplyFirstAgainstApply: what a front end shows of ApplyFirst's
// findings (LimitCounted) is what it shows of Apply's filtered by severity
// (Limit), and the counts are Apply's, on random diagnostics,
// suppressions, ignored URLs, severities, limits and mildest severities.
func TestApplyFirstAgainstApply(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	codes := []string{"bad-escape", "unsafe-char", "non-ascii", "redundant-escape", "scheme-case"}
	levels := []Level{{Severity: checks.Error}, {Severity: checks.Warning}, {Severity: checks.Information}, {Severity: checks.Hint}, Off}
	for round := range 2000 {
		c := Config{Severity: map[string]Level{}}
		for _, code := range codes {
			if rng.Intn(2) == 0 {
				c.Severity[code] = levels[rng.Intn(len(levels))]
			}
		}
		if rng.Intn(3) == 0 {
			c.Severity[checks.TooManyFindings] = levels[rng.Intn(len(levels))]
		}
		if rng.Intn(4) > 0 {
			n := rng.Intn(6)
			c.MaxFindings = &n
		}
		if rng.Intn(3) == 0 {
			c.Ignore = []string{"http://ignored/*"}
		}
		var sups []scan.Suppression
		for range rng.Intn(4) {
			s := scan.Suppression{Start: rng.Intn(50)}
			s.End = s.Start + rng.Intn(10)
			if rng.Intn(2) == 0 {
				s.Codes = []string{codes[rng.Intn(len(codes))]}
			}
			sups = append(sups, s)
		}
		var diags []checks.Diagnostic
		for i := range rng.Intn(20) {
			url := "http://x/"
			if rng.Intn(4) == 0 {
				url = "http://ignored/"
			}
			diags = append(diags, checks.Diagnostic{Start: i * 3, End: i*3 + 2, Code: codes[rng.Intn(len(codes))], URL: url})
		}
		mildest := checks.Error + checks.Severity(rng.Intn(4))
		all := c.Apply(slices.Clone(sups), diags)
		var shown []Finding
		for _, f := range all {
			if f.Severity <= mildest {
				shown = append(shown, f)
			}
		}
		first, counts := c.ApplyFirst(slices.Clone(sups), diags, mildest)
		if want := CountsOf(all); counts != want {
			t.Fatalf("round %d: counts %v, want %v", round, counts, want)
		}
		got, want := c.LimitCounted(first, counts, mildest), c.Limit(shown)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("round %d (mildest %s, max %v): shown\n%v\nwant\n%v", round, mildest, c.FindingsLimit(), got, want)
		}
		if limit := c.FindingsLimit(); limit > 0 && len(first) > limit+1 {
			t.Fatalf("round %d: %d findings made for a limit of %d", round, len(first), limit)
		}
	}
}

// TestSuppressedAgainstPairwise compares the sweep of Apply with the
// definition (Suppression.Suppresses of every suppression) on random
// overlapping suppressions and unsorted diagnostics.
func TestSuppressedAgainstPairwise(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	codes := []string{"bad-escape", "unsafe-char", "syntax"}
	for round := range 500 {
		var sups []scan.Suppression
		for range rng.Intn(8) {
			s := scan.Suppression{Start: rng.Intn(50)}
			s.End = s.Start + rng.Intn(20) - 2
			if rng.Intn(2) == 0 {
				s.Codes = []string{codes[rng.Intn(3)], codes[rng.Intn(3)]}
			}
			sups = append(sups, s)
		}
		var diags []checks.Diagnostic
		for range rng.Intn(30) {
			diags = append(diags, checks.Diagnostic{Start: rng.Intn(60), Code: codes[rng.Intn(3)]})
		}
		got := Suppressed(slices.Clone(sups), len(diags), func(i int) (int, string) { return diags[i].Start, diags[i].Code })
		for i, d := range diags {
			want := false
			for _, s := range sups {
				want = want || s.Suppresses(d.Start, d.Code)
			}
			if got[i] != want {
				t.Fatalf("round %d: diagnostic %+v suppressed = %v, want %v (suppressions %+v)", round, d, got[i], want, sups)
			}
		}
	}
}

// BenchmarkApply: findings of one line of bad escapes with a disable-line
// comment per URL, all on that line, at 1x and 4x; linear when the 4x
// ns/op is about four times the 1x.
func BenchmarkApply(b *testing.B) {
	for _, scale := range []int{1, 4} {
		doc := []byte(strings.Repeat("http://x.org/%zz /* urlls-disable-line syntax */ ", 10_000*scale) + "\n")
		diags := checks.CheckDocument(doc, "go")
		sups := scan.Scan(doc, "go").Suppressions
		b.Run(fmt.Sprintf("%dx", scale), func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				(Config{}).Apply(sups, diags)
			}
		})
	}
}

// TestCheckFirstAgainstApplyFirst: CheckFirst, which checks the URLs past
// the findings shown brief, returns what ApplyFirst returns from a full
// check, on documents of thousands of URLs (several of CheckFirst's runs)
// under random configurations, suppressions and --min-severity levels.
func TestCheckFirstAgainstApplyFirst(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	urls := []string{
		"http://x.org/a%zz", "http://x.org/%41", "http://x.org/a b|c", "HTTP://x.org/", "htp://x.org/",
		"http://user:secret@x.org/", "http://x.org:99999/", "http://x.org/a[0]", "http://x.org/ü", "http://x.org/~u",
		"https://example.com/docs", "ftp://ftp.x.org/pub/", "mailto:a@b.org", "http://ignored/x%zz", "http://[::1/",
	}
	codes := []string{"bad-escape", "unsafe-char", "syntax", "redundant-escape", "scheme-case", "credentials"}
	levels := []Level{{Severity: checks.Error}, {Severity: checks.Warning}, {Severity: checks.Information}, {Severity: checks.Hint}, Off}
	for round := range 24 {
		var b strings.Builder
		n := firstRun/2 + rng.Intn(4*firstRun)
		for i := range n {
			u := urls[rng.Intn(len(urls))]
			if rng.Intn(2) == 0 {
				u += fmt.Sprint(i) // a URL met once
			}
			b.WriteString(u)
			if rng.Intn(8) == 0 {
				b.WriteString("\n")
			} else {
				b.WriteString(" ")
			}
		}
		doc := []byte(b.String())
		c := Config{Severity: map[string]Level{}}
		for _, code := range codes {
			if rng.Intn(2) == 0 {
				c.Severity[code] = levels[rng.Intn(len(levels))]
			}
		}
		if rng.Intn(3) == 0 {
			c.Ignore = []string{"http://ignored/*"}
		}
		if rng.Intn(3) == 0 {
			c.Grammar = "rfc3986"
		}
		scanned := scan.Scan(doc, "plaintext")
		var sups []scan.Suppression
		// Fewer suppressions than URLs: a run of CheckFirst holds as
		// many candidates as there are suppressions, and the document
		// must take several runs.
		for range rng.Intn(len(scanned.Candidates)) {
			s := scan.Suppression{Start: rng.Intn(len(doc))}
			s.End = s.Start + rng.Intn(200)
			if rng.Intn(2) == 0 {
				s.Codes = []string{codes[rng.Intn(len(codes))]}
			}
			sups = append(sups, s)
		}
		mildest := checks.Error + checks.Severity(rng.Intn(4))
		// The limit: none, any, or about what the first run shows, where
		// CheckFirst turns brief or does not.
		atFirstRun := 0
		for _, f := range c.Apply(slices.Clone(sups), c.CheckOptions().CheckCandidates(doc, scanned.Candidates[:min(firstRun, len(scanned.Candidates))])) {
			if f.Severity <= mildest {
				atFirstRun++
			}
		}
		switch k := rng.Intn(6); {
		case k == 0:
		case k == 1:
			n := rng.Intn(3000)
			c.MaxFindings = &n
		default:
			n := max(atFirstRun+k-4, 1) // -2 to +1
			c.MaxFindings = &n
		}
		want, wantCounts := c.ApplyFirst(slices.Clone(sups), c.CheckOptions().CheckCandidates(doc, scanned.Candidates), mildest)
		got, counts := c.CheckFirst(doc, scanned.Candidates, slices.Clone(sups), mildest)
		if counts != wantCounts {
			t.Fatalf("round %d: counts %v, want %v", round, counts, wantCounts)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("round %d (mildest %s, max %d, %d URLs): shown (-ApplyFirst +CheckFirst)\n%s", round, mildest, c.FindingsLimit(), len(scanned.Candidates), diff)
		}
	}
}

// TestCheckFirstManySuppressions: CheckFirst's cost stays linear in a
// document of as many suppressions as URLs. Each run matches its
// diagnostics against every suppression (suppressedOf), so a run holds at
// least as many candidates as there are suppressions: when the findings
// shown are one short of the limit and every later finding is suppressed,
// the findings so far ask for runs of a few dozen URLs, and each of those
// runs swept all the suppressions before it (their heap took a copy of
// each), thousands of times over. It allocates about what ApplyFirst over
// CheckCandidates does, as a check of a few runs does.
func TestCheckFirstManySuppressions(t *testing.T) {
	const limit, suppressed = 100, 8000
	var b strings.Builder
	for i := range limit {
		fmt.Fprintf(&b, "http://x.org/a%%zz%d\n\n", i) // one finding each, shown
	}
	for i := range suppressed {
		fmt.Fprintf(&b, "http://x.org/b%%zz%d <!-- urlls-disable-line -->\n\n", i)
	}
	doc := []byte(b.String())
	scanned := scan.Scan(doc, "markdown")
	if len(scanned.Suppressions) != suppressed {
		t.Fatalf("%d suppressions, want %d", len(scanned.Suppressions), suppressed)
	}
	n := limit
	c := Config{MaxFindings: &n}
	allocated := func(f func()) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	var shown []Finding
	var counts Counts
	first := allocated(func() {
		shown, counts = c.CheckFirst(doc, scanned.Candidates, slices.Clone(scanned.Suppressions), checks.Hint)
	})
	if len(shown) != limit || counts[checks.Error] != limit {
		t.Fatalf("%d findings shown, %v counted; want %d errors, shown and counted", len(shown), counts, limit)
	}
	full := allocated(func() {
		c.ApplyFirst(slices.Clone(scanned.Suppressions), c.CheckOptions().CheckCandidates(doc, scanned.Candidates), checks.Hint)
	})
	if first > 2*full {
		t.Errorf("CheckFirst of %d URLs, %d of them suppressed, allocates %d bytes, ApplyFirst over CheckCandidates %d", len(scanned.Candidates), suppressed, first, full)
	}
}

// TestCheckFirstSmallDocument: CheckFirst's memory follows the document,
// as a tree of twenty thousand small files needs: it allocates about what
// ApplyFirst over CheckCandidates does. A Checker sized for any number of
// URLs made a 64 KiB table for each file, which doubled the time of a
// check of a tree.
func TestCheckFirstSmallDocument(t *testing.T) {
	doc := []byte("See http://x.org/a%zz and https://example.com/docs, or http://x.org/a%zz.\n")
	scanned := scan.Scan(doc, "plaintext")
	c := Config{}
	allocated := func(f func()) uint64 {
		const n = 100
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range n {
			f()
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / n
	}
	first := allocated(func() { c.CheckFirst(doc, scanned.Candidates, nil, checks.Hint) })
	full := allocated(func() { c.ApplyFirst(nil, c.CheckOptions().CheckCandidates(doc, scanned.Candidates), checks.Hint) })
	if first > full*5/4 {
		t.Errorf("CheckFirst of a document of %d bytes and %d URLs allocates %d bytes, ApplyFirst over CheckCandidates %d", len(doc), len(scanned.Candidates), first, full)
	}
}

// TestFixShift: a finding moved with its fixes left where they were
// (FixShift) gives them moved, to Fixes and to FixAll, and leaves the fixes
// it shares with the finding it was moved from as they were.
func TestFixShift(t *testing.T) {
	doc := []byte("see http://x.org/a%zz and http://y.org/%gg\n")
	cands := scan.Scan(doc, "plaintext").Candidates
	found := Config{}.Apply(nil, checks.Options{}.CheckCandidates(doc, cands))
	if len(found) != 2 || len(found[0].SuggestedFixes) == 0 {
		t.Fatalf("want two findings with fixes, got %v", found)
	}
	// Three bytes inserted at the start: the document's findings, moved.
	moved := slices.Clone(found)
	for i := range moved {
		moved[i].Start += 3
		moved[i].End += 3
		moved[i].FixShift = 3
	}
	wantEdits, n := FixAll(found)
	if n != 2 {
		t.Fatalf("FixAll fixes %d findings, want 2", n)
	}
	for i := range wantEdits {
		wantEdits[i].Start += 3
		wantEdits[i].End += 3
	}
	gotEdits, _ := FixAll(moved)
	if diff := cmp.Diff(wantEdits, gotEdits); diff != "" {
		t.Errorf("FixAll of the moved findings (-want +got):\n%s", diff)
	}
	for i := range moved {
		fixes := moved[i].Fixes()
		for k, fix := range fixes {
			for e, te := range fix.Edits {
				was := found[i].SuggestedFixes[k].Edits[e]
				if te.Start != was.Start+3 || te.End != was.End+3 || te.NewText != was.NewText {
					t.Errorf("finding %d fix %d edit %d: %v, want %v moved by 3", i, k, e, te, was)
				}
				if moved[i].SuggestedFixes[k].Edits[e] != was {
					t.Errorf("Fixes changed the fixes it shares: %v, was %v", moved[i].SuggestedFixes[k].Edits[e], was)
				}
			}
		}
	}
	if f := found[0]; &f.Fixes()[0] != &f.SuggestedFixes[0] {
		t.Error("Fixes copied the fixes of a finding that was not moved")
	}
}
