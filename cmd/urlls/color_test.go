//go:build linux

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// ansi matches the escape sequences of colour (SGR) and of line clearing.
var ansi = regexp.MustCompile(`\x1b\[[0-9;]*[mK]`)

// terminalRun runs urlls in-process with stdout and stderr each either a
// pseudo-terminal (true) or a pipe, as a shell would start it, and returns
// what each received (a terminal's "\r\n" read back as "\n").
func terminalRun(t *testing.T, stdoutTTY, stderrTTY bool, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var wg sync.WaitGroup
	open := func(tty bool) (w *os.File, out *bytes.Buffer) {
		var r *os.File
		if tty {
			r, w = openPTYPair(t)
		} else {
			var err error
			if r, w, err = os.Pipe(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { r.Close() })
		}
		out = &bytes.Buffer{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			io.Copy(out, r) // until the writing side is closed (EIO for a terminal)
		}()
		return w, out
	}
	ow, obuf := open(stdoutTTY)
	ew, ebuf := open(stderrTTY)
	code = run(args, strings.NewReader(""), ow, ew)
	ow.Close()
	ew.Close()
	wg.Wait()
	crlf := strings.NewReplacer("\r\n", "\n")
	return crlf.Replace(obuf.String()), crlf.Replace(ebuf.String()), code
}

