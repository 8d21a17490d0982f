package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// urllsDeadline runs urlls and fails the test if it has not returned in
// 20 s: nothing urlls reads may block it.
func urllsDeadline(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		stdout, stderr, code = urllsIn(t, stdin, args...)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("urlls %v blocked", args)
	}
	return stdout, stderr, code
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCheckNotRegular: a FIFO, a socket or a device is never read: named,
// it is refused (exit 2) and the other files are checked; met by a walk
// under a name the walk checks, it is skipped with a notice; under any
// other name it is skipped silently, as a regular file of that name would be.
func TestCheckNotRegular(t *testing.T) {
	dir := writeFiles(t, map[string]string{"bad.md": badURL + "\n", "walk/ok.md": "fine\n"})
	mkfifo(t, filepath.Join(dir, "pipe.md"))
	mkfifo(t, filepath.Join(dir, "walk", "pipe.md"))
	mkfifo(t, filepath.Join(dir, "walk", "data.fifo"))
	if l, err := net.Listen("unix", filepath.Join(dir, "walk", "sock.txt")); err == nil {
		defer l.Close()
	} else {
		t.Logf("no unix socket: %v", err)
	}
	p := func(name string) string { return filepath.Join(dir, name) }

	for _, tt := range []struct {
		name   string
		args   []string
		code   int
		stderr string
		report bool // bad.md's finding is reported
	}{
		{"named FIFO", []string{p("pipe.md"), p("bad.md")}, 2,
			"urlls: check: " + p("pipe.md") + ": not a regular file (named pipe), not checked (give its content on standard input: urlls check - < " + p("pipe.md") + ")\n", true},
		{"named device", []string{os.DevNull, p("bad.md")}, 2,
			"urlls: check: /dev/null: not a regular file (character device), not checked\n", true},
		{"/dev/zero", []string{"/dev/zero"}, 2,
			"urlls: check: /dev/zero: not a regular file (character device), not checked\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := urllsDeadline(t, "", append([]string{"check"}, tt.args...)...)
			if code != tt.code || errOut != tt.stderr || strings.Contains(out, "[bad-escape]") != tt.report {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d and %q", code, out, errOut, tt.code, tt.stderr)
			}
		})
	}

	out, errOut, code := urllsDeadline(t, "", "check", p("walk"))
	want := "urlls: check: " + p("walk/pipe.md") + ": not a regular file (named pipe), skipped\n"
	if _, err := os.Stat(p("walk/sock.txt")); err == nil {
		want += "urlls: check: " + p("walk/sock.txt") + ": not a regular file (socket), skipped\n"
	}
	if code != 0 || out != "" || errOut != want {
		t.Errorf("walk: exit %d, stdout %q, stderr %q; want 0 and %q", code, out, errOut, want)
	}
}

// TestCheckMaxSize: no file or input larger than --max-size (64 MiB by
// default) is read; it is reported, exit 2, and the others are checked.
func TestCheckMaxSize(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"big.md":      strings.Repeat("x", 2048) + "\n",
		"bad.md":      badURL + "\n",
		"walk/big.md": strings.Repeat("y", 2048) + "\n",
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	// A sparse file just over the default limit: refused by its size,
	// without reading it.
	huge := p("huge.md")
	if err := os.WriteFile(huge, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, defaultMaxSize+1); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		stdin  string
		args   []string
		stderr string
		report bool
	}{
		{"default limit", "", []string{huge, p("bad.md")},
			"urlls: check: " + huge + ": larger than the size limit of 64 MiB, not checked (--max-size raises it)\n", true},
		{"--max-size", "", []string{"--max-size", "1K", p("big.md"), p("bad.md")},
			"urlls: check: " + p("big.md") + ": larger than the size limit of 1 KiB, not checked (--max-size raises it)\n", true},
		{"in a walk", "", []string{"--max-size=1000", p("walk")},
			"urlls: check: " + p("walk/big.md") + ": larger than the size limit of 1000 bytes, not checked (--max-size raises it)\n", false},
		{"standard input", strings.Repeat("z", 3000), []string{"--max-size", "2K", "-"},
			"urlls: check: <stdin>: larger than the size limit of 2 KiB, not checked (--max-size raises it)\n", false},
		{"standard input of NULs", strings.Repeat("\x00", 9000), []string{"--max-size", "8K", "-"},
			"urlls: check: <stdin>: larger than the size limit of 8 KiB, not checked (--max-size raises it)\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := urllsDeadline(t, tt.stdin, append([]string{"check"}, tt.args...)...)
			if code != 2 || errOut != tt.stderr || strings.Contains(out, "[bad-escape]") != tt.report {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, out, errOut, tt.stderr)
			}
		})
	}
	// At the limit, a file is checked.
	if out, errOut, code := urlls(t, "check", "--max-size", "23", p("bad.md")); code != 1 || errOut != "" || !strings.Contains(out, "[bad-escape]") {
		t.Errorf("at the limit: exit %d, %q, %q", code, out, errOut)
	}
	for _, bad := range []string{"0", "-1", "1.5M", "lots"} {
		if _, errOut, code := urlls(t, "check", "--max-size", bad, p("bad.md")); code != 2 || !strings.Contains(errOut, "invalid value") {
			t.Errorf("--max-size %s: exit %d, %q", bad, code, errOut)
		}
	}
	// report shares the flag.
	if _, errOut, code := urlls(t, "report", "--max-size", "1K", p("big.md")); code != 2 || !strings.Contains(errOut, "larger than the size limit of 1 KiB") {
		t.Errorf("report: exit %d, %q", code, errOut)
	}
}

