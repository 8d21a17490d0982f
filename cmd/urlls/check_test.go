package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// writeFiles creates files (name -> content) under a new temporary directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// urllsIn runs urlls with stdin. The closing summary of check is left
// out of stderr (TestSummary tests it): the tests read stderr for the
// notices and errors.
func urllsIn(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	out, errOut, code := urllsAll(t, stdin, args...)
	return out, summaryLine.ReplaceAllString(errOut, ""), code
}

// urllsAll runs urlls with stdin, and returns all it printed.
func urllsAll(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), code
}

// summaryLine is the closing summary of check, the last line of stderr.
var summaryLine = regexp.MustCompile(`(?m)^(no findings|[0-9][0-9,]* (error|warning|information|hint)s?\b.*); [0-9,]+ URLs? in [0-9,]+ files? checked\n\z`)

func TestCheckText(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.md":                     "ok http://example.org/\nbad http://example.org/%zz\n",
		"b.txt":                    "tilde http://example.org/~x\n",
		"clean.html":               `<a href="https://example.org/">x</a>`,
		".git/x.md":                "http://example.org/%zz\n",
		"node_modules/y.md":        "http://example.org/%zz\n",
		"vendor/z.md":              "http://example.org/%zz\n",
		"img.png":                  "\x89PNG\r\n\x00\x00http://example.org/%zz",
		"sub/deeper/c.markdown":    "[x](HTTP://example.org/)\n",
		"sub/deeper/.urlls.json":   `{"severity": {"scheme-case": "error"}}`,
		"sub/deeper/d.unknownext":  "http://example.org/a|b%zz\n",
		"sub/deeper/e.go":          "package x // see http://example.org/%zz\nvar s = \"http://example.org/%zz\"\n",
		"sub/deeper/f.notes":       "not markdown: [x](http://example.org/%zz)\n",
		"sub/deeper/g/.urlls.json": `{"languages": {".notes": "markdown"}}`,
		"sub/deeper/g/h.notes":     "[x](rel%zz)\n",
	})
	out, errOut, code := urlls(t, "check", dir)
	if code != 1 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	rel := strings.ReplaceAll(out, dir+string(filepath.Separator), "")
	for _, want := range []string{
		"a.md:2:24: error: ",
		"[bad-escape]",
		"b.txt:1:26: information: ",
		"[rfc1738-unsafe]",
		"sub/deeper/c.markdown:1:5: error: ", // scheme-case raised to error by .urlls.json
		"sub/deeper/g/h.notes:1:8: error: ",  // .notes is Markdown there: a relative link
	} {
		if !strings.Contains(rel, want) {
			t.Errorf("output lacks %q:\n%s", want, rel)
		}
	}
	// A walk checks documents only: not code, nor an unknown extension, nor
	// a file whose extension the configuration does not make a document.
	for _, skipped := range []string{".git", "node_modules", "vendor", "img.png", "clean.html", "d.unknownext", "e.go", "f.notes"} {
		if strings.Contains(rel, skipped) {
			t.Errorf("output names %s:\n%s", skipped, rel)
		}
	}
	// Named on the command line, a file is checked whatever its language.
	named, _, _ := urlls(t, "check", filepath.Join(dir, "sub/deeper/d.unknownext"), filepath.Join(dir, "sub/deeper/e.go"))
	named = strings.ReplaceAll(named, dir+string(filepath.Separator), "")
	for _, want := range []string{
		"sub/deeper/d.unknownext:1:21: error: ",
		"sub/deeper/e.go:1:37: error: ",
		"sub/deeper/e.go:2:29: error: ",
	} {
		if !strings.Contains(named, want) {
			t.Errorf("output lacks %q:\n%s", want, named)
		}
	}
	// The text format, line by line: path:line:col: severity: message [code]
	re := regexp.MustCompile(`^[^:]+:\d+:\d+: (error|warning|information|hint): [^\n]+ \[[a-z0-9-]+\]$`)
	for _, line := range strings.Split(strings.TrimSpace(rel), "\n") {
		if !re.MatchString(line) {
			t.Errorf("line %q is not path:line:col: severity: message [code]", line)
		}
	}
}

