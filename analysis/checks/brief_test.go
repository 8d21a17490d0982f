package checks

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/urlls/urlls/analysis/grammar"
	"github.com/urlls/urlls/analysis/parser"
	"github.com/urlls/urlls/analysis/scan"
)

// briefDiffers returns what is wrong with brief as the Options.Brief
// diagnostics of the same candidates as full: each must have the code, the
// start and the URL of its full one, in the same order, no message and no
// fix, and an end from its start to the full one's end. "" when nothing is.
// Only a candidate whose offsets are in order (ordered) maps the shorter
// span of a brief finding to an end no later than the full one's: offsets
// out of order may map a later text end to an earlier document end.
//
// Diagnostics that start at the same offset are compared in the order of
// their codes: diagnostics are sorted by start, then end, and a brief one
// may end sooner, so two of one start (a candidate whose offsets a buggy
// tokenizer got wrong maps two findings there) may come in another order.
// What a brief check is for, counting by severity and matching
// suppressions by start and code, does not depend on it.
func briefDiffers(full, brief []Diagnostic, ordered bool) string {
	if len(brief) != len(full) {
		return fmt.Sprintf("%d brief diagnostics, %d full ones:\n%v\n%v", len(brief), len(full), brief, full)
	}
	byStartCode := func(a, b Diagnostic) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), strings.Compare(a.Code, b.Code))
	}
	full = slices.Clone(full)
	brief = slices.Clone(brief)
	slices.SortStableFunc(full, byStartCode)
	slices.SortStableFunc(brief, byStartCode)
	for i, b := range brief {
		f := full[i]
		switch {
		case b.Code != f.Code || b.Start != f.Start || b.URL != f.URL:
			return fmt.Sprintf("diagnostic %d: brief %s at %d of %q, full %s at %d of %q", i, b.Code, b.Start, b.URL, f.Code, f.Start, f.URL)
		case b.Message != "" || b.SuggestedFixes != nil:
			return fmt.Sprintf("diagnostic %d: brief has a message %q or fixes %v", i, b.Message, b.SuggestedFixes)
		case b.End < b.Start || ordered && b.End > f.End:
			return fmt.Sprintf("diagnostic %d: brief ends at %d, full [%d,%d)", i, b.End, f.Start, f.End)
		}
	}
	return ""
}

// TestBriefAsFull: a brief check (Options.Brief), which the command line
// makes of the URLs past the findings it prints, counts what a full one
// finds. On every real document, the golden documents of the command line,
// the test corpora and the pathological lines, under each grammar and a
// user's grammar, the brief diagnostics have the code, start and URL of the
// full ones.
func TestBriefAsFull(t *testing.T) {
	type document struct {
		name, lang string
		doc        []byte
	}
	var docs []document
	realworldDocs(t, func(path, lang string, doc []byte) {
		docs = append(docs, document{path, lang, doc})
	})
	goldens, err := filepath.Glob("../../testdata/golden/*.txtar")
	if err != nil || len(goldens) == 0 {
		t.Fatalf("no golden documents: %v", err)
	}
	for _, path := range goldens {
		a, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if lang := scan.LanguageForPath(f.Name); lang != "" {
				docs = append(docs, document{path + ":" + f.Name, lang, f.Data})
			}
		}
	}
	for _, path := range []string{"../../testdata/corpus/linkify-it/links.txt", "../../testdata/corpus/linkify-it/not_links.txt",
		"../../testdata/corpus/wpt-url/urltestdata.json"} {
		doc, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, document{path, "plaintext", doc})
	}
	for _, p := range pathologicalLines {
		docs = append(docs, document{p.name, "plaintext", p.doc})
	}
	// A user's grammar for http (the configuration's "schemes"), which
	// every http URL of the documents fails but the shortest.
	options := []Options{{Schemes: map[string]*grammar.Rule{"http": digitsRule(t)}}}
	for _, name := range parser.ProfileNames() {
		profile, _ := parser.ProfileNamed(name)
		options = append(options, Options{Grammar: profile})
	}
	findings := map[string]int{}
	widened := 0 // brief ends short of full: a fix kept widened the span
	for _, d := range docs {
		cands := scan.Scan(d.doc, d.lang).Candidates
		for _, o := range options {
			full := o.CheckCandidates(d.doc, cands)
			o.Brief = true
			brief := o.CheckCandidates(d.doc, cands)
			if msg := briefDiffers(full, brief, true); msg != "" {
				t.Fatalf("%s (grammar %v, user's %v): %s", d.name, o.Grammar, o.Schemes != nil, msg)
			}
			for i, f := range full {
				findings[f.Code]++
				if brief[i].End < f.End {
					widened++
				}
			}
		}
	}
	// The documents must hold what a brief check leaves out: findings of
	// many codes, and fixes that widen a span.
	var codes []string
	for code := range findings {
		codes = append(codes, code)
	}
	if len(codes) < 12 || widened == 0 {
		t.Errorf("the documents hold findings of %d codes only (%s) and %d widened spans", len(codes), strings.Join(codes, ", "), widened)
	}
	t.Logf("%d documents, %d widened spans, findings by code %v", len(docs), widened, findings)
}