// endlessReader is standard input that never ends, as /dev/zero's.
type endlessReader struct{ n int64 }

func (r *endlessReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	r.n += int64(len(p))
	return len(p), nil
}

// TestCheckEndlessInput: an input that never ends costs the size limit, not
// all the memory.
func TestCheckEndlessInput(t *testing.T) {
	in := &endlessReader{}
	var out, errOut strings.Builder
	code := run([]string{"check", "--max-size", "1M", "-"}, in, &out, &errOut)
	if code != 2 || !strings.Contains(errOut.String(), "<stdin>: larger than the size limit of 1 MiB") {
		t.Errorf("exit %d, stderr %q", code, errOut.String())
	}
	if in.n > 2<<20 {
		t.Errorf("read %d bytes for a limit of 1 MiB", in.n)
	}
}

// TestCheckSymlinks: a directory named through a symbolic link is walked,
// its files named under the link; a loop is reported; a directory or file
// reached twice is checked once; links inside a walk are not followed.
func TestCheckSymlinks(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"real/a.md":         badURL + "\n",
		"real/sub/b.md":     badURL + "\n",
		"elsewhere/c.md":    badURL + "\n",
		"elsewhere/d/e.md":  badURL + "\n",
		"hard/one.md":       badURL + "\n",
		"real/.urlls.json":  `{"severity": {"bad-escape": "warning"}}`,
		"other/.urlls.json": `{"severity": {"bad-escape": "hint"}}`,
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	for link, to := range map[string]string{
		"link":            "real",
		"other/link":      "../real", // the configuration is the directory's, not the link's
		"real/in-walk.md": "../elsewhere/c.md",
		"real/in-walk":    "../elsewhere/d",
		"loop1":           "loop2",
		"loop2":           "loop1",
		"file-link.md":    "elsewhere/c.md",
	} {
		if err := os.Symlink(to, p(link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(p("hard/one.md"), p("hard/two.md")); err != nil {
		t.Fatal(err)
	}
	rel := func(out string) string { return strings.ReplaceAll(out, dir+"/", "") }
	for _, tt := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"directory link", []string{p("link")}, 0,
			"link/a.md:1:20: warning: \"%zz\" is not an escape: \"%\" must be followed by two hex digits [bad-escape]\n" +
				"link/sub/b.md:1:20: warning: \"%zz\" is not an escape: \"%\" must be followed by two hex digits [bad-escape]\n", ""},
		{"configuration of the real directory", []string{p("other/link/a.md")}, 0,
			"other/link/a.md:1:20: warning: \"%zz\" is not an escape: \"%\" must be followed by two hex digits [bad-escape]\n", ""},
		{"a directory named twice is walked once", []string{p("link"), p("real"), p("real/sub")}, 0,
			"link/a.md:1:20: warning: \"%zz\" is not an escape: \"%\" must be followed by two hex digits [bad-escape]\n" +
				"link/sub/b.md:1:20: warning: \"%zz\" is not an escape: \"%\" must be followed by two hex digits [bad-escape]\n", ""},
		{"loop", []string{p("loop1"), p("elsewhere/c.md")}, 2,
			"elsewhere/c.md:1:20: error: \"%zz\" is not an escape: \"%\" must be followed by two hex digits [bad-escape]\n",
			"urlls: check: " + p("loop1") + ": a loop of symbolic links, not checked\n"},
		{"file link", []string{p("file-link.md")}, 1,
			"file-link.md:1:20: error: \"%zz\" is not an escape: \"%\" must be followed by two hex digits [bad-escape]\n", ""},
		{"hard links are one file", []string{p("hard/one.md"), p("hard/two.md")}, 1,
			"hard/one.md:1:20: error: \"%zz\" is not an escape: \"%\" must be followed by two hex digits [bad-escape]\n", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := urllsDeadline(t, "", append([]string{"check"}, tt.args...)...)
			if code != tt.code || rel(out) != tt.stdout || errOut != tt.stderr {
				t.Errorf("exit %d, stdout\n%s\nstderr %q\nwant %d, stdout\n%s\nstderr %q", code, rel(out), errOut, tt.code, tt.stdout, tt.stderr)
			}
		})
	}
}