// TestColor: the text output is coloured on a terminal, unless NO_COLOR is
// set or TERM is dumb, and never in a pipe; --color always or never
// overrides all that; the formats read by tools are never coloured. The
// colours change nothing else.
func TestColor(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "xterm-256color")
	demo := "../../testdata/demo"
	plain, plainErr, code := urllsAll(t, "", "check", demo)
	if code != 1 || ansi.MatchString(plain+plainErr) {
		t.Fatalf("in a buffer: exit %d, colour in %q", code, plain+plainErr)
	}

	out, errOut, code := terminalRun(t, true, true, "check", demo)
	if code != 1 {
		t.Errorf("exit %d", code)
	}
	for _, want := range []string{
		"\x1b[1m../../testdata/demo/guide.md:4:54:\x1b[22m \x1b[31;1merror:\x1b[0;22m",
		"\x1b[33;1mwarning:", "\x1b[34;1minformation:", "\x1b[36;1mhint:", "\x1b[2m[bad-escape]\x1b[22m",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("on a terminal, stdout lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "\x1b[31;1m6 errors\x1b[0;22m") {
		t.Errorf("on a terminal, the summary is not coloured: %q", errOut)
	}
	if got := ansi.ReplaceAllString(out, ""); got != plain {
		t.Errorf("the colours changed the text:\n%s\nwant\n%s", got, plain)
	}
	if got := ansi.ReplaceAllString(errOut, ""); got != plainErr {
		t.Errorf("the colours changed the summary: %q, want %q", got, plainErr)
	}

	// Each stream is decided on its own: stdout piped (| less, | grep),
	// stderr at the terminal.
	out, errOut, _ = terminalRun(t, false, true, "check", demo)
	if out != plain || !ansi.MatchString(errOut) {
		t.Errorf("stdout in a pipe: %q (want it plain), stderr %q (want colour)", out, errOut)
	}

	for _, tt := range []struct {
		name, noColor, term string
		args                []string
		color               bool
	}{
		{"NO_COLOR", "1", "xterm", nil, false},
		{"TERM=dumb", "", "dumb", nil, false},
		{"--color never", "", "xterm", []string{"--color", "never"}, false},
		{"--color always over NO_COLOR", "1", "xterm", []string{"--color=always"}, true},
		{"json", "", "xterm", []string{"--format", "json", "--color=always"}, false},
		{"github", "", "xterm", []string{"--format", "github", "--color=always"}, false},
		{"sarif", "", "xterm", []string{"--format", "sarif", "--color=always"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("NO_COLOR", tt.noColor)
			t.Setenv("TERM", tt.term)
			out, _, _ := terminalRun(t, true, false, append(append([]string{"check"}, tt.args...), demo)...)
			if got := ansi.MatchString(out); got != tt.color {
				t.Errorf("coloured: %v, want %v:\n%s", got, tt.color, out)
			}
		})
	}

	// --color always in a pipe, for "less -R".
	if out, _, _ := urllsAll(t, "", "check", "--color=always", demo); ansi.ReplaceAllString(out, "") != plain || !ansi.MatchString(out) {
		t.Errorf("--color always in a buffer: %q", out)
	}

	// report colours its samples the same way.
	rep, _, _ := urllsAll(t, "", "report", "--sample", "1", demo)
	crep, _, _ := terminalRun(t, true, false, "report", "--sample", "1", demo)
	if !strings.Contains(crep, "\x1b[31;1merror:") || ansi.ReplaceAllString(crep, "") != rep {
		t.Errorf("report on a terminal:\n%s\nwant the plain report coloured:\n%s", crep, rep)
	}
}

// TestProgress: on a terminal, a run longer than progressDelay shows its
// progress on stderr and clears it before the summary; a short run, --quiet,
// a pipe, standard input and pre-commit show none.
func TestProgress(t *testing.T) {
	files := map[string]string{}
	for i := range 200 {
		files[fmt.Sprintf("d%d/doc%d.md", i%10, i)] = "See http://example.org/a%zz here.\n"
	}
	dir := writeFiles(t, files)
	t.Setenv("PRE_COMMIT", "")
	t.Setenv("TERM", "xterm")

	// The default delay: this run is short, and shows no progress.
	_, errOut, code := terminalRun(t, false, true, "check", dir)
	errOut = ansi.ReplaceAllString(errOut, "")
	if code != 1 || !summaryLine.MatchString(errOut) || strings.Contains(errOut, "\r") {
		t.Errorf("a short run: exit %d, stderr %q; want the summary alone", code, errOut)
	}

	delay, tick := progressDelay, progressTick
	t.Cleanup(func() { progressDelay, progressTick = delay, tick })
	progressDelay, progressTick = 0, time.Millisecond
	out, errOut, code := terminalRun(t, false, true, "check", dir)
	errOut = ansi.ReplaceAllString(errOut, "")
	if code != 1 || strings.Count(out, "[bad-escape]") != 200 {
		t.Errorf("exit %d, %d findings on stdout", code, strings.Count(out, "[bad-escape]"))
	}
	if !strings.Contains(errOut, "checking files") && !strings.Contains(errOut, "finding files") {
		t.Errorf("no progress shown on stderr: %q", errOut)
	}
	// The display is drawn on one line, then blanked ("\r", spaces, "\r"):
	// the summary follows on a clean line.
	last := strings.LastIndex(errOut, "\r")
	if last < 0 || strings.TrimSpace(errOut[strings.LastIndex(errOut[:last], "\r")+1:last]) != "" ||
		errOut[last+1:] != "200 errors in 200 files; 200 URLs in 200 files checked\n" {
		t.Errorf("the progress is not cleared before the summary: %q", errOut)
	}

	for _, tt := range []struct {
		name      string
		tty       bool
		preCommit string
		args      []string
	}{
		{"--quiet", true, "", []string{"--quiet", dir}},
		{"a pipe", false, "", []string{dir}},
		{"standard input", true, "", []string{dir, "-"}},
		{"pre-commit", true, "1", []string{dir}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("PRE_COMMIT", tt.preCommit)
			_, errOut, _ := terminalRun(t, false, tt.tty, append([]string{"check"}, tt.args...)...)
			if errOut = ansi.ReplaceAllString(errOut, ""); errOut != "" && !summaryLine.MatchString(errOut) || strings.Contains(errOut, "\r") {
				t.Errorf("progress shown: %q", errOut)
			}
			if tt.name == "--quiet" && errOut != "" {
				t.Errorf("--quiet printed %q", errOut)
			}
		})
	}

	// report shows the same progress, and prints its report after it.
	out, errOut, _ = terminalRun(t, false, true, "report", "--sample", "0", dir)
	if !strings.Contains(errOut, "files") || !strings.HasPrefix(out, "200 files checked") {
		t.Errorf("report: stdout %q, stderr %q", out, errOut)
	}
	if _, errOut, _ = terminalRun(t, false, true, "report", "--quiet", dir); errOut != "" {
		t.Errorf("report --quiet: stderr %q", errOut)
	}
}

// TestProgressWalk: while a walk goes on, the display counts the files
// found; it is cleared before the check starts.
func TestProgressWalk(t *testing.T) {
	var buf bytes.Buffer
	real := isTerminal
	t.Cleanup(func() { isTerminal = real })
	isTerminal = func(io.Writer) bool { return true }
	delay, tick := progressDelay, progressTick
	t.Cleanup(func() { progressDelay, progressTick = delay, tick })
	progressDelay, progressTick = 0, time.Millisecond
	t.Setenv("PRE_COMMIT", "")
	t.Setenv("TERM", "xterm")
	w := &lockedWriter{w: &buf}
	p := startProgress(w, false, []string{"."})
	for range 5 {
		p.fileFound()
	}
	time.Sleep(50 * time.Millisecond)
	p.walked(5)
	for range 5 {
		p.fileChecked()
	}
	time.Sleep(50 * time.Millisecond)
	p.stop()
	got := w.String()
	if !strings.Contains(got, "finding files: 5") || !strings.Contains(got, "checking files") || !strings.Contains(got, "/5)") {
		t.Errorf("progress %q", got)
	}
	if !strings.HasSuffix(got, "\r") {
		t.Errorf("the display is not cleared at the end: %q", got)
	}
	var none *progress
	none.fileFound()
	none.walked(1)
	none.fileChecked()
	none.stop()
}

type lockedWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.String()
}

