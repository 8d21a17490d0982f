package main

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/urlls/urlls/analysis/config"
	"github.com/urlls/urlls/lsp/fileio"
)

// referenceWalk is the walk as it was before it read the directories'
// listings itself: filepath.WalkDir, an lstat a file, every .gitignore,
// .git and .urlls.json looked for, the configuration looked up a file.
// TestWalkListing compares walk with it.
func (c *checker) referenceWalk(p, real string, add func(target, fs.FileInfo)) (errs []error, notices []string) {
	start, err := walkStart(real)
	if err != nil {
		return []error{err}, nil
	}
	display := func(path string) string {
		rel, err := filepath.Rel(real, path)
		if err != nil || rel == "." {
			return p
		}
		return filepath.Join(p, rel)
	}
	// The ignore states of the directories from the walked one down to the
	// one the walk is in: WalkDir goes depth first, so the parent of an
	// entry is on the stack, and what is above it has been left for good.
	type dirState struct {
		dir string
		st  *ignoreState
	}
	var stack []dirState
	err = filepath.WalkDir(real, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, pathError(display(path), err))
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		var parent *ignoreState
		if path != real {
			dir := filepath.Dir(path)
			for len(stack) > 0 && stack[len(stack)-1].dir != dir {
				stack = stack[:len(stack)-1]
			}
			if len(stack) > 0 {
				parent = stack[len(stack)-1].st
			}
		}
		if d.IsDir() {
			if path != real {
				if skipDirs[d.Name()] || parent.ignored(path, true) {
					return fs.SkipDir
				}
			} else {
				parent = start
			}
			st, err := parent.with(path, fileio.IsRepoRoot(path), true)
			if err != nil {
				errs = append(errs, err)
				return fs.SkipDir
			}
			stack = append(stack, dirState{path, st})
			return nil
		}
		if d.Name() == config.FileName || parent.ignored(path, false) {
			return nil
		}
		name := display(path)
		switch t := d.Type(); {
		case t&fs.ModeSymlink != 0:
			return nil // not followed
		case !t.IsRegular():
			// A FIFO would block the reader, a device never end: say that a
			// file the walk would have checked was skipped.
			if c.selectsIn(c.dirConfig(filepath.Dir(path), real), name, path) {
				notices = append(notices, fmt.Sprintf("%s: not a regular file (%s), skipped", name, fileio.Kind(t)))
			}
			return nil
		}
		if c.selectsIn(c.dirConfig(filepath.Dir(path), real), name, path) {
			info, _ := d.Info()
			add(target{path: name, abs: path, top: real, found: true}, info)
		}
		return nil
	})
	if err != nil {
		errs = append(errs, pathError(p, err))
	}
	return errs, notices
}

// walkRecord is what a walk reported, in order, as text to compare.
func walkRecord(errs []error, notices []string, targets []string) string {
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "error %v\n", e)
	}
	for _, n := range notices {
		fmt.Fprintf(&b, "notice %s\n", n)
	}
	for _, t := range targets {
		fmt.Fprintf(&b, "file %s\n", t)
	}
	return b.String()
}