func TestCheckExitCodes(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"clean.md":               "http://example.org/\n",
		"warn.md":                "ftp://user:hunter2@files.corp.internal/\n",
		"tilde.md":               "http://example.org/~x\n",
		"error.md":               "http://example.org/%zz\n",
		"bad/.urlls.json":        "{\"strict\": 1}",
		"bad/x.md":               "http://example.org/%zz\n",
		"rfc3986.md":             "http://[::1]:/~x and http://u@example.org/?a/b#c?d and urn:isbn:0451450523\n",
		"xbnf/.urlls.json":       "{\"grammar\": \"xbnf\"}",
		"xbnf/x.md":              "http://example.org/~x\n",
		"badgrammar/.urlls.json": "{\n\"grammar\": \"rfc2396\"}",
		"badgrammar/x.md":        "http://example.org/\n",
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		name     string
		args     []string
		code     int
		stderr   string
		stdoutOK func(string) bool
	}{
		{"clean", []string{p("clean.md")}, 0, "", func(s string) bool { return s == "" }},
		{"warnings only", []string{p("warn.md")}, 0, "", func(s string) bool { return strings.Contains(s, "warning") }},
		{"information only", []string{p("tilde.md")}, 0, "", func(s string) bool { return strings.Contains(s, "information: ") }},
		{"strict makes RFC 1738 violations errors", []string{"--strict", p("tilde.md")}, 1, "", func(s string) bool { return strings.Contains(s, "error: ") }},
		{"errors", []string{p("error.md")}, 1, "", nil},
		{"rfc1738 reports what RFC 3986 allows", []string{p("rfc3986.md")}, 0, "", func(s string) bool { return strings.Contains(s, "[rfc1738-unsafe]") }},
		{"--grammar rfc3986: no grammar finding for what RFC 3986 accepts", []string{"--grammar", "rfc3986", p("rfc3986.md")}, 0, "", func(s string) bool { return s == "" }},
		{"--grammar rfc3986 rejects what RFC 3986 rejects", []string{"--grammar", "rfc3986", p("error.md")}, 1, "", nil},
		{"grammar xbnf from the configuration", []string{p("xbnf/x.md")}, 1, "", func(s string) bool { return strings.Contains(s, "the W3C XBNF allows none") }},
		{"--grammar overrides the configuration", []string{"--grammar", "rfc3986", p("xbnf/x.md")}, 0, "", func(s string) bool { return s == "" }},
		{"unknown grammar in the configuration", []string{p("badgrammar/x.md")}, 2, `.urlls.json:2:1: unknown grammar "rfc2396"`, nil},
		{"unknown --grammar", []string{"--grammar", "rfc2396", p("clean.md")}, 2, `unknown grammar "rfc2396" (known: rfc1738, rfc3986, xbnf)`, nil},
		{"missing file, others still checked", []string{p("nope.md"), p("error.md")}, 2, "nope.md: no such file or directory", func(s string) bool { return strings.Contains(s, "error.md") }},
		{"bad configuration is located", []string{p("bad/x.md"), p("clean.md")}, 2, `.urlls.json:1:2: "strict" must be true or false`, nil},
		{"no files", nil, 2, "urlls: check: no files given", nil},
		{"bad format", []string{"--format", "xml", p("clean.md")}, 2, "unknown format xml", nil},
		{"fix of stdin", []string{"--fix", "-"}, 2, "cannot fix standard input", nil},
		{"missing --config", []string{"--config", p("nope.json"), p("clean.md")}, 2, "nope.json", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := urlls(t, append([]string{"check"}, tc.args...)...)
			if code != tc.code || !strings.Contains(errOut, tc.stderr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, tc.code, tc.stderr)
			}
			if tc.stdoutOK != nil && !tc.stdoutOK(out) {
				t.Errorf("stdout:\n%s", out)
			}
		})
	}
}

