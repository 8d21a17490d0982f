package fileio

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlls/urlls/analysis/config"
	"github.com/urlls/urlls/analysis/grammar"
)

const ticketABNF = "ticket-URI = \"ticket:\" project \"-\" number\nproject = 1*10( %x41-5A / DIGIT )\nnumber = %x31-39 *DIGIT\n"

func TestReadConfigSchemes(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		".urlls.json":          `{"strict": true, "schemes": {"ticket": {"grammar": "grammars/ticket.abnf", "rule": "TICKET-uri"}}}`,
		"grammars/ticket.abnf": ticketABNF,
	})
	cfg, found, warning, err := ReadConfig(filepath.Join(dir, ".urlls.json"))
	if err != nil || !found || warning != "" {
		t.Fatalf("ReadConfig: %v %v %q", err, found, warning)
	}
	start := cfg.Schemes["ticket"].Start
	if start == nil || start.Name != "ticket-URI" || start.Source != "grammars/ticket.abnf" {
		t.Fatalf("start rule %+v", start)
	}
	if opts := cfg.CheckOptions(); opts.Schemes["ticket"] != start {
		t.Errorf("CheckOptions = %+v", opts)
	}
	// Read again, the same grammar: nothing new registered.
	again, _, _, _ := ReadConfig(filepath.Join(dir, ".urlls.json"))
	if again.Schemes["ticket"].Start != start {
		t.Error("the grammar was loaded anew")
	}
}

func TestLoadSchemesErrors(t *testing.T) {
	outside := t.TempDir()
	write(t, outside, map[string]string{"secret.abnf": "s = \"x\"\n"})
	tests := []struct {
		name  string
		files map[string]string
		want  string // with DIR for the directory
	}{
		{"no such file", map[string]string{
			".urlls.json": "{\"schemes\": {\n  \"ticket\": {\"grammar\": \"ticket.abnf\", \"rule\": \"ticket-URI\"}}}",
		}, `DIR/.urlls.json:2:14: grammar file "ticket.abnf" of scheme "ticket": no such file`},
		{"a directory", map[string]string{
			".urlls.json":  `{"schemes": {"ticket": {"grammar": "ticket.abnf", "rule": "ticket-URI"}}}`,
			"ticket.abnf/": "",
		}, `DIR/.urlls.json:1:25: grammar file "ticket.abnf" of scheme "ticket": not a regular file (directory)`},
		{"too large", map[string]string{
			".urlls.json": `{"schemes": {"ticket": {"grammar": "ticket.abnf", "rule": "ticket-URI"}}}`,
			"ticket.abnf": ticketABNF + strings.Repeat(";\n", GrammarMaxSize/2),
		}, `DIR/.urlls.json:1:25: grammar file "ticket.abnf" of scheme "ticket": larger than 1 MiB`},
		{"a broken grammar", map[string]string{
			".urlls.json":   `{"schemes": {"ticket": {"grammar": "g/ticket.abnf", "rule": "ticket-URI"}}}`,
			"g/ticket.abnf": "; a ticket\nticket-URI = \"ticket:\" project \"-\" numbr\nproject = 1*ALPHA\n",
		}, `DIR/g/ticket.abnf:2:36: rule "ticket-URI" refers to undefined rule "numbr"`},
		{"no such rule", map[string]string{
			".urlls.json": "{\"schemes\": {\"ticket\": {\"grammar\": \"ticket.abnf\",\n  \"rule\": \"ticket\"}}}",
			"ticket.abnf": ticketABNF,
		}, `DIR/.urlls.json:2:3: grammar file "ticket.abnf" of scheme "ticket" has no rule "ticket" (its rules: ticket-URI, project, number)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, tc.files)
			_, _, _, err := ReadConfig(filepath.Join(dir, ".urlls.json"))
			if want := strings.ReplaceAll(tc.want, "DIR", dir); err == nil || err.Error() != want {
				t.Errorf("error %v, want %s", err, want)
			}
		})
	}
	t.Run("a link out of the directory", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, map[string]string{".urlls.json": `{"schemes": {"s": {"grammar": "s.abnf", "rule": "s"}}}`})
		if err := os.Symlink(filepath.Join(outside, "secret.abnf"), filepath.Join(dir, "s.abnf")); err != nil {
			t.Skip(err)
		}
		_, _, _, err := ReadConfig(filepath.Join(dir, ".urlls.json"))
		want := dir + `/.urlls.json:1:20: grammar file "s.abnf" of scheme "s": a symbolic link out of the configuration file's directory, not read`
		if err == nil || err.Error() != want {
			t.Errorf("error %v, want %s", err, want)
		}
	})
	t.Run("a link inside it", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, map[string]string{".urlls.json": `{"schemes": {"ticket": {"grammar": "t.abnf", "rule": "ticket-URI"}}}`, "g/ticket.abnf": ticketABNF})
		if err := os.Symlink(filepath.Join("g", "ticket.abnf"), filepath.Join(dir, "t.abnf")); err != nil {
			t.Skip(err)
		}
		if _, _, _, err := ReadConfig(filepath.Join(dir, ".urlls.json")); err != nil {
			t.Error(err)
		}
	})
}

// TestLoadSchemesPartly: a broken grammar drops its scheme, not the others,
// nor the rest of the configuration (the language server keeps using them).
func TestLoadSchemesPartly(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		".urlls.json": `{"maxFindings": 5, "schemes": {"a": {"grammar": "a.abnf", "rule": "a"}, "b": {"grammar": "b.abnf", "rule": "b"}, "c": {"grammar": "c.abnf", "rule": "c"}}}`,
		"a.abnf":      "a = \"a:\" 1*DIGIT\n",
		"b.abnf":      "b = \"b:\" (\n",
		"c.abnf":      "c = \"c:\" query\n",
	})
	cfg, _, _, err := ReadConfig(filepath.Join(dir, ".urlls.json"))
	var le *grammar.LoadError
	if !errors.As(err, &le) || le.Line != 1 || le.File != filepath.Join(dir, "b.abnf") {
		t.Fatalf("error %v, want b.abnf's", err)
	}
	if cfg.FindingsLimit() != 5 || len(cfg.Schemes) != 2 || cfg.Schemes["a"].Start == nil || cfg.Schemes["c"].Start == nil {
		t.Errorf("configuration %+v", cfg)
	}
}

func TestReadConfigFile(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"cfg/urlls.json": `{"schemes": {"ticket": {"grammar": "ticket.abnf", "rule": "ticket-URI"}}}`, "cfg/ticket.abnf": ticketABNF})
	cfg, err := ReadConfigFile(filepath.Join(dir, "cfg", "urlls.json"))
	if err != nil || cfg.Schemes["ticket"].Start == nil {
		t.Fatalf("ReadConfigFile: %+v, %v", cfg, err)
	}
	if _, err := ReadConfigFile(filepath.Join(dir, "none.json")); !IsNotExist(err) {
		t.Errorf("a missing file: %v", err)
	}
	var _ config.Config = cfg
}