// TestConfigLookup: a .urlls.json is read up to the repository's root and,
// outside a repository, up to the directory named (or the named file's
// directory); never above, and never one of another user or one that is
// not a regular file.
func TestConfigLookup(t *testing.T) {
	const off = `{"ignore": ["*"]}` // what a stranger would drop into /tmp
	dir := writeFiles(t, map[string]string{
		".urlls.json":             off, // above the repository and the others
		"shared/.urlls.json":      off,
		"shared/x/doc.md":         badURL + "\n",
		"repo/.git/HEAD":          "ref: refs/heads/main\n",
		"repo/.urlls.json":        `{"severity": {"bad-escape": "warning"}}`,
		"repo/docs/deep/doc.md":   badURL + "\n",
		"repo/fifo/doc.md":        badURL + "\n",
		"repo/bigcfg/.urlls.json": `{"ignore": ["` + strings.Repeat("x", 1<<20) + `"]}`,
		"repo/bigcfg/doc.md":      badURL + "\n",
		"repo/broken/.urlls.json": "{\n  \"ignore\": [\"strict\"],\n  \"strict\": 1\n}\n",
		"repo/broken/doc.md":      badURL + "\n",
		"plain/.urlls.json":       `{"severity": {"bad-escape": "hint"}}`,
		"plain/sub/doc.md":        badURL + "\n",
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	mkfifo(t, p("repo/fifo/.urlls.json"))
	rel := func(out string) string { return strings.ReplaceAll(out, dir+"/", "") }
	msg := `"%zz" is not an escape: "%" must be followed by two hex digits [bad-escape]`
	for _, tt := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"a shared directory above a file named", []string{p("shared/x/doc.md")}, 1,
			"shared/x/doc.md:1:20: error: " + msg + "\n", ""},
		{"a shared directory above a directory named", []string{p("shared/x")}, 1,
			"shared/x/doc.md:1:20: error: " + msg + "\n", ""},
		{"the directory named", []string{p("shared")}, 0, "", ""},
		{"up to the repository's root", []string{p("repo/docs/deep/doc.md")}, 0,
			"repo/docs/deep/doc.md:1:20: warning: " + msg + "\n", ""},
		{"outside a repository, not above the directory named", []string{p("plain/sub")}, 1,
			"plain/sub/doc.md:1:20: error: " + msg + "\n", ""},
		{"outside a repository, the directory named", []string{p("plain")}, 0,
			"plain/sub/doc.md:1:20: hint: " + msg + "\n", ""},
		{"a FIFO is ignored, and the lookup goes on", []string{p("repo/fifo/doc.md")}, 0,
			"repo/fifo/doc.md:1:20: warning: " + msg + "\n",
			"urlls: check: warning: " + p("repo/fifo/.urlls.json") + ": ignored: not a regular file (named pipe)\n"},
		{"too large", []string{p("repo/bigcfg/doc.md")}, 2, "",
			"urlls: check: " + p("repo/bigcfg/.urlls.json") + ": larger than 1 MiB\n"},
		{"an error at its line", []string{p("repo/broken/doc.md")}, 2, "",
			"urlls: check: " + p("repo/broken/.urlls.json") + ":3:3: \"strict\" must be true or false\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := urllsDeadline(t, "", append([]string{"check"}, tt.args...)...)
			if code != tt.code || rel(out) != tt.stdout || errOut != tt.stderr {
				t.Errorf("exit %d, stdout\n%s\nstderr %q\nwant %d, stdout\n%s\nstderr %q", code, rel(out), errOut, tt.code, tt.stdout, tt.stderr)
			}
		})
	}

	// --config names a file to use: it must be a regular file.
	mkfifo(t, p("cfg.fifo"))
	if _, errOut, code := urllsDeadline(t, "", "check", "--config", p("cfg.fifo"), p("shared")); code != 2 || errOut != "urlls: check: "+p("cfg.fifo")+": not a regular file (named pipe)\n" {
		t.Errorf("--config FIFO: exit %d, %q", code, errOut)
	}
	// A FIFO named .gitignore does not block the walk.
	mkfifo(t, p("plain/sub/.gitignore"))
	if _, errOut, code := urllsDeadline(t, "", "check", p("plain/sub")); code != 2 || !strings.Contains(errOut, ".gitignore: not a regular file (named pipe)") {
		t.Errorf(".gitignore FIFO: exit %d, %q", code, errOut)
	}

	if os.Getuid() != 0 {
		t.Log("not root: the configuration file of another user is tested in lsp/fileio")
		return
	}
	// Another user's file is ignored, with a warning; --config takes it.
	other := writeFiles(t, map[string]string{".git/HEAD": "", ".urlls.json": off, "doc.md": badURL + "\n"})
	if err := os.Chown(filepath.Join(other, ".urlls.json"), 12345, 12345); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := urlls(t, "check", filepath.Join(other, "doc.md"))
	if code != 1 || !strings.Contains(out, "[bad-escape]") ||
		errOut != "urlls: check: warning: "+filepath.Join(other, ".urlls.json")+": ignored: owned by another user (uid 12345); urlls reads only the configuration files of the current user or root (name it with --config to use it anyway)\n" {
		t.Errorf("another user's file: exit %d, %q, %q", code, out, errOut)
	}
	if out, errOut, code := urlls(t, "check", "--config", filepath.Join(other, ".urlls.json"), filepath.Join(other, "doc.md")); code != 0 || out != "" || errOut != "" {
		t.Errorf("--config: exit %d, %q, %q", code, out, errOut)
	}
}