// randomTree writes a tree of directories, documents, code, ignore files
// (some of them symbolic links, directories or FIFOs), configuration
// files, nested repositories (.git directories and files), symbolic links
// and hard links under dir, drawn from r.
func randomTree(t *testing.T, r *rand.Rand, dir string) {
	t.Helper()
	names := []string{"a.md", "b.txt", "README", "c.go", "d.rst", "e.html", "f.tmp.md", "g.adoc", "LICENSE-MIT", "notes"}
	dirNames := []string{"docs", "sub", "build", "node_modules", "vendor", "x.md", "out", "deep"}
	patterns := []string{"*.tmp.md", "build/", "/a.md", "!f.tmp.md", "sub/*.txt", "out", "docs/", "**/README", "*.go", "deep/**/b.txt", "# comment", ""}
	configs := []string{
		`{"include": ["*.go"]}`,
		`{"languages": {".txt": "markdown"}}`,
		`{"severity": {"bad-escape": "warning"}}`,
		`{"include": ["notes", "!c.go"]}`,
		`{"bad json`,
	}
	write := func(p, content string) {
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var files []string  // for hard links
	var locked []string // files and directories (the deeper first) whose permissions are taken away at the end
	var fill func(d string, depth int)
	fill = func(d string, depth int) {
		for range r.IntN(5) {
			p := filepath.Join(d, names[r.IntN(len(names))])
			write(p, badURL+"\n")
			files = append(files, p)
		}
		switch r.IntN(6) {
		case 0, 1:
			var lines []string
			for range 1 + r.IntN(3) {
				lines = append(lines, patterns[r.IntN(len(patterns))])
			}
			write(filepath.Join(d, ".gitignore"), strings.Join(lines, "\n")+"\n")
		case 2:
			if err := os.Symlink(filepath.Join(dir, "shared.gitignore"), filepath.Join(d, ".gitignore")); err != nil {
				t.Fatal(err)
			}
		case 3:
			if r.IntN(4) == 0 {
				if err := os.Mkdir(filepath.Join(d, ".gitignore"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
		}
		switch r.IntN(8) {
		case 0, 1:
			write(filepath.Join(d, config.FileName), configs[r.IntN(len(configs))])
		case 2:
			if err := syscall.Mkfifo(filepath.Join(d, "pipe.md"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if depth > 0 {
			switch r.IntN(10) {
			case 0:
				if err := os.MkdirAll(filepath.Join(d, ".git", "info"), 0o755); err != nil {
					t.Fatal(err)
				}
				write(filepath.Join(d, ".git", "info", "exclude"), patterns[r.IntN(len(patterns))]+"\n")
			case 1:
				write(filepath.Join(d, ".git"), "gitdir: /nonexistent\n")
			}
		}
		if r.IntN(4) == 0 {
			if err := os.Symlink("..", filepath.Join(d, "up")); err != nil {
				t.Fatal(err)
			}
		}
		if depth < 3 {
			for range r.IntN(4) {
				sub := filepath.Join(d, dirNames[r.IntN(len(dirNames))])
				if _, err := os.Lstat(sub); err == nil {
					continue
				}
				if err := os.Mkdir(sub, 0o755); err != nil {
					t.Fatal(err)
				}
				fill(sub, depth+1)
				if r.IntN(4) == 0 {
					locked = append(locked, sub)
				}
			}
		}
	}
	write(filepath.Join(dir, "shared.gitignore"), "*.txt\n")
	root := filepath.Join(dir, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if r.IntN(2) == 0 {
		if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fill(root, 0)
	for range r.IntN(4) {
		if len(files) == 0 {
			break
		}
		from := files[r.IntN(len(files))]
		to := filepath.Join(filepath.Dir(files[r.IntN(len(files))]), fmt.Sprintf("link%d.md", r.IntN(100)))
		if _, err := os.Lstat(to); err == nil {
			continue
		}
		if err := os.Link(from, to); err != nil {
			t.Fatal(err)
		}
	}
	// Directories that can be listed but not searched, searched but not
	// listed, or neither, and unreadable files (which only a user other
	// than root is kept out of), given back their permissions for the
	// removal of the tree.
	if len(files) > 0 && r.IntN(3) == 0 {
		locked = append([]string{files[r.IntN(len(files))]}, locked...) // before its directories
	}
	for _, p := range locked {
		mode := []fs.FileMode{0o644, 0o311, 0o000}[r.IntN(3)]
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(p, 0o755) })
	}
}

// TestWalkListing: the walk that reads the directories' listings finds the
// same files, with the same identity, errors and notices, in the same
// order, as the walk by filepath.WalkDir that looked for every ignore and
// configuration file, on random trees.
func TestWalkListing(t *testing.T) {
	for seed := range uint64(60) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			dir := t.TempDir()
			randomTree(t, rand.New(rand.NewPCG(seed, 12)), dir)
			real, err := filepath.EvalSymlinks(filepath.Join(dir, "root"))
			if err != nil {
				t.Fatal(err)
			}
			// The directory as a user may name it: absolute, relative,
			// with a trailing separator, ".".
			t.Chdir(dir)
			root := []string{filepath.Join(dir, "root"), "root", "./root/", filepath.Join(dir, "root") + "/"}[seed%4]
			if seed%5 == 0 {
				t.Chdir(real)
				root = "."
			}
			run := func(walk func(c *checker, add func(target, fs.FileInfo)) ([]error, []string)) string {
				c, err := newChecker(selectFlags{maxSize: defaultMaxSize})
				if err != nil {
					t.Fatal(err)
				}
				var targets []string
				errs, notices := walk(c, func(tg target, info fs.FileInfo) {
					id, _ := fileio.FileID(info)
					cfg, err := c.configFor(tg)
					targets = append(targets, fmt.Sprintf("%s %s %s found=%v id=%v config=%+v %v", tg.path, tg.abs, tg.top, tg.found, id, cfg, err))
				})
				return walkRecord(errs, notices, targets)
			}
			want := run(func(c *checker, add func(target, fs.FileInfo)) ([]error, []string) {
				return c.referenceWalk(root, real, add)
			})
			got := run(func(c *checker, add func(target, fs.FileInfo)) ([]error, []string) {
				return c.walk(root, real, true, add)
			})
			if got != want {
				t.Errorf("walk:\n%s\nreference:\n%s", got, want)
			}
			// Unstat'ed, the files are the same, marked to be told later.
			c, _ := newChecker(selectFlags{maxSize: defaultMaxSize})
			var n int
			c.walk(root, real, false, func(tg target, info fs.FileInfo) {
				n++
				if info != nil || !tg.identifyLater {
					t.Errorf("%s: stat'ed (%v) or not to be told later (%v)", tg.path, info != nil, tg.identifyLater)
				}
			})
			if want := strings.Count(want, "\nfile ") + strings.Count(want[:min(len(want), 5)], "file "); n != want {
				t.Errorf("%d files unstat'ed, %d stat'ed", n, want)
			}
		})
	}
}

// TestWalkHardLinks: a file reached twice in walks, under two names (hard
// links, a directory walked again inside another or through a symbolic
// link), is checked once, under its first name, whether the walks stat
// their files (when files are named too: an empty one here, which adds
// nothing to the output) or tell them by the stat of their reading.
func TestWalkHardLinks(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a/one.md":      badURL + "\n",
		"a/sub/x.md":    badURL + "\n",
		"b/three.md":    badURL + "\n",
		"c/empty.md":    "",
		"a/zzz/late.md": badURL + "\n",
		"a/sub/only.md": badURL + "\n", // one name, reached again through sublink
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	for from, to := range map[string]string{
		"a/one.md":   "a/two.md",       // the same directory
		"a/sub/x.md": "b/x-again.md",   // another walk
		"b/three.md": "a/sub/three.md", // reached first in the first walk
	} {
		if err := os.Link(p(from), p(to)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a/sub", p("sublink")); err != nil {
		t.Fatal(err)
	}
	rel := func(out string) string { return strings.ReplaceAll(out, dir+"/", "") }
	finding := ":1:20: error: \"%zz\" is not an escape: \"%\" must be followed by two hex digits [bad-escape]\n"
	for _, tt := range []struct {
		name string
		args []string
		want []string
	}{
		{"one walk", []string{p("a")}, []string{"a/one.md", "a/sub/only.md", "a/sub/three.md", "a/sub/x.md", "a/zzz/late.md"}},
		{"two walks", []string{p("a"), p("b")}, []string{"a/one.md", "a/sub/only.md", "a/sub/three.md", "a/sub/x.md", "a/zzz/late.md"}},
		{"two walks, the other way", []string{p("b"), p("a")}, []string{"b/three.md", "b/x-again.md", "a/one.md", "a/sub/only.md", "a/zzz/late.md"}},
		{"a walk inside the other", []string{p("a/sub"), p("a")}, []string{"a/sub/only.md", "a/sub/three.md", "a/sub/x.md", "a/one.md", "a/zzz/late.md"}},
		{"through a link", []string{p("sublink"), p("b")}, []string{"sublink/only.md", "sublink/three.md", "sublink/x.md"}},
		{"a walk, then a link into it", []string{p("a"), p("sublink")}, []string{"a/one.md", "a/sub/only.md", "a/sub/three.md", "a/sub/x.md", "a/zzz/late.md"}},
	} {
		var want string
		for _, f := range tt.want {
			want += f + finding
		}
		for _, named := range []bool{false, true} {
			args := tt.args
			if named {
				args = append(slices.Clone(args), p("c/empty.md"))
			}
			t.Run(fmt.Sprintf("%s/named=%v", tt.name, named), func(t *testing.T) {
				out, errOut, code := urlls(t, append([]string{"check"}, args...)...)
				if code != 1 || rel(out) != want || errOut != "" {
					t.Errorf("exit %d, stdout\n%s\nstderr %q\nwant stdout\n%s", code, rel(out), errOut, want)
				}
			})
		}
	}
}

// TestWalkVanished: a directory or a file that a listing named and that
// is gone when it is read is an error, worded as it was when the walk
// stat'ed it first; the rest of the walk goes on.
func TestWalkVanished(t *testing.T) {
	dir := writeFiles(t, map[string]string{"gone/a.md": badURL + "\n"})
	c, err := newChecker(selectFlags{maxSize: defaultMaxSize})
	if err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(dir, "gone")
	real, _ := filepath.EvalSymlinks(gone)
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	w := &walker{c: c, top: real}
	w.dir(filepath.Join(real, "sub"), "x/sub", false, &ignoreState{root: real})
	if len(w.errs) != 1 || w.errs[0].Error() != "x/sub: no such file or directory" {
		t.Errorf("errors %v", w.errs)
	}
	r := c.checkFileInto(target{path: filepath.Join(gone, "a.md"), abs: filepath.Join(real, "a.md"), top: real, found: true, identifyLater: true}, nil, nil)
	if r.err == nil || r.err.Error() != filepath.Join(gone, "a.md")+": no such file or directory" {
		t.Errorf("error %v", r.err)
	}
	if !firstReach(&r, map[fileio.ID]bool{}) {
		t.Error("a file not identified was taken as reached before")
	}
}