func TestCheckStdinAndLang(t *testing.T) {
	out, _, code := urllsIn(t, `<a href="http://x.org/100&#37;">`, "check", "--lang", "html", "-")
	if code != 1 || !strings.HasPrefix(out, "<stdin>:1:26: error: ") || !strings.Contains(out, "[bad-escape]") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	// As plain text the same bytes hold no URL with a bad escape: "&#37;" is
	// not decoded there.
	out, _, code = urllsIn(t, `<a href="http://x.org/100&#37;">`, "check", "--lang", "plaintext", "-")
	if strings.Contains(out, "bad-escape") {
		t.Errorf("plain text decoded a character reference (exit %d):\n%s", code, out)
	}
}

func TestCheckJSON(t *testing.T) {
	doc := "é http://example.org/a%zz|b\n"
	out, _, code := urllsIn(t, doc, "check", "--format", "json", "-")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	var findings []map[string]any
	if err := json.Unmarshal([]byte(out), &findings); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if len(findings) == 0 {
		t.Fatal("no findings")
	}
	for _, f := range findings {
		for _, key := range []string{"path", "line", "column", "endLine", "endColumn", "offset", "endOffset", "severity", "code", "message", "fixes"} {
			if _, ok := f[key]; !ok {
				t.Errorf("finding lacks %q: %v", key, f)
			}
		}
		start, end := int(f["offset"].(float64)), int(f["endOffset"].(float64))
		if start < 0 || end > len(doc) || start > end {
			t.Errorf("span %d-%d outside the document", start, end)
		}
		// Columns are 1-based bytes: "é" is two bytes.
		if f["line"].(float64) != 1 || int(f["column"].(float64)) != start+1 {
			t.Errorf("line %v column %v for offset %d", f["line"], f["column"], start)
		}
		if f["code"] == "bad-escape" {
			fixes := f["fixes"].([]any)
			edit := fixes[0].(map[string]any)["edits"].([]any)[0].(map[string]any)
			if doc[int(edit["offset"].(float64)):int(edit["endOffset"].(float64))] != "%" || edit["newText"] != "%25" {
				t.Errorf("bad-escape fix %v", edit)
			}
		}
	}
}

