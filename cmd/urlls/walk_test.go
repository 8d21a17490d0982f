package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// checked runs urlls check with args and returns the files it reported a
// finding in, relative to dir, sorted: with every file holding badURL, the
// files it checked.
func checked(t *testing.T, dir string, args ...string) []string {
	t.Helper()
	out, errOut, code := urlls(t, append([]string{"check"}, args...)...)
	if errOut != "" || (code != 0 && code != 1) {
		t.Fatalf("urlls check %v: exit %d, stderr %q", args, code, errOut)
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		path, _, _ := strings.Cut(line, ":")
		rel, err := filepath.Rel(dir, path)
		if err != nil { // a relative path, from a walk of "."
			rel = path
		}
		seen[filepath.ToSlash(rel)] = true
	}
	var files []string
	for f := range seen {
		files = append(files, f)
	}
	slices.Sort(files)
	return files
}

// withBadURLs gives each named file badURL in quotes (a string literal in
// code, text in a document), the others their own content.
func withBadURLs(names []string, others map[string]string) map[string]string {
	files := map[string]string{}
	for _, n := range names {
		files[n] = `"` + badURL + `"` + "\n"
	}
	for n, c := range others {
		files[n] = c
	}
	return files
}

func TestWalkGitignore(t *testing.T) {
	dir := writeFiles(t, withBadURLs([]string{
		"rootonly.md",
		"site/docs/a.md",
		"site/docs/x.tmp.md",
		"site/docs/keep.tmp.md",
		"site/docs/build/b.md",
		"site/docs/build.md",
		"site/docs/rootonly.md",
		"site/docs/generated/g.md",
		"site/docs/excluded-by-info.md",
		"site/docs/out/o.md",
		"site/docs/p.draft.md",
		"site/docs/important.draft.md",
		"site/docs/sub/local.md",
		"site/docs/sub/other.md",
		"site/docs/sub/p2.draft.md",
		"site/docs/sub/p3.draft.md",
		"site/docs/deep/er/z.log.md",
		"site/docs/nested/x.tmp.md",
		"site/docs/nested/y.md",
		"site/docs/nested2/x.tmp.md",
	}, map[string]string{
		".git/info/exclude": "# the repository's own rules\nexcluded-by-info.md\n",
		".gitignore": "# a comment, then a blank line\n\n" +
			"*.tmp.md\n" +
			"build/\n" +
			"/rootonly.md\n" +
			"site/docs/generated/\n" +
			"!keep.tmp.md\n" +
			"**/er/*.log.md\n",
		"site/.gitignore":          "docs/out/\n",
		"site/docs/.gitignore":     "\xEF\xBB\xBF*.draft.md\r\n!important.draft.md\r\nsub/local.md\r\n",
		"site/docs/sub/.gitignore": "!p2.draft.md\n",
		"site/docs/nested/.git":    "gitdir: /nowhere\n", // another repository: the rules above stop there
		"site/docs/nested2/.git":   "not a gitdir line\n",
	}))
	docs := filepath.Join(dir, "site", "docs")
	want := []string{
		"a.md",
		"build.md",           // build/ is for directories
		"important.draft.md", // taken back by the "!" line after the one that ignores it
		"keep.tmp.md",        // taken back in the root's .gitignore
		"nested/x.tmp.md",    // another repository's root: *.tmp.md is not its rule
		"nested/y.md",
		"nested2/x.tmp.md",
		"rootonly.md", // /rootonly.md is anchored at the repository's root
		"sub/other.md",
		"sub/p2.draft.md", // a deeper .gitignore takes it back
	}
	for _, tc := range []struct{ name, arg string }{
		{"walk below the root", docs},
		{"trailing slash", docs + string(filepath.Separator)},
		{"unclean path", filepath.Join(dir, "site") + string(filepath.Separator) + "." + string(filepath.Separator) + "docs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := checked(t, docs, tc.arg); !slices.Equal(got, want) {
				t.Errorf("checked\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
	t.Run("from the root", func(t *testing.T) {
		got := checked(t, dir, dir)
		if slices.Contains(got, "rootonly.md") || !slices.Contains(got, "site/docs/rootonly.md") {
			t.Errorf("/rootonly.md: checked %v", got)
		}
		if slices.Contains(got, "site/docs/excluded-by-info.md") || slices.Contains(got, "site/docs/out/o.md") {
			t.Errorf("info/exclude or site/.gitignore not applied: checked %v", got)
		}
	})
	t.Run("named files are checked even if ignored", func(t *testing.T) {
		got := checked(t, docs, filepath.Join(docs, "x.tmp.md"), filepath.Join(docs, "build", "b.md"))
		if !slices.Equal(got, []string{"build/b.md", "x.tmp.md"}) {
			t.Errorf("checked %v", got)
		}
	})
	t.Run("a named directory is walked even if ignored", func(t *testing.T) {
		if got := checked(t, docs, filepath.Join(docs, "build")); !slices.Equal(got, []string{"build/b.md"}) {
			t.Errorf("checked %v", got)
		}
		if got := checked(t, docs, filepath.Join(docs, "generated")); !slices.Equal(got, []string{"generated/g.md"}) {
			t.Errorf("checked %v", got)
		}
	})
}

// TestWalkGitignoreWorktree: in a worktree, .git is a file and info/exclude
// is the main repository's.
func TestWalkGitignoreWorktree(t *testing.T) {
	dir := writeFiles(t, withBadURLs([]string{"wt/a.md", "wt/secret.md"}, map[string]string{
		"main/.git/info/exclude":           "secret.md\n",
		"main/.git/worktrees/wt/commondir": "../..\n",
		"wt/.git":                          "gitdir: ../main/.git/worktrees/wt\n",
	}))
	wt := filepath.Join(dir, "wt")
	if got := checked(t, wt, wt); !slices.Equal(got, []string{"a.md"}) {
		t.Errorf("checked %v", got)
	}
}

// TestWalkOutsideRepository: without .git, the .gitignore files of the
// walked directory apply, those above it do not.
func TestWalkOutsideRepository(t *testing.T) {
	dir := writeFiles(t, withBadURLs([]string{"top/a.md", "top/b.tmp.md", "top/sub/c.md"}, map[string]string{
		".gitignore":     "sub/\n",
		"top/.gitignore": "*.tmp.md\n",
	}))
	top := filepath.Join(dir, "top")
	if got := checked(t, top, top); !slices.Equal(got, []string{"a.md", "sub/c.md"}) {
		t.Errorf("checked %v", got)
	}
}

func TestWalkDocuments(t *testing.T) {
	documents := []string{
		"README", "LICENSE", "LICENSE-MIT", "COPYING.LIB", "ChangeLog", "CODE_OF_CONDUCT", "README.ja",
		"a.md", "b.markdown", "c.mdx", "d.rst", "e.adoc", "f.asciidoc", "g.html", "h.htm", "i.xhtml",
		"j.txt", "k.text", "UPPER.MD",
		"custom/x.notes", // .urlls.json maps .notes to markdown
	}
	others := []string{
		"main.go", "script.py", "app.js", "conf.yml", "conf.yaml", "data.json", "Makefile", "Dockerfile",
		"CMakeLists.txt", "run", ".envrc", ".gitignore.md.bak", "x.unknownext", "y.notes", "style.css",
	}
	dir := writeFiles(t, withBadURLs(append(append([]string{}, documents...), others...), map[string]string{
		"custom/.urlls.json": `{"languages": {".notes": "markdown"}}`,
	}))
	want := slices.Clone(documents)
	slices.Sort(want)
	if got := checked(t, dir, dir); !slices.Equal(got, want) {
		t.Errorf("checked\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// --lang says how to read the files, not which: a walk with --lang
	// markdown still leaves the code alone.
	if got := checked(t, dir, "--lang", "markdown", dir); slices.Contains(got, "main.go") {
		t.Errorf("--lang selected code: %v", got)
	}
}

func TestWalkInclude(t *testing.T) {
	dir := writeFiles(t, withBadURLs([]string{
		"README.md", "main.go", "gen.go", "x.py", "docs/a/b.yaml", "docs/c.yaml", "other/c.yaml",
		"ignored/i.go", "own/o.go", "own/o.md",
	}, map[string]string{
		".urlls.json":     `{"include": ["*.go", "docs/**/*.yaml", "!gen.go"]}`,
		".gitignore":      "ignored/\n",
		".git/HEAD":       "ref: refs/heads/main\n",
		"own/.urlls.json": `{}`, // the nearest configuration wins whole: no include here
		"cfg/alt.json":    `{"include": ["/other/*.yaml"]}`,
		"alt.json":        `{"include": ["/other/*.yaml"]}`,
	}))
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"configuration", []string{dir}, []string{"README.md", "docs/a/b.yaml", "docs/c.yaml", "main.go", "own/o.md"}},
		{"--include adds", []string{"--include", "*.py", "--include=*.yaml", dir},
			[]string{"README.md", "docs/a/b.yaml", "docs/c.yaml", "main.go", "other/c.yaml", "own/o.md", "x.py"}},
		{"--include after the paths", []string{dir, "--include", "o.go"},
			[]string{"README.md", "docs/a/b.yaml", "docs/c.yaml", "main.go", "own/o.go", "own/o.md"}},
		{"--config's patterns are relative to its directory", []string{"--config", filepath.Join(dir, "alt.json"), dir},
			[]string{"README.md", "other/c.yaml", "own/o.md"}},
		{"--config's patterns are relative to its directory (elsewhere)", []string{"--config", filepath.Join(dir, "cfg", "alt.json"), dir},
			[]string{"README.md", "own/o.md"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := checked(t, dir, tc.args...); !slices.Equal(got, tc.want) {
				t.Errorf("checked\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
	t.Run("--include is relative to the current directory", func(t *testing.T) {
		t.Chdir(dir)
		got := checked(t, dir, "--include", "other/*.yaml", "--include", "/x.py", ".")
		want := []string{"README.md", "docs/a/b.yaml", "docs/c.yaml", "main.go", "other/c.yaml", "own/o.md", "x.py"}
		if !slices.Equal(got, want) {
			t.Errorf("checked\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
	t.Run("a bad --include is a usage error", func(t *testing.T) {
		for _, p := range []string{"", " ", "#x"} {
			_, errOut, code := urlls(t, "check", "--include", p, dir)
			if code != 2 || !strings.HasPrefix(errOut, "urlls: check: invalid value") {
				t.Errorf("--include %q: exit %d, stderr %q", p, code, errOut)
			}
		}
	})
	t.Run("a broken configuration is still reported", func(t *testing.T) {
		bad := writeFiles(t, withBadURLs([]string{"a.md", "b.go"}, map[string]string{".urlls.json": `{"include": "*.go"}`}))
		out, errOut, code := urlls(t, "check", bad)
		if code != 2 || out != "" || strings.Count(errOut, `"include" must be a list of file patterns`) != 1 {
			t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
		}
	})
}
