package lsp

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"
)

// A .urlls.json changed on disk (a git checkout, another editor) is read
// again once its entry is older than configFresh; the next edit's analysis
// must then be the new configuration's throughout, not keep the old
// configuration's decisions (severities, suppressions, the grammar's
// findings) for the diagnostics it would move from the analysis before.
func TestConfigChangedOnDisk(t *testing.T) {
	for _, tt := range []struct {
		name, doc, edited, oldConfig, newConfig string
		sameTime                                bool // the new file gets the old one's modification time
	}{
		{"a severity", "see http://a.org/%zz here\n\nsome words\n\nand http://b.org/%zz\n",
			"see http://a.org/%zz here\n\nsome wordsX\n\nand http://b.org/%zz\n", `{}`, `{"severity": {"bad-escape": "off"}}`, false},
		{"the grammar", "see http://a.org/~u here\n\nsome words\n\nand http://b.org/~v\n",
			"see http://a.org/~u here\n\nsome wordsX\n\nand http://b.org/~v\n", `{}`, `{"grammar": "rfc3986"}`, false},
		// cp -p, rsync -t, an archive unpacked: the size and the time
		// stay, the bytes do not.
		{"the same size and time", "see http://a.org/%zz here\n\nsome words\n\nand http://b.org/%zz\n",
			"see http://a.org/%zz here\n\nsome wordsX\n\nand http://b.org/%zz\n",
			`{"severity": {"bad-escape": "hint"}}`, `{"severity": {"bad-escape": "info"}}`, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir, cfgPath := configProject(t, tt.oldConfig)
			u := string(uri.File(filepath.Join(dir, "doc.md")))
			s := newServer(nopClient{}, Options{Logger: zap.NewNop(), Debounce: time.Hour})
			base := analyzeFrom(t, s, u, "markdown", 1, []byte(tt.doc), nil)
			before := published(t, s, base)
			info, err := os.Stat(cfgPath)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(cfgPath, []byte(tt.newConfig), 0o644); err != nil {
				t.Fatal(err)
			}
			if tt.sameTime {
				if err := os.Chtimes(cfgPath, info.ModTime(), info.ModTime()); err != nil {
					t.Fatal(err)
				}
			}
			expireConfigFiles(s) // as configFresh later: the entry is read again
			inc := analyzeFrom(t, s, u, "markdown", 2, []byte(tt.edited), base)
			full := analyzeFrom(t, s, u, "markdown", 2, []byte(tt.edited), nil)
			if published(t, s, full) == before {
				t.Fatalf("the new configuration changes nothing: the test tests nothing\n%s", before)
			}
			if d := cmp.Diff(published(t, s, full), published(t, s, inc)); d != "" {
				t.Errorf("the edit's analysis differs from a full one after .urlls.json changed on disk (-full +edit):\n%s", d)
			}
		})
	}
}

// TestConfigChangedOnDiskOthers: when an analysis finds a .urlls.json
// changed on disk, the other open documents are analysed again and
// published under the new configuration, not left with the old one's
// diagnostics until they are edited.
func TestConfigChangedOnDiskOthers(t *testing.T) {
	dir, cfgPath := configProject(t, `{}`)
	c := newPublishWaiter()
	s := newServer(c, Options{Logger: zap.NewNop()})
	defer s.stop()
	a := protocol.DocumentURI(uri.File(filepath.Join(dir, "a.md")))
	b := protocol.DocumentURI(uri.File(filepath.Join(dir, "b.md")))
	openWithOneFinding(t, s, c, a, "see http://a.org/%zz here\n")
	openWithOneFinding(t, s, c, b, "see http://a.org/%zz here\n")
	if err := os.WriteFile(cfgPath, []byte(`{"severity": {"bad-escape": "off"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	expireConfigFiles(s)
	replaceText(t, s, a, 2, "see http://a.org/%zz there\n")
	c.waitFor(t, a, func(n int) bool { return n == 0 })
	c.waitFor(t, b, func(n int) bool { return n == 0 }) // not edited: analysed again
}

// expireConfigFiles makes s's remembered configuration files as old as
// configFresh: the next analysis reads them again.
func expireConfigFiles(s *Server) {
	s.configFiles.mu.Lock()
	defer s.configFiles.mu.Unlock()
	for k, e := range s.configFiles.entries {
		e.read = e.read.Add(-configFresh)
		s.configFiles.entries[k] = e
	}
}

// TestConfigChangedOnDiskOtherDirectory: a document in another directory
// under the same .urlls.json, whose remembered configuration is not yet
// old enough to be read again, is analysed again under the new one too, not
// under what it remembered.
func TestConfigChangedOnDiskOtherDirectory(t *testing.T) {
	dir, cfgPath := configProject(t, `{}`, "sub")
	c := newPublishWaiter()
	s := newServer(c, Options{Logger: zap.NewNop()})
	defer s.stop()
	a := protocol.DocumentURI(uri.File(filepath.Join(dir, "a.md")))
	b := protocol.DocumentURI(uri.File(filepath.Join(dir, "sub", "b.md")))
	openWithOneFinding(t, s, c, a, "see http://a.org/%zz here\n")
	expireConfigFiles(s) // a's entry only: b's is read after it
	openWithOneFinding(t, s, c, b, "see http://b.org/%zz here\n")
	if err := os.WriteFile(cfgPath, []byte(`{"severity": {"bad-escape": "off"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	replaceText(t, s, a, 2, "see http://a.org/%zz there\n")
	c.waitFor(t, a, func(n int) bool { return n == 0 })
	c.waitFor(t, b, func(n int) bool { return n == 0 }) // its entry was fresh: read again all the same
}

// configProject makes a project (a .git directory) with the subdirectories
// subs and a .urlls.json holding config, and returns its directory and the
// configuration file's path.
func configProject(t *testing.T, config string, subs ...string) (dir, cfgPath string) {
	t.Helper()
	dir = t.TempDir()
	for _, d := range append([]string{".git"}, subs...) {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfgPath = filepath.Join(dir, ".urlls.json")
	if err := os.WriteFile(cfgPath, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, cfgPath
}

// openWithOneFinding opens the Markdown document u holding text, with one
// finding, and waits for its diagnostics.
func openWithOneFinding(t *testing.T, s *Server, c *publishWaiter, u protocol.DocumentURI, text string) {
	t.Helper()
	if err := s.DidOpen(context.Background(), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "markdown", Version: 1, Text: text}}); err != nil {
		t.Fatal(err)
	}
	c.waitFor(t, u, func(n int) bool { return n == 1 })
}

// replaceText makes version the whole text of the open document u.
func replaceText(t *testing.T, s *Server, u protocol.DocumentURI, version int32, text string) {
	t.Helper()
	if err := s.didChange(didChangeParams{TextDocument: protocol.VersionedTextDocumentIdentifier{
		TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: version},
		ContentChanges: []changeEvent{{Text: text}}}); err != nil {
		t.Fatal(err)
	}
}
