package main

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// readmeSection returns the text of README.md from the heading line head
// to the next "## " heading (the next section of the top level).
func readmeSection(t *testing.T, head string) string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(data), "\n"+head+"\n")
	if i < 0 {
		t.Fatalf("README.md has no %q", head)
	}
	rest := string(data[i+1:])
	if j := strings.Index(rest, "\n## "); j >= 0 {
		rest = rest[:j+1]
	}
	return rest
}

// shellWords splits a command line as README.md writes it: words separated
// by spaces, a word in '…' taken as is.
func shellWords(line string) []string {
	var words []string
	for line = strings.TrimSpace(line); line != ""; line = strings.TrimSpace(line) {
		if line[0] == '\'' {
			j := strings.IndexByte(line[1:], '\'')
			words = append(words, line[1:1+j])
			line = line[j+2:]
			continue
		}
		j := strings.IndexByte(line, ' ')
		if j < 0 {
			j = len(line)
		}
		words = append(words, line[:j])
		line = line[j:]
	}
	return words
}

// TestReadmeUserGrammars keeps README.md's "User grammars" true: the files
// it shows are those of testdata/geo, and each "$ urlls …" line is followed
// by what urlls prints, on stdout and stderr, run from the repository's
// root, and exits as the example says.
func TestReadmeUserGrammars(t *testing.T) {
	section := readmeSection(t, "### User grammars")
	files := regexp.MustCompile("`(testdata/[^`]+)`:\n\n```[a-z]*\n((?s:.*?))```")
	shown := 0
	for _, m := range files.FindAllStringSubmatch(section, -1) {
		data, err := os.ReadFile("../../" + m[1])
		if err != nil {
			t.Errorf("README shows %s: %v", m[1], err)
			continue
		}
		if string(data) != m[2] {
			t.Errorf("README shows %s as\n%s\nit is\n%s", m[1], m[2], data)
		}
		shown++
	}
	if shown != 4 {
		t.Errorf("README shows %d files of testdata/geo, want 4 (geo.abnf, .urlls.json, places.md, broken.abnf)", shown)
	}
	codes := map[string]int{
		"check testdata/geo": 1,
		"explain --config testdata/geo/.urlls.json geo:48.2010,16.3695;u=40": 0,
		"explain --config testdata/geo/.urlls.json geo:1.2838;103.8592":      1,
		"check --config testdata/geo/broken.json testdata/geo":               2,
	}
	blocks := regexp.MustCompile("(?m)^\\$ urlls (.*)\n((?:[^$`].*\n)*)")
	ran := 0
	for _, m := range blocks.FindAllStringSubmatch(section, -1) {
		args := shellWords(m[1])
		key := strings.Join(args, " ")
		want, ok := codes[key]
		if !ok {
			t.Errorf("README shows urlls %s, which this test does not know", m[1])
			continue
		}
		for k, a := range args {
			if strings.HasPrefix(a, "testdata/") {
				args[k] = "../../" + a
			}
		}
		out, errOut, code := urlls(t, args...)
		if code != want {
			t.Errorf("urlls %s: exit %d, want %d", m[1], code, want)
		}
		if got := strings.ReplaceAll(out+errOut, "../../", ""); got != m[2] {
			t.Errorf("README shows for urlls %s\n%s\nurlls prints\n%s", m[1], m[2], got)
		}
		ran++
	}
	if ran != len(codes) {
		t.Errorf("ran %d examples of README, want %d", ran, len(codes))
	}
}

const ticketGrammar = `; Our issue references: ticket:PROJECT-NUMBER, and an RFC 3986 query.
;@source our issue tracker
ticket-URI = "ticket:" project "-" number [ "?" query ]
project    = 1*10( %x41-5A / DIGIT )  ; upper-case letters and digits
number     = %x31-39 *DIGIT           ; no leading zero
`

// TestCheckUserGrammar: a scheme no registry knows, given a grammar by the
// .urlls.json a walk finds: its URLs are known and judged by the grammar.
func TestCheckUserGrammar(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		".urlls.json":          `{"schemes": {"ticket": {"grammar": "grammars/ticket.abnf", "rule": "ticket-URI"}}}`,
		"grammars/ticket.abnf": ticketGrammar,
		"notes.md":             "Fixed in [A-1](ticket:A-1), [b-2](ticket:b-2), [C-03](Ticket:C-03?x#y) and <ticket:D-4?a=b/c#d>.\n",
	})
	out, errOut, code := urlls(t, "check", "--format", "json", dir)
	if code != 1 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var findings []struct {
		Line, Column  int
		Code, Message string
		Severity      string
	}
	if err := json.Unmarshal([]byte(out), &findings); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var got []string
	for _, f := range findings {
		got = append(got, strings.Join([]string{f.Severity, f.Code, f.Message}, " "))
	}
	want := []string{
		`error syntax unexpected "b" in ticket-URI: expected project`,
		`hint scheme-case scheme "Ticket" is not lower case`,
		`error syntax unexpected "0" in ticket-URI: expected number`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Without the grammar: an unknown scheme, checked as genericurl.
	if err := os.Remove(dir + "/.urlls.json"); err != nil {
		t.Fatal(err)
	}
	out, _, code = urlls(t, "check", dir)
	if code != 0 || !strings.Contains(out, `unregistered scheme "ticket"; checked as genericurl [unknown-scheme]`) {
		t.Errorf("without the grammar: exit %d\n%s", code, out)
	}
}

func TestCheckUserGrammarErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string // stderr, DIR for the directory
	}{
		{"a broken grammar", map[string]string{
			".urlls.json": `{"schemes": {"ticket": {"grammar": "ticket.abnf", "rule": "ticket-URI"}}}`,
			"ticket.abnf": "ticket-URI = \"ticket:\" project\nproject = 1*( ALPHA / DIGIT\n",
			"a.md":        "[x](ticket:A-1)\n",
		}, "urlls: check: DIR/ticket.abnf:2:28: expected ')'\n"},
		{"a left-recursive grammar", map[string]string{
			".urlls.json": `{"schemes": {"ticket": {"grammar": "ticket.abnf", "rule": "ticket-URI"}}}`,
			"ticket.abnf": "ticket-URI = \"ticket:\" list\nlist = [ list \",\" ] 1*DIGIT\n",
			"a.md":        "[x](ticket:1,2)\n",
		}, "urlls: check: DIR/ticket.abnf:2:1: rule \"list\" is left-recursive, which the matcher does not support\n"},
		{"no such rule", map[string]string{
			".urlls.json": "{\"schemes\": {\"ticket\": {\"grammar\": \"ticket.abnf\",\n  \"rule\": \"ticket\"}}}",
			"ticket.abnf": ticketGrammar,
			"a.md":        "[x](ticket:A-1)\n",
		}, "urlls: check: DIR/.urlls.json:2:3: grammar file \"ticket.abnf\" of scheme \"ticket\" has no rule \"ticket\" (its rules: ticket-URI, project, number)\n"},
		{"no such file", map[string]string{
			".urlls.json": `{"schemes": {"ticket": {"grammar": "ticket.abnf", "rule": "ticket-URI"}}}`,
			"a.md":        "[x](ticket:A-1)\n",
		}, "urlls: check: DIR/.urlls.json:1:25: grammar file \"ticket.abnf\" of scheme \"ticket\": no such file\n"},
		{"a path out of the directory", map[string]string{
			".urlls.json": `{"schemes": {"ticket": {"grammar": "../ticket.abnf", "rule": "ticket-URI"}}}`,
			"a.md":        "[x](ticket:A-1)\n",
		}, "urlls: check: DIR/.urlls.json:1:25: grammar file \"../ticket.abnf\" of scheme \"ticket\" must be in the directory of the configuration file or below it, without \"..\"\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, tc.files)
			out, errOut, code := urlls(t, "check", dir)
			if want := strings.ReplaceAll(tc.want, "DIR", dir); code != 2 || out != "" || errOut != want {
				t.Errorf("exit %d, stdout %q, stderr\n%s\nwant\n%s", code, out, errOut, want)
			}
		})
	}
}

func TestExplainUserGrammar(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"cfg.json":    `{"schemes": {"ticket": {"grammar": "ticket.abnf", "rule": "ticket-URI"}}}`,
		"ticket.abnf": ticketGrammar,
		"broken.json": `{"schemes": {"ticket": {"grammar": "broken.abnf", "rule": "ticket-URI"}}}`,
		"broken.abnf": "ticket-URI = \"ticket:\" %q\n",
	})
	out, errOut, code := urlls(t, "explain", "--config", dir+"/cfg.json", "ticket:URLLS-42?tab=notes#top")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if got, want := strings.Join(productions(out), " "), "URL ticket-URI project number query fragment"; got != want {
		t.Errorf("productions %s, want %s\n%s", got, want, out)
	}
	if !strings.Contains(out, "our issue tracker") || !strings.Contains(out, "RFC 3986 Appendix A") {
		t.Errorf("the tree does not cite the sources:\n%s", out)
	}
	out, errOut, code = urlls(t, "explain", "--config", dir+"/cfg.json", "--json", "ticket:URLLS-042")
	if code != 1 || errOut != "" || !strings.Contains(out, `"rule": "ticket-URI"`) || !strings.Contains(out, `"expected": [`) {
		t.Errorf("--json error: exit %d, stderr %q\n%s", code, errOut, out)
	}
	// Without --config, the scheme is unknown and any schemepart goes.
	out, _, code = urlls(t, "explain", "ticket:URLLS-042")
	if code != 0 || !strings.Contains(out, "genericurl") {
		t.Errorf("without --config: exit %d\n%s", code, out)
	}
	_, errOut, code = urlls(t, "explain", "--config", dir+"/broken.json", "ticket:A-1")
	if want := "urlls: explain: " + dir + "/broken.abnf:1:25: expected x, d, b, s or i after %\n"; code != 2 || errOut != want {
		t.Errorf("a broken grammar: exit %d, stderr %q, want %q", code, errOut, want)
	}
	_, errOut, code = urlls(t, "explain", "--config", dir+"/none.json", "ticket:A-1")
	if code != 2 || !strings.Contains(errOut, "none.json: no such file") {
		t.Errorf("a missing configuration: exit %d, stderr %q", code, errOut)
	}
}
