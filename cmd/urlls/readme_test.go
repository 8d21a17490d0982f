package main

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/urlls/urlls/analysis/checks"
	"github.com/urlls/urlls/analysis/config"
)

// TestReadmeCatalog keeps README.md's "Diagnostics" section, the target of
// every diagnostic's codeDescription link, true: one section per catalog
// code, with the catalog's own text, and examples that behave as they say.
func TestReadmeCatalog(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	i := strings.Index(readme, "\n## Diagnostics\n")
	if i < 0 {
		t.Fatal("README.md has no Diagnostics section")
	}
	diag := readme[i:]
	if j := strings.Index(diag[1:], "\n## "); j >= 0 {
		diag = diag[:j+1]
	}
	sections := map[string]string{}
	parts := strings.Split(diag, "\n### ")
	for _, part := range parts[1:] {
		name, body, _ := strings.Cut(part, "\n")
		sections[name] = body
	}
	example := regexp.MustCompile("(?m)^- (Bad|Good): `([^`]+)`$")
	// A code about the document (too-many-findings) shows its examples
	// under a configuration ("With `"maxFindings": 1`:").
	withMax := regexp.MustCompile("With `\"maxFindings\": ([0-9]+)`:")
	for _, c := range checks.Catalog {
		t.Run(c.Name, func(t *testing.T) {
			body, ok := sections[c.Name]
			if !ok {
				t.Fatalf("no section ### %s", c.Name)
			}
			if !strings.Contains(body, c.Doc) {
				t.Errorf("the section does not hold the catalog's text for %s", c.Name)
			}
			if !strings.Contains(body, "Default severity: "+c.Severity.String()) {
				t.Errorf("the section does not give the default severity %s", c.Severity)
			}
			found := map[string]bool{}
			for _, m := range example.FindAllStringSubmatch(body, -1) {
				kind, url := m[1], m[2]
				found[kind] = true
				has := false
				doc := []byte(url + "\n")
				var cfg config.Config
				if m := withMax.FindStringSubmatch(body); m != nil {
					n, _ := strconv.Atoi(m[1])
					cfg.MaxFindings = &n
				}
				for _, f := range cfg.Limit(checkApply(cfg, doc, "plaintext")) {
					has = has || f.Code == c.Name
				}
				if want := kind == "Bad"; has != want {
					t.Errorf("%s example %q: reports %s = %v", kind, url, c.Name, has)
				}
			}
			if !found["Bad"] || !found["Good"] {
				t.Errorf("section lacks a Bad or a Good example")
			}
		})
	}
	if len(sections) != len(checks.Catalog) {
		t.Errorf("%d sections for %d codes", len(sections), len(checks.Catalog))
	}
}

// readmeShows checks that README.md shows, after the line "$ urlls ARGS",
// what urlls prints for those arguments (run from the repository's root)
// and that it exits with code.
func readmeShows(t *testing.T, code int, args ...string) {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	cmdLine := "$ urlls " + strings.Join(args, " ") + "\n"
	i := strings.Index(string(data), cmdLine)
	if i < 0 {
		t.Fatalf("README.md does not show the output of %q", strings.TrimSpace(cmdLine))
	}
	shown, _, _ := strings.Cut(string(data[i+len(cmdLine):]), "```")
	for k, a := range args {
		if strings.HasPrefix(a, "testdata/") {
			args[k] = "../../" + a
		}
	}
	out, _, got := urlls(t, args...)
	if got != code {
		t.Errorf("exit %d, README says %d", got, code)
	}
	if out = strings.ReplaceAll(out, "../../", ""); out != shown {
		t.Errorf("README shows\n%s\nurlls prints\n%s", shown, out)
	}
}

// TestReadmeQuickStart: the output README.md shows for the quick start's
// first command is what urlls prints.
func TestReadmeQuickStart(t *testing.T) {
	readmeShows(t, 1, "check", "testdata/demo")
}

// TestReadmeReport: the README's example of urlls report is what it prints.
func TestReadmeReport(t *testing.T) {
	readmeShows(t, 0, "report", "--sample", "1", "--severity", "error", "testdata/demo")
}

// TestReadmeUsage: the synopsis of each command in README.md's Usage section
// is the one "urlls help" prints.
func TestReadmeUsage(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"check", "report"} {
		cmd := lookup(name)
		if want := "```\nurlls " + cmd.name + " " + cmd.args + "\n```"; !strings.Contains(string(data), want) {
			t.Errorf("README.md lacks the synopsis\n%s", want)
		}
	}
}
