package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/urlls/urlls/analysis/checks"
)

// TestEditorsListCodes: the editors' settings list every code of the
// catalog, so that a new code is configurable everywhere: VS Code's
// urlls.severity (completion in the settings editor), its README and the
// Neovim help.
func TestEditorsListCodes(t *testing.T) {
	data, err := os.ReadFile("../../editors/vscode/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Contributes struct {
			Configuration struct {
				Properties map[string]struct {
					Properties map[string]json.RawMessage `json:"properties"`
				} `json:"properties"`
			} `json:"configuration"`
		} `json:"contributes"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatal(err)
	}
	props := pkg.Contributes.Configuration.Properties
	if _, ok := props["urlls.maxFindings"]; !ok {
		t.Error("package.json has no urlls.maxFindings")
	}
	severity := props["urlls.severity"].Properties
	vsReadme, _ := os.ReadFile("../../editors/vscode/README.md")
	nvimHelp, _ := os.ReadFile("../../editors/nvim/doc/urlls.txt")
	_, codes, _ := strings.Cut(string(nvimHelp), "The codes:")
	codes, _, _ = strings.Cut(codes, ".\n")
	for _, c := range checks.Catalog {
		if _, ok := severity[c.Name]; !ok {
			t.Errorf("package.json: urlls.severity lacks %s", c.Name)
		}
		if !strings.Contains(string(vsReadme), "`"+c.Name+"`") {
			t.Errorf("editors/vscode/README.md does not list %s", c.Name)
		}
		if !strings.Contains(codes, c.Name) {
			t.Errorf("editors/nvim/doc/urlls.txt: the codes lack %s", c.Name)
		}
	}
	if len(severity) != len(checks.Catalog) {
		t.Errorf("package.json lists %d codes, the catalog %d", len(severity), len(checks.Catalog))
	}
}
