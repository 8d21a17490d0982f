package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

// TestExplainGolden checks the derivation trees of ../../testdata/explain:
// each archive runs "urlls explain" with the flags its comment gives on a
// line "flags: …" on every URL it holds, one section a URL (the section's
// name is the URL, Go-quoted when it would not survive as a name), and the
// section is what explain prints: stdout, then, when explain writes to
// stderr or exits non-zero, a line "--- stderr (exit N) ---" and stderr.
// With -update the sections are rewritten from what explain does (review
// the diff).
func TestExplainGolden(t *testing.T) {
	files, err := filepath.Glob("../../testdata/explain/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no explain archives: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var flags []string
			found := false
			for _, line := range strings.Split(string(ar.Comment), "\n") {
				if rest, ok := strings.CutPrefix(line, "flags:"); ok {
					flags, found = strings.Fields(rest), true
				}
			}
			if !found {
				t.Fatal(`no "flags:" line in the comment`)
			}
			if len(ar.Files) == 0 {
				t.Fatal("no URLs")
			}
			for i := range ar.Files {
				f := &ar.Files[i]
				url := f.Name
				if strings.HasPrefix(url, `"`) {
					if url, err = strconv.Unquote(f.Name); err != nil {
						t.Fatalf("section %s: %v", f.Name, err)
					}
				}
				args := append(append([]string{"explain"}, flags...), "--", url)
				out, errOut, code := urlls(t, args...)
				got := out
				if errOut != "" || code != 0 {
					got += fmt.Sprintf("--- stderr (exit %d) ---\n%s", code, errOut)
				}
				if *update {
					f.Data = []byte(got)
					continue
				}
				if diff := cmp.Diff(string(f.Data), got); diff != "" {
					t.Errorf("urlls %s (-want +got):\n%s", strings.Join(args, " "), diff)
				}
			}
			if *update {
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
