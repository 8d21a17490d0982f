package main

import (
	"bytes"
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/urlls/urlls/analysis/checks"
	"github.com/urlls/urlls/analysis/scan"
)

// TestWorkerMemorySequence: a worker's files checked one after the other
// in the memory the last one left (workerMemory: the read buffer, the
// candidates, the Clean and the Checker it keeps), with and without
// --fix, keeping every finding (as report does) or the first shown (as
// check does, past a findings limit the rest brief): every file's result,
// kept until all are checked as the run keeps them until they are
// printed, is what it was when returned and what a check of the file in
// memory of its own gives; --fix writes the same files.
func TestWorkerMemorySequence(t *testing.T) {
	files := workerMemoryFiles(t)
	for _, mode := range []struct {
		name            string
		fix, firstShown bool
	}{
		{"all findings", false, false},
		{"first shown", false, true},
		{"fix, all findings", true, false},
		{"fix, first shown", true, true},
	} {
		t.Run(mode.name, func(t *testing.T) {
			shared, own := writeFiles(t, files), writeFiles(t, files)
			c, err := newChecker(selectFlags{maxSize: defaultMaxSize})
			if err != nil {
				t.Fatal(err)
			}
			c.fix, c.firstShown, c.mildest = mode.fix, mode.firstShown, 3 // hints too
			type kept struct {
				name string
				r    fileResult
				then string
			}
			var results []kept
			mem := &workerMemory{clean: checks.NewClean()}
			for _, name := range sortedNames(files) {
				path := filepath.Join(shared, name)
				r := c.checkFileInto(target{path: path, abs: path, top: shared, named: true}, nil, mem)
				if !c.reuseBuffers {
					mem.buf = nil // as run does: the result keeps the text
				}
				// The candidates' memory, kept for the next file, holds
				// nothing of this one (reusable).
				for i, cand := range mem.cands[:cap(mem.cands)] {
					if !reflect.DeepEqual(cand, scan.Candidate{}) {
						t.Fatalf("%s: the memory kept for the next file holds candidate %d: %+v", name, i, cand)
					}
				}
				results = append(results, kept{name, r, fmt.Sprintf("%#v %v %d %s", r.findings, r.counts, r.urls, r.doc)})
			}
			findings, fixed, past := 0, 0, 0
			for _, k := range results {
				r := k.r
				if now := fmt.Sprintf("%#v %v %d %s", r.findings, r.counts, r.urls, r.doc); now != k.then {
					t.Fatalf("%s: its result changed as later files were checked:\nthen %.2000s\nnow  %.2000s", k.name, k.then, now)
				}
				path := filepath.Join(own, k.name)
				want := c.checkFileInto(target{path: path, abs: path, top: own, named: true}, nil, nil)
				if r.err != nil || want.err != nil || r.fixErr != nil || want.fixErr != nil {
					t.Fatalf("%s: errors %v %v %v %v", k.name, r.err, want.err, r.fixErr, want.fixErr)
				}
				if !reflect.DeepEqual(r.findings, want.findings) || r.counts != want.counts || r.urls != want.urls || !bytes.Equal(r.doc, want.doc) {
					t.Errorf("%s: in a worker's memory %v %d URLs\n%v\nin its own %v %d URLs\n%v", k.name, r.counts, r.urls, r.findings, want.counts, want.urls, want.findings)
				}
				findings += len(r.findings)
				if strings.HasPrefix(k.name, "limited/") && len(r.findings) > 2 {
					past++ // past the limit: CheckFirstClean went brief, or kept all
				}
				if mode.fix {
					a, _ := os.ReadFile(filepath.Join(shared, k.name))
					b, _ := os.ReadFile(path)
					if !bytes.Equal(a, b) {
						t.Errorf("%s: --fix wrote\n%s\nin its own memory\n%s", k.name, a, b)
					}
					if string(a) != files[k.name] {
						fixed++
					}
				}
			}
			if findings < 50 || past < 10 || mode.fix && fixed < 20 {
				t.Errorf("%d findings, %d files past the limit, %d fixed in %d files: the test tests little", findings, past, fixed, len(results))
			}
			t.Logf("%d files, %d findings, %d past the limit, %d fixed", len(results), findings, past, fixed)
		})
	}
}

// workerMemoryFiles returns the files of TestWorkerMemorySequence by name:
// documents with bad URLs and fixes, a directory of them with a findings
// limit of 2 (the rest counted brief, before and after --fix), and every fifth real document when
// the corpus is there.
func workerMemoryFiles(t *testing.T) map[string]string {
	files := map[string]string{"limited/.urlls.json": `{"maxFindings": 2}`}
	for i := range 30 {
		doc := fmt.Sprintf("[a](http://x.org/a%%zz%d) and http://y.org/b c|d%d\n<http://z.org/%%g%d%%20> HTTP://W.org/é%d http://x.org/%%41\n", i, i%3, i, i%2)
		doc += strings.Repeat(fmt.Sprintf("see http://v.org/%d|%%zz and http://u.org/ok%d\n", i%4, i%5), i%6)
		// Findings --fix leaves: a file past the limit after its fixes.
		doc += strings.Repeat(fmt.Sprintf("and http://[::%d/ http://user:pw@h%d.org/\n", i%3, i%4), 2+i%3)
		files[fmt.Sprintf("bad%02d.md", i)] = doc
		files[fmt.Sprintf("limited/bad%02d.md", i)] = doc
		files[fmt.Sprintf("code%02d.go", i)] = fmt.Sprintf("// see http://x.org/{a}%d\nvar s = \"http://x.org/%%g\" + x\n", i%3)
	}
	n := 0
	filepath.WalkDir(realworldDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		if n++; n%5 != 0 {
			return nil
		}
		rel, _ := filepath.Rel(realworldDir, path)
		doc, err := os.ReadFile(path)
		if err == nil {
			files[filepath.Join("realworld", rel)] = string(doc)
		}
		return nil
	})
	return files
}

// sortedNames returns the names of files but the configuration files, in
// order, with the limited directory's documents among the others.
func sortedNames(files map[string]string) []string {
	var names []string
	for name := range files {
		if !strings.HasSuffix(name, ".json") {
			names = append(names, name)
		}
	}
	// By their base names, so that the Checker goes from a document
	// with a findings limit to one without and back.
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(filepath.Base(a), filepath.Base(b)), cmp.Compare(a, b))
	})
	return names
}
