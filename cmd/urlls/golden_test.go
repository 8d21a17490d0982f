package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/urlls/urlls/analysis/checks"
	"github.com/urlls/urlls/analysis/config"
	"github.com/urlls/urlls/analysis/position"
	"github.com/urlls/urlls/analysis/scan"
)

var update = flag.Bool("update", false, "rewrite the @diagnostics and @fixed sections of testdata/golden/*.txtar")

// TestGolden checks the documents of ../../testdata/golden: each archive holds
// one document (doc.md, doc.html, doc.txt, …), the diagnostics urlls reports
// on it (-- @diagnostics --, one per line: "line:col-endLine:endCol severity
// code: message", 1-based byte columns) and the document after every
// preferred fix has been applied (-- @fixed --). Extra or missing diagnostics
// fail; so does a fixed document that still has a fixable finding. With
// -update the expected sections are rewritten from what urlls does.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("../../testdata/golden/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden archives: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var doc *txtar.File
			sections := map[string]*txtar.File{}
			for i := range ar.Files {
				f := &ar.Files[i]
				if strings.HasPrefix(f.Name, "@") {
					sections[f.Name] = f
				} else if doc == nil {
					doc = f
				} else {
					t.Fatalf("more than one document: %s and %s", doc.Name, f.Name)
				}
			}
			if doc == nil {
				t.Fatal("no document")
			}
			lang := scan.LanguageForPath(doc.Name)
			if lang == "" {
				lang = "plaintext"
			}
			cfg := config.Config{}
			if c, ok := sections["@config"]; ok {
				if cfg, err = config.Parse(file+":@config", c.Data); err != nil {
					t.Fatal(err)
				}
			}
			findings := checkApply(cfg, doc.Data, lang)
			gotDiags := renderFindings(doc.Data, findings)
			gotFixed := fixAll(cfg, doc.Data, lang)

			if *update {
				setSection(ar, "@diagnostics", gotDiags)
				setSection(ar, "@fixed", gotFixed)
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, ok := sections["@diagnostics"]
			if !ok {
				t.Fatal("no @diagnostics section (run with -update)")
			}
			if d := cmp.Diff(string(want.Data), string(gotDiags)); d != "" {
				t.Errorf("diagnostics (-want +got):\n%s", d)
			}
			if wantFixed, ok := sections["@fixed"]; ok {
				if d := cmp.Diff(string(wantFixed.Data), string(gotFixed)); d != "" {
					t.Errorf("fixed document (-want +got):\n%s", d)
				}
			}
			for _, f := range checkApply(cfg, gotFixed, lang) {
				if len(f.SuggestedFixes) > 0 && f.Severity <= checks.Warning {
					t.Errorf("the fixed document still has a fixable error or warning: %s %s at %d", f.Code, f.Message, f.Start)
				}
			}
			// The fix-all changes only the lines that held an error or a
			// warning: information and hints are left as written.
			problemLines := map[int]bool{}
			for _, f := range findings {
				if f.Severity <= checks.Warning {
					for l := lineOf(doc.Data, f.Start); l <= lineOf(doc.Data, f.End); l++ {
						problemLines[l] = true
					}
				}
			}
			before, after := strings.Split(string(doc.Data), "\n"), strings.Split(string(gotFixed), "\n")
			if len(before) == len(after) {
				for i := range before {
					if before[i] != after[i] && !problemLines[i+1] {
						t.Errorf("the fix-all changed line %d, which held no error or warning:\n%s\n%s", i+1, before[i], after[i])
					}
				}
			} else {
				t.Errorf("the fix-all changed the number of lines")
			}
		})
	}
}

// renderFindings writes one line per finding.
func renderFindings(doc []byte, findings []config.Finding) []byte {
	var b bytes.Buffer
	m := position.New(doc)
	for _, f := range findings {
		l1, c1, _ := lineCol(m, f.Start)
		l2, c2, _ := lineCol(m, f.End)
		fmt.Fprintf(&b, "%d:%d-%d:%d %s %s: %s\n", l1, c1, l2, c2, f.Severity, f.Code, f.Message)
	}
	return b.Bytes()
}

// fixAll applies preferred fixes until none is left (a fix can reveal
// another finding, e.g. a decoded escape), at most a few rounds.
func fixAll(cfg config.Config, doc []byte, lang string) []byte {
	for round := 0; round < 8; round++ {
		findings := checkApply(cfg, doc, lang)
		fixed, n := applyPreferredFixes(doc, findings)
		if n == 0 {
			break
		}
		doc = fixed
	}
	return doc
}

// lineOf returns the 1-based line of byte offset off of doc.
func lineOf(doc []byte, off int) int {
	return bytes.Count(doc[:min(off, len(doc))], []byte("\n")) + 1
}

func setSection(ar *txtar.Archive, name string, data []byte) {
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			ar.Files[i].Data = data
			return
		}
	}
	ar.Files = append(ar.Files, txtar.File{Name: name, Data: data})
}

// checkApply checks doc as the check command does, with the default check
// options: one scan for its candidates and suppressions, then cfg.Apply.
func checkApply(cfg config.Config, doc []byte, lang string) []config.Finding {
	scanned := scan.Scan(doc, lang)
	return cfg.Apply(scanned.Suppressions, checks.CheckCandidates(doc, scanned.Candidates))
}
