package lsp

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"
)

// The urlls binary, built once for the tests that run it as editors do.
var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

func urllsBinary(t testing.TB) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build urlls with")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "urlls-lsp-test-")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(dir, "urlls")
		out, err := exec.Command(goCmd, "build", "-o", binary, "github.com/urlls/urlls/cmd/urlls").CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out) + err.Error())
		}
	})
	if buildErr != nil {
		t.Fatalf("go build: %v", buildErr)
	}
	return binary
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binary != "" {
		os.RemoveAll(filepath.Dir(binary))
	}
	os.Exit(code)
}

// processConn is the client's end of a server process's standard input
// and output. Close closes its input only: the server must end by itself.
type processConn struct {
	io.Reader
	in io.WriteCloser
}

func (p processConn) Write(b []byte) (int, error) { return p.in.Write(b) }
func (p processConn) Close() error                { return p.in.Close() }

// serverProcess is a running "urlls" process with pipes of its own
// (exec's StdoutPipe may not be read after Wait, and the clients read until
// they see the end of the output).
type serverProcess struct {
	cmd    *exec.Cmd
	in     io.WriteCloser // its standard input
	out    *os.File       // its standard output
	stderr bytes.Buffer
	code   chan int      // its exit code, once it ended
	waited chan struct{} // closed when it ended
}

// runProcess starts "urlls args..." in dir.
func runProcess(t *testing.T, dir string, args ...string) *serverProcess {
	t.Helper()
	p := &serverProcess{cmd: exec.Command(urllsBinary(t), args...), code: make(chan int, 1), waited: make(chan struct{})}
	p.cmd.Dir = dir
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	p.in, p.out = inW, outR
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = inR, outW, &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inR.Close()
	outW.Close()
	go func() {
		err := p.cmd.Wait()
		close(p.waited)
		var exit *exec.ExitError
		switch {
		case err == nil:
			p.code <- 0
		case errors.As(err, &exit):
			p.code <- exit.ExitCode()
		default:
			p.code <- -1
		}
	}()
	return p
}

// logStderr writes the process's log to the test log.
func (p *serverProcess) logStderr(t *testing.T) {
	for _, l := range strings.Split(strings.TrimSpace(p.stderr.String()), "\n") {
		t.Log("urlls: " + l)
	}
}

// startProcess runs "urlls args..." in dir and connects a client to its
// standard input and output. Its log (standard error) goes to the test log.
func startProcess(t *testing.T, dir string, args ...string) *testClient {
	t.Helper()
	p := runProcess(t, dir, args...)
	t.Cleanup(func() {
		// Runs after the client's cleanup, which waited for the process;
		// if it waited in vain, the process is killed.
		select {
		case <-p.waited:
		default:
			p.cmd.Process.Kill()
			<-p.waited
		}
		p.out.Close()
		p.logStderr(t)
	})
	return connectClient(t, processConn{Reader: p.out, in: p.in}, dir, p.code, "the urlls process")
}

