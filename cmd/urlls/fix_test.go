package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/urlls/urlls/analysis/checks"
	"github.com/urlls/urlls/analysis/config"
)

// TestMain runs the test binary as urlls itself when a test asks for it
// (childHookEnv): the kill tests need a process to kill.
func TestMain(m *testing.M) {
	if hook := os.Getenv(childHookEnv); hook != "" {
		pause := func(string) {
			fmt.Fprintln(os.Stderr, childPaused)
			time.Sleep(time.Second)
		}
		switch hook {
		case "in-write":
			testHookInWrite = pause
		case "before-verify":
			testHookBeforeVerify = pause
		}
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

const (
	// childHookEnv names the test hook where the child pauses.
	childHookEnv = "URLLS_TEST_CHILD_HOOK"
	// childPaused is what the child prints on stderr when it pauses.
	childPaused = "urlls-test: paused"
)

const (
	// fixMe holds an error whose fix grows the file (%zz -> %25zz) and one
	// whose fix shrinks it (hhttps -> https), between lines that no fix
	// touches.
	fixMe = "Keep this.\nSee hhttps://example.org/x and http://example.org/a%zz here.\nKeep that.\n"
	fixed = "Keep this.\nSee https://example.org/x and http://example.org/a%25zz here.\nKeep that.\n"
)

// dirNames lists the names in dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestFixKeepsTheFile: --fix writes in place: the file keeps its inode,
// mode, owner, hard links and extended attributes, a symbolic link stays a
// link to the file it fixes, and nothing else is created.
func TestFixKeepsTheFile(t *testing.T) {
	for _, tt := range []struct {
		name string
		// prepare makes the file at path what the case tests, and returns
		// the path to name on the command line and a check of the result.
		prepare func(t *testing.T, path string) (arg string, check func(t *testing.T))
	}{
		{"mode", func(t *testing.T, path string) (string, func(*testing.T)) {
			if err := os.Chmod(path, 0o640); err != nil {
				t.Fatal(err)
			}
			return path, func(t *testing.T) {
				if info, _ := os.Stat(path); info.Mode() != 0o640 {
					t.Errorf("mode %v, want -rw-r-----", info.Mode())
				}
			}
		}},
		{"hard link", func(t *testing.T, path string) (string, func(*testing.T)) {
			other := filepath.Join(t.TempDir(), "other-name.md")
			if err := os.Link(path, other); err != nil {
				t.Fatal(err)
			}
			return path, func(t *testing.T) {
				a, _ := os.Stat(path)
				b, _ := os.Stat(other)
				if !os.SameFile(a, b) || a.Sys().(*syscall.Stat_t).Nlink != 2 {
					t.Errorf("the hard link is broken")
				}
				if got, _ := os.ReadFile(other); string(got) != fixed {
					t.Errorf("the other name reads:\n%s", got)
				}
			}
		}},
		{"symbolic link", func(t *testing.T, path string) (string, func(*testing.T)) {
			link := filepath.Join(t.TempDir(), "link.md")
			if err := os.Symlink(path, link); err != nil {
				t.Fatal(err)
			}
			return link, func(t *testing.T) {
				info, err := os.Lstat(link)
				if err != nil || info.Mode()&os.ModeSymlink == 0 {
					t.Errorf("the link is no more a link: %v %v", info.Mode(), err)
				}
				if to, _ := os.Readlink(link); to != path {
					t.Errorf("the link points to %s", to)
				}
				if got, _ := os.ReadFile(link); string(got) != fixed {
					t.Errorf("through the link:\n%s", got)
				}
			}
		}},
		{"extended attribute", func(t *testing.T, path string) (string, func(*testing.T)) {
			if err := syscall.Setxattr(path, "user.urlls-test", []byte("kept"), 0); err != nil {
				t.Skipf("the file system of %s has no user extended attributes: %v", path, err)
			}
			return path, func(t *testing.T) {
				buf := make([]byte, 64)
				n, err := syscall.Getxattr(path, "user.urlls-test", buf)
				if err != nil || string(buf[:n]) != "kept" {
					t.Errorf("extended attribute: %q, %v", buf[:max(n, 0)], err)
				}
			}
		}},
		{"owner", func(t *testing.T, path string) (string, func(*testing.T)) {
			if os.Getuid() != 0 {
				t.Skip("giving a file to another user needs root")
			}
			if err := os.Chown(path, 12345, 23456); err != nil {
				t.Fatal(err)
			}
			return path, func(t *testing.T) {
				info, _ := os.Stat(path)
				if st := info.Sys().(*syscall.Stat_t); st.Uid != 12345 || st.Gid != 23456 {
					t.Errorf("owner %d:%d, want 12345:23456", st.Uid, st.Gid)
				}
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"doc.md": fixMe})
			path := filepath.Join(dir, "doc.md")
			arg, check := tt.prepare(t, path)
			before, _ := os.Stat(path)
			names := dirNames(t, dir)
			out, errOut, code := urlls(t, "check", "--fix", arg)
			if code != 0 || out != "" || errOut != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
			}
			if got, _ := os.ReadFile(path); string(got) != fixed {
				t.Errorf("fixed file:\n%s\nwant:\n%s", got, fixed)
			}
			if after, _ := os.Stat(path); !os.SameFile(before, after) {
				t.Errorf("the file was replaced by another")
			}
			if got := dirNames(t, dir); !slices.Equal(got, names) {
				t.Errorf("files %v after the fix, want %v", got, names)
			}
			check(t)
		})
	}
}