func TestCheckSARIF(t *testing.T) {
	out, _, code := urllsIn(t, "http://example.org/%zz and http://example.org/~x\n", "check", "--format", "sarif", "-")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	var log struct {
		Version string `json:"version"`
		Schema  string `json:"$schema"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID   string `json:"id"`
						Help struct {
							Text string `json:"text"`
						} `json:"help"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
				Message   struct {
					Text string `json:"text"`
				} `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						Region struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif") || len(log.Runs) != 1 {
		t.Fatalf("not a SARIF 2.1.0 log:\n%s", out)
	}
	run := log.Runs[0]
	if run.Tool.Driver.Name != "urlls" || len(run.Tool.Driver.Rules) < 12 {
		t.Errorf("driver %+v", run.Tool.Driver)
	}
	for _, r := range run.Tool.Driver.Rules {
		if r.Help.Text == "" {
			t.Errorf("rule %s has no help", r.ID)
		}
	}
	levels := map[string]string{}
	for _, r := range run.Results {
		levels[r.RuleID] = r.Level
		if run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %s points at rule %d", r.RuleID, r.RuleIndex)
		}
		if r.Locations[0].PhysicalLocation.Region.StartLine != 1 {
			t.Errorf("result %s at line %d", r.RuleID, r.Locations[0].PhysicalLocation.Region.StartLine)
		}
	}
	if levels["bad-escape"] != "error" || levels["rfc1738-unsafe"] != "note" {
		t.Errorf("levels %v", levels)
	}
	if !strings.Contains(out, `"uri": "stdin"`) {
		t.Errorf("standard input is not the artifact \"stdin\":\n%s", out)
	}
}

func TestArtifactURI(t *testing.T) {
	for path, want := range map[string]string{
		"docs/a b.md":   "docs/a%20b.md",
		"x/100%.md":     "x/100%25.md",
		"<stdin>":       "stdin",
		"../up/ü.html":  "../up/%C3%BC.html",
		"/abs/path.txt": "/abs/path.txt",
	} {
		if got := artifactURI(path); got != want {
			t.Errorf("artifactURI(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestCheckGitHub(t *testing.T) {
	out, _, _ := urllsIn(t, "x\nhttp://example.org/%zz, http://example.org/~x\n", "check", "--format", "github", "-")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "::error file=<stdin>,line=2,col=") || !strings.HasPrefix(lines[1], "::notice ") {
		t.Errorf("annotations:\n%s", out)
	}
	for _, l := range lines {
		if !strings.Contains(l, "title=urlls ") || strings.Count(l, "::") != 2 {
			t.Errorf("annotation %q", l)
		}
	}
}

func TestCheckFix(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"doc.md": "Keep this.\nFix http://example.org/a%zz b and HTTP://example.org/%41 and http://x.org/~u\nKeep that.\n",
	})
	path := filepath.Join(dir, "doc.md")
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := urlls(t, "check", "--fix", path)
	if errOut != "" {
		t.Fatalf("stderr %q", errOut)
	}
	got, _ := os.ReadFile(path)
	// Only the error is fixed: the hints and the information (an RFC 1738
	// strictness not asked for) are left as written.
	want := "Keep this.\nFix http://example.org/a%25zz b and HTTP://example.org/%41 and http://x.org/~u\nKeep that.\n"
	if string(got) != want {
		t.Errorf("fixed file:\n%s\nwant:\n%s", got, want)
	}
	if code != 0 || strings.Contains(out, "error:") || strings.Contains(out, "warning:") {
		t.Errorf("after fixing: exit %d, output %q", code, out)
	}
	// Under --strict every RFC 1738 violation is an error, and is fixed.
	out, _, code = urlls(t, "check", "--fix", "--strict", path)
	got, _ = os.ReadFile(path)
	want = "Keep this.\nFix http://example.org/a%25zz b and http://example.org/%41 and http://x.org/%7Eu\nKeep that.\n"
	if string(got) != want || code != 0 || strings.Contains(out, "error:") {
		t.Errorf("strict fix: exit %d, output %q, file:\n%s\nwant:\n%s", code, out, got, want)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v after the fix", info.Mode())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestCheckDemo(t *testing.T) {
	out, errOut, code := urlls(t, "check", "../../testdata/demo")
	if code != 1 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"[bad-escape]", "[scheme-case]", "[rfc1738-unsafe]", "[host-range]", "[non-ascii]", "[credentials]"} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "localhost") {
		t.Errorf("demo/.urlls.json ignores localhost:\n%s", out)
	}
}

func TestBareUrllsServes(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "server.log")
	for _, args := range [][]string{nil, {"--stdio"}, {"--log-level", "debug"}, {"--log-file=" + logFile}} {
		_, errOut, code := urllsIn(t, "", args...)
		// Standard input ends at once, without shutdown: the server ends with 1.
		if code != 1 || strings.Contains(errOut, "usage") {
			t.Errorf("urlls %v: exit %d, stderr %q", args, code, errOut)
		}
	}
	if data, err := os.ReadFile(logFile); err != nil || !strings.Contains(string(data), "language server starting") {
		t.Errorf("--log-file: %v %q", err, data)
	}
	if _, errOut, code := urllsIn(t, "", "--log-level", "loud"); code != 2 || !strings.Contains(errOut, "unknown log level") {
		t.Errorf("bad log level: exit %d, %q", code, errOut)
	}
}
