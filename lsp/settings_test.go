package lsp

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestConfigLookup: the server reads .urlls.json as urlls check does: up to
// the repository's root, else up to the workspace folder holding the
// document, else in the document's directory only; a FIFO is ignored with
// a warning, given once, and never blocks.
func TestConfigLookup(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		".urlls.json":           `{"ignore": ["shared"]}`, // a shared directory's: never read
		"ws/.urlls.json":        `{"ignore": ["ws"]}`,
		"ws/sub/doc.md":         "",
		"repo/.git/HEAD":        "",
		"repo/.urlls.json":      `{"ignore": ["repo"]}`,
		"repo/folder/doc.md":    "",
		"loose/doc.md":          "",
		"fifo/.git/HEAD":        "",
		"fifo/.urlls.json":      `{"ignore": ["fifo"]}`,
		"fifo/docs/placeholder": "",
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo/docs/.urlls.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := func(name string) string { return filepath.Join(dir, name) }
	st := &settings{folders: []string{p("ws"), p("repo/folder"), p("fifo")}}
	var cf configFiles
	for _, tt := range []struct {
		name, doc, want, err string
	}{
		{"up to the workspace folder", "ws/sub/doc.md", "ws", ""},
		{"up to the repository's root, above the folder", "repo/folder/doc.md", "repo", ""},
		{"outside any folder and repository, its directory only", "loose/doc.md", "", ""},
		{"a FIFO is ignored with a warning", "fifo/docs/doc.md", "fifo", "fifo/docs/.urlls.json: ignored: not a regular file (named pipe)"},
		{"the warning is given once", "fifo/docs/doc.md", "fifo", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan struct{})
			go func() {
				defer close(done)
				cfg, _, err := st.configFor(protocol.DocumentURI(uri.File(p(tt.doc))), &cf)
				if got := strings.Join(cfg.Ignore, " "); got != tt.want {
					t.Errorf("ignore %q, want %q", got, tt.want)
				}
				if (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
					t.Errorf("error %v, want %q", err, tt.err)
				}
				// An ignored file is a warning for the client, not an error.
				var w configWarning
				if err != nil && strings.Contains(err.Error(), ": ignored: ") && !errors.As(err, &w) {
					t.Errorf("%v is not a configWarning", err)
				}
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("blocked")
			}
		})
	}
}
