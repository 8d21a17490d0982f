package checks

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/urlls/urlls/analysis/scan"
)

// realworldDir holds real documentation from public repositories, beside
// the checkout (../shared/corpus/realworld, see its README): not copied into
// the repository, read where it is. URLLS_CORPUS names another directory of
// documents to run the same tests on.
var realworldDir = "../../../shared/corpus/realworld"

func init() {
	if d := os.Getenv("URLLS_CORPUS"); d != "" {
		realworldDir = d
	}
}

// realworldFiles returns the text files of the real-world corpus with their
// language, or skips the test when the corpus is not beside the checkout
// (it fails instead in CI, which always has it).
func realworldFiles(t *testing.T) map[string]string {
	t.Helper()
	if _, err := os.Stat(realworldDir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI has no %s: %v", realworldDir, err)
		}
		t.Skipf("no %s beside the checkout", realworldDir)
	}
	files := map[string]string{}
	err := filepath.WalkDir(realworldDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		lang := scan.LanguageForPath(path)
		if lang == "" {
			lang = "plaintext"
		}
		files[path] = lang
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// realworldDocs calls f with each text document of the real-world corpus
// (realworldFiles), read, binaries left out.
func realworldDocs(t *testing.T, f func(path, lang string, doc []byte)) {
	for path, lang := range realworldFiles(t) {
		doc, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.IndexByte(doc, 0) >= 0 {
			continue // binary
		}
		f(path, lang, doc)
	}
}

// TestRealworldFixes applies every preferred fix, as `urlls check --fix`
// and the editor's fix-all do, to each real document, and checks what a
// writer must be able to trust: every edit stays inside the span of the
// finding it fixes (nothing else in the document changes), and checking the
// fixed document again shows none of the fixed findings and no error or
// warning that was not there before.
func TestRealworldFixes(t *testing.T) {
	fixes := 0
	realworldDocs(t, func(path, lang string, doc []byte) {
		before := CheckDocument(doc, lang)
		for _, d := range before {
			for _, fx := range d.SuggestedFixes {
				for _, e := range fx.Edits {
					if e.Start < d.Start || e.End > d.End {
						t.Errorf("%s: %s fix %q edits [%d,%d), outside the finding [%d,%d) %q", path, d.Code, fx.Message, e.Start, e.End, d.Start, d.End, doc[d.Start:d.End])
					}
				}
			}
		}
		edits, n := PreferredEdits(before)
		if n == 0 {
			return
		}
		fixes += n
		fixed := ApplyEdits(doc, edits)
		for _, g := range CheckDocument(fixed, lang) {
			start, end := mapDocBack(g.Start, edits), mapDocBack(g.End, edits)
			for _, d := range before {
				if len(d.SuggestedFixes) > 0 && d.Code == g.Code && start < d.End && d.Start < end {
					t.Errorf("%s: %s at [%d,%d) %q is still there after its fix: %s", path, d.Code, d.Start, d.End, doc[d.Start:d.End], g.Message)
				}
			}
			if c, _ := Lookup(g.Code); c.Severity > Warning {
				continue
			}
			if !existed(before, g, edits) {
				t.Errorf("%s: the fixes made a new %s: %s (in %q)", path, g.Code, g.Message, g.URL)
			}
		}
	})
	t.Logf("%d fixes applied", fixes)
}