// TestStdioSession drives the real binary over standard input and output
// as an editor does: initialize, documents in three languages, an
// incremental edit, hover, actions, links, shutdown, exit with 0.
func TestStdioSession(t *testing.T) {
	dir := t.TempDir()
	c := startProcess(t, dir, "serve", "--stdio", "--log-level", "debug")
	res := c.initialize(capabilities{codeDescription: true})
	if res.ServerInfo == nil || res.ServerInfo.Name != "urlls" {
		t.Errorf("serverInfo %+v", res.ServerInfo)
	}
	docs := []struct {
		name, lang, text string
		want             []string // code and range of each diagnostic
	}{
		{"a.md", "markdown", "# A\n\n[x](http://example.org/%zz)\n", []string{"bad-escape 2:23-2:26"}},
		{"b.html", "html", "<a href=\"http://example.org:99999/\">b</a>\n", []string{"port-range 0:28-0:33"}},
		{"c.go", "go", "package c\n\n// 漢字 http://10.0.0.300/\n", []string{"host-range 2:20-2:23"}},
	}
	for _, d := range docs {
		c.didOpen(c.uri(d.name), d.lang, 1, d.text)
	}
	for _, d := range docs {
		p := c.waitDiagnostics(c.uri(d.name), 1, nil)
		var got []string
		for _, dg := range p.Diagnostics {
			got = append(got, dg.Code.(string)+" "+fmtRange(dg.Range))
			if dg.CodeDescription == nil || !strings.HasSuffix(string(dg.CodeDescription.Href), "#"+dg.Code.(string)) {
				t.Errorf("%s: codeDescription %+v", d.name, dg.CodeDescription)
			}
		}
		if strings.Join(got, ", ") != strings.Join(d.want, ", ") {
			t.Errorf("%s: diagnostics %q, want %q", d.name, got, d.want)
		}
	}

	// Fix the Markdown escape the way an editor does: ask, apply, send.
	u := c.uri("a.md")
	actions := c.codeActions(u, rng(2, 24, 2, 24))
	if len(actions) == 0 || actions[0].Kind != protocol.QuickFix || !actions[0].IsPreferred {
		t.Fatalf("actions %+v, want a preferred quick fix first", actions)
	}
	edits := actions[0].Edit.Changes[u]
	fixed, err := applyEdits(docs[0].text, edits)
	if err != nil {
		t.Fatal(err)
	}
	var changes []change
	for _, e := range edits {
		r := e.Range
		changes = append(changes, change{Range: &r, Text: e.NewText})
	}
	c.didChange(u, 2, &fixed, changes...)
	if p := c.waitDiagnostics(u, 2, nil); len(p.Diagnostics) != 0 {
		t.Errorf("after the fix: %+v", p.Diagnostics)
	}

	h := c.hover(c.uri("b.html"), protocol.Position{Line: 0, Character: 30})
	if h == nil || !strings.HasPrefix(h.Contents.Value, "**port**") || h.Range == nil || *h.Range != rng(0, 28, 0, 33) {
		t.Errorf("hover on the port: %+v", h)
	}
	links := c.links(c.uri("c.go"))
	if len(links) != 1 || links[0].Target != "http://10.0.0.300/" || links[0].Range != rng(2, 6, 2, 24) {
		t.Errorf("links of c.go: %+v", links)
	}
	if err := c.rawCall("textDocument/completion", map[string]any{}, nil); errorCode(err) != -32601 {
		t.Errorf("completion: %v, want MethodNotFound", err)
	}
	if code := c.shutdownExit(); code != 0 {
		t.Errorf("exit code %d after shutdown and exit, want 0", code)
	}
}

// TestStdioExitWithoutShutdown: exit without shutdown ends the process
// with 1.
func TestStdioExitWithoutShutdown(t *testing.T) {
	c := startProcess(t, t.TempDir()) // no arguments: serve
	c.initialize(capabilities{})
	if code := c.exit(); code != 1 {
		t.Errorf("exit code %d after exit without shutdown, want 1", code)
	}
}

// TestStdioEndOfInput: when the client closes the server's standard input,
// the process ends, also with an analysis still waiting for its debounce.
func TestStdioEndOfInput(t *testing.T) {
	c := startProcess(t, t.TempDir(), "serve")
	c.initialize(capabilities{})
	u := c.uri("a.txt")
	c.didOpen(u, "plaintext", 1, "http://example.org/%zz\n")
	c.waitDiagnostics(u, 1, nil)
	text := "http://example.org/%zzz\n"
	c.didChange(u, 2, &text, change{Range: &protocol.Range{Start: pos(0, 22), End: pos(0, 22)}, Text: "z"})
	// A request answered after the change: the change is in, and its
	// analysis waits for the debounce (150 ms) when the input ends.
	if h := c.hover(u, pos(0, 1)); h == nil {
		t.Fatal("no hover")
	}
	c.conn.Close()
	if code := c.waitExit(); code != 1 {
		t.Errorf("exit code %d at the end of input without shutdown, want 1", code)
	}
}