// TestFixRefuses: a read-only file and a file changed since urlls read it
// are not written; each is reported (exit 2) with its findings, and the
// other files are fixed.
func TestFixRefuses(t *testing.T) {
	t.Run("read-only", func(t *testing.T) {
		dir := writeFiles(t, map[string]string{"ro.md": fixMe, "rw.md": fixMe})
		ro := filepath.Join(dir, "ro.md")
		if err := os.Chmod(ro, 0o444); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := urlls(t, "check", "--fix", ro, filepath.Join(dir, "rw.md"))
		want := "urlls: check: " + ro + ": read-only file (mode 0444), not fixed: make it writable (chmod u+w) to have it fixed\n"
		if code != 2 || errOut != want || strings.Count(out, ro+":") != 2 || strings.Contains(out, "rw.md") {
			t.Errorf("exit %d, stdout %q, stderr %q; want 2, the findings of ro.md and %q", code, out, errOut, want)
		}
		if got, _ := os.ReadFile(ro); string(got) != fixMe {
			t.Errorf("the read-only file was written:\n%s", got)
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "rw.md")); string(got) != fixed {
			t.Errorf("the other file was not fixed:\n%s", got)
		}
	})
	t.Run("changed meanwhile", func(t *testing.T) {
		dir := writeFiles(t, map[string]string{"doc.md": fixMe})
		path := filepath.Join(dir, "doc.md")
		theirs := fixMe + "Their new line.\n"
		testHookBeforeVerify = func(p string) {
			if err := os.WriteFile(p, []byte(theirs), 0o644); err != nil {
				t.Error(err)
			}
		}
		defer func() { testHookBeforeVerify = nil }()
		out, errOut, code := urlls(t, "check", "--fix", path)
		want := "urlls: check: " + path + ": changed since urlls read it, not fixed (check it again)\n"
		if code != 2 || errOut != want || !strings.Contains(out, "[bad-escape]") {
			t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, out, errOut, want)
		}
		if got, _ := os.ReadFile(path); string(got) != theirs {
			t.Errorf("their edit was overwritten:\n%s", got)
		}
	})
	t.Run("changed to the same length", func(t *testing.T) {
		dir := writeFiles(t, map[string]string{"doc.md": fixMe})
		path := filepath.Join(dir, "doc.md")
		theirs := strings.Replace(fixMe, "Keep that.", "Kept that.", 1)
		testHookBeforeVerify = func(p string) { os.WriteFile(p, []byte(theirs), 0o644) }
		defer func() { testHookBeforeVerify = nil }()
		if _, _, code := urlls(t, "check", "--fix", path); code != 2 {
			t.Errorf("exit %d", code)
		}
		if got, _ := os.ReadFile(path); string(got) != theirs {
			t.Errorf("their edit was overwritten:\n%s", got)
		}
	})
}

// TestFixKilled: a SIGTERM (or SIGINT) during the write waits for the
// write to end: the file is whole, and urlls then dies of the signal. A
// SIGKILL before the write leaves the file as it was. Either way nothing
// is left behind.
func TestFixKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("runs urlls as a process")
	}
	sigs := []syscall.Signal{syscall.SIGTERM}
	if !signal.Ignored(syscall.SIGINT) {
		sigs = append(sigs, syscall.SIGINT)
	}
	type kill struct {
		hook string
		sig  syscall.Signal
		want string // the file's content after
	}
	var kills []kill
	for _, s := range sigs {
		kills = append(kills, kill{"in-write", s, fixed}, kill{"before-verify", s, fixMe})
	}
	kills = append(kills, kill{"before-verify", syscall.SIGKILL, fixMe})
	for _, k := range kills {
		t.Run(k.hook+"/"+k.sig.String(), func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"doc.md": fixMe})
			path := filepath.Join(dir, "doc.md")
			cmd := exec.Command(os.Args[0], "check", "--fix", path)
			cmd.Env = append(os.Environ(), childHookEnv+"="+k.hook)
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(stderr)
			paused := false
			for !paused && sc.Scan() {
				paused = sc.Text() == childPaused
			}
			if !paused {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatal("urlls did not reach the hook")
			}
			if err := cmd.Process.Signal(k.sig); err != nil {
				t.Fatal(err)
			}
			for sc.Scan() {
				t.Logf("stderr: %s", sc.Text())
			}
			err = cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("urlls ended with %v, want killed by %v", err, k.sig)
			}
			if ws := ee.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != k.sig {
				t.Errorf("urlls ended with %v, want killed by %v", err, k.sig)
			}
			if got, _ := os.ReadFile(path); string(got) != k.want {
				t.Errorf("file after the kill:\n%s\nwant:\n%s", got, k.want)
			}
			if got := dirNames(t, dir); !slices.Equal(got, []string{"doc.md"}) {
				t.Errorf("left behind: %v", got)
			}
		})
	}
}