// TestSummary: check's closing line on stderr counts the findings shown by
// severity and the files they are in, then the URLs and files checked;
// --quiet leaves it out, and it goes to stderr whatever the format.
func TestSummary(t *testing.T) {
	demo := "../../testdata/demo"
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"text", []string{"check", demo}, "6 errors, 1 warning, 2 information, 1 hint in 3 files; 26 URLs in 3 files checked\n"},
		{"json", []string{"check", "--format", "json", demo}, "6 errors, 1 warning, 2 information, 1 hint in 3 files; 26 URLs in 3 files checked\n"},
		{"min-severity warning", []string{"check", "--min-severity", "warning", demo},
			"6 errors, 1 warning in 2 files (2 information, 1 hint below --min-severity not shown); 26 URLs in 3 files checked\n"},
		{"one file", []string{"check", "--min-severity", "error", demo + "/index.html"},
			"no findings (1 information below --min-severity not shown); 7 URLs in 1 file checked\n"},
		{"quiet", []string{"check", "--quiet", demo}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := urllsAll(t, "", tt.args...)
			if errOut != tt.want {
				t.Errorf("exit %d, stderr %q, want %q", code, errOut, tt.want)
			}
		})
	}
	dir := writeFiles(t, map[string]string{"a.md": "http://example.org/\n", "b.txt": "nothing\n"})
	if _, errOut, code := urllsAll(t, "", "check", dir); code != 0 || errOut != "no findings; 1 URL in 2 files checked\n" {
		t.Errorf("clean files: exit %d, stderr %q", code, errOut)
	}
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 1204: "1,204", 1234567: "1,234,567", -1500: "-1,500"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestMinSeverity: --min-severity hides the findings below it in every
// format, before maxFindings counts them; errors still decide the exit
// code.
func TestMinSeverity(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"doc.md":      "HTTP://example.org/ http://example.org/~u ftp://bob:hunter2@ftp.corp.internal/ http://example.org/%zz\n",
		"warn.md":     "ftp://bob:hunter2@ftp.corp.internal/\n",
		".urlls.json": `{"maxFindings": 1}`,
	})
	doc, warn := filepath.Join(dir, "doc.md"), filepath.Join(dir, "warn.md")
	codes := func(out string) []string {
		var c []string
		for _, m := range regexp.MustCompile(`\[([a-z0-9-]+)\]\n`).FindAllStringSubmatch(out, -1) {
			c = append(c, m[1])
		}
		return c
	}
	for _, tt := range []struct {
		min  string
		want []string
	}{
		// maxFindings 1: the first finding shown, then too-many-findings.
		{"hint", []string{"scheme-case", "too-many-findings"}},
		{"information", []string{"rfc1738-unsafe", "too-many-findings"}},
		{"warning", []string{"credentials", "too-many-findings"}},
		{"error", []string{"bad-escape"}},
	} {
		out, _, code := urlls(t, "check", "--min-severity", tt.min, doc)
		if got := codes(out); code != 1 || strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("--min-severity %s: exit %d, codes %v, want %v", tt.min, code, got, tt.want)
		}
	}
	if out, _, code := urlls(t, "check", "--min-severity", "info", "--format", "json", doc); code != 1 || strings.Contains(out, `"scheme-case"`) || !strings.Contains(out, `"rfc1738-unsafe"`) {
		t.Errorf("json: exit %d:\n%s", code, out)
	}
	if out, _, _ := urlls(t, "check", "--min-severity", "error", "--format", "sarif", doc); strings.Contains(out, `"ruleId": "scheme-case"`) || !strings.Contains(out, `"ruleId": "bad-escape"`) {
		t.Errorf("sarif:\n%s", out)
	}
	if out, _, _ := urlls(t, "check", "--min-severity", "error", "--format", "github", doc); strings.Contains(out, "::notice") || !strings.Contains(out, "::error") {
		t.Errorf("github:\n%s", out)
	}
	// A warning hidden is still no error, and an error is never hidden.
	if out, _, code := urlls(t, "check", "--min-severity", "error", warn); code != 0 || out != "" {
		t.Errorf("warnings only: exit %d, %q", code, out)
	}
	if _, errOut, code := urlls(t, "check", "--min-severity", "off", doc); code != 2 || !strings.Contains(errOut, "unknown severity off") {
		t.Errorf("--min-severity off: exit %d, %q", code, errOut)
	}
}