// TestCheckLang: --lang must be a language urlls knows, or one the
// configuration's "languages" names.
func TestCheckLang(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"doc.cob":     "      * see " + badURL + "\n",
		"cobol.json":  `{"languages": {".cob": "cobol"}}`,
		"doc.md":      "[x](" + badURL + ")\n",
		"program.txt": "// " + badURL + "\n",
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	_, errOut, code := urlls(t, "check", "--lang", "cobol", p("doc.cob"))
	if code != 2 || !strings.HasPrefix(errOut, "urlls: check: unknown language cobol for --lang (known: adoc, asciidoc, ") ||
		!strings.Contains(errOut, " markdown, ") || !strings.Contains(errOut, "\nUsage: urlls check ") {
		t.Errorf("--lang cobol: exit %d, stderr %q", code, errOut)
	}
	if _, errOut, code := urlls(t, "report", "--lang", "cobol", p("doc.cob")); code != 2 || !strings.Contains(errOut, "unknown language cobol") {
		t.Errorf("report --lang cobol: exit %d, stderr %q", code, errOut)
	}
	for _, args := range [][]string{
		{"--lang", "cobol", "--config", p("cobol.json"), p("doc.cob")},
		{"--lang", "Markdown", p("doc.md")},
		{"--lang", "go", p("program.txt")},
	} {
		if out, errOut, code := urlls(t, append([]string{"check"}, args...)...); code != 1 || errOut != "" || !strings.Contains(out, "[bad-escape]") {
			t.Errorf("check %v: exit %d, %q, %q", args, code, out, errOut)
		}
	}
}