// fuzzNames are the names FuzzFix gives its documents, one per language.
var fuzzNames = []string{"doc.md", "doc.html", "doc.txt", "doc.rst", "doc.adoc", "doc.go", "doc.py"}

// FuzzFix: --fix on any document writes exactly the fix-all (config.FixAll)
// into the same file: every byte outside the edits is kept, in order, and
// re-checking the fixed document finds none of the findings it fixed.
func FuzzFix(f *testing.F) {
	for _, s := range []string{
		fixMe,
		"[a](http://x.org/a b) <http://x.org/%zz> htps://x.org/ http://x.org/|y\n",
		"<a href=\"http://x.org/a%zz&amp;b\">x</a> <img src='hhttps://x.org/i.png'>\n",
		"// see http://x.org/{a}\nvar s = \"http://x.org/%g\"\n",
		"`Link <http://x.org/a%zz>`_\n.. _t: http://x.org/a b\n",
		"https://x.org/a%zz[text] link:http://x.org/|x[y]\n",
		"crlf http://x.org/%zz\r\nnext http://x.org/%\r\n",
		"nul \x00 http://x.org/%zz\n",
		"",
	} {
		for i := range fuzzNames {
			f.Add([]byte(s), uint8(i))
		}
	}
	f.Fuzz(func(t *testing.T, doc []byte, which uint8) {
		if len(doc) > 1<<16 {
			return
		}
		dir := t.TempDir()
		path := filepath.Join(dir, fuzzNames[int(which)%len(fuzzNames)])
		if err := os.WriteFile(path, doc, 0o640); err != nil {
			t.Fatal(err)
		}
		before, _ := os.Stat(path)
		c, err := newChecker(selectFlags{maxSize: defaultMaxSize})
		if err != nil {
			t.Fatal(err)
		}
		c.fix = true
		r := c.checkFileInto(target{path: path, abs: path, top: dir, named: true}, nil, nil)
		if r.err != nil || r.fixErr != nil {
			t.Fatalf("check --fix: %v %v", r.err, r.fixErr)
		}
		got, _ := os.ReadFile(path)
		if r.binary != "" {
			if !bytes.Equal(got, doc) {
				t.Fatal("a binary file was written")
			}
			return
		}

		// The fix-all, computed again.
		lang := languageOf(path, "", config.Config{})
		findings := checkApply(config.Config{}, doc, lang)
		edits, _ := config.FixAll(findings)
		var want []byte
		last := 0
		for _, e := range edits {
			if e.Start < last || e.End < e.Start || e.End > len(doc) {
				t.Fatalf("edits out of order, overlapping or out of the document: %+v", edits)
			}
			want = append(want, doc[last:e.Start]...) // kept as it was
			want = append(want, e.NewText...)
			last = e.End
		}
		want = append(want, doc[last:]...)
		if !bytes.Equal(got, want) {
			t.Fatalf("the file holds\n%q\nwant\n%q", got, want)
		}
		if !bytes.Equal(r.doc, got) {
			t.Fatalf("checked\n%q\nbut wrote\n%q", r.doc, got)
		}
		after, _ := os.Stat(path)
		if !os.SameFile(before, after) || after.Mode() != before.Mode() {
			t.Fatalf("the file was replaced or its mode changed: %v -> %v", before.Mode(), after.Mode())
		}
		if names := dirNames(t, dir); len(names) != 1 {
			t.Fatalf("files in the directory: %v", names)
		}

		// None of the findings fixed is found again where it was.
		refound := checkApply(config.Config{}, got, lang)
		for _, fd := range findings {
			if !fixApplied(fd, edits) {
				continue
			}
			at := mapOffset(edits, fd.Start)
			for _, g := range refound {
				if g.Code == fd.Code && g.Start == at {
					t.Errorf("fixed %s at %d (%q) is found again at %d: %s\ndocument %q\nfixed %q", fd.Code, fd.Start, fd.URL, at, g.Message, doc, got)
				}
			}
		}
	})
}

// fixApplied reports whether one of the fixes of fd is among edits, whole.
func fixApplied(fd config.Finding, edits []checks.TextEdit) bool {
	for _, fx := range fd.SuggestedFixes {
		all := len(fx.Edits) > 0
		for _, e := range fx.Edits {
			all = all && slices.Contains(edits, e)
		}
		if all {
			return true
		}
	}
	return false
}

// mapOffset maps an offset of the document before edits to the fixed one:
// an offset inside an edit goes to the edit's start.
func mapOffset(edits []checks.TextEdit, off int) int {
	shift := 0
	for _, e := range edits {
		switch {
		case e.End <= off && e.Start < off:
			shift += len(e.NewText) - (e.End - e.Start)
		case e.Start <= off && off < e.End:
			return e.Start + shift
		}
	}
	return off + shift
}
