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
			dir := t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			cfgPath := filepath.Join(dir, ".urlls.json")
			if err := os.WriteFile(cfgPath, []byte(tt.oldConfig), 0o644); err != nil {
				t.Fatal(err)
			}
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
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(dir, ".urlls.json")
	if err := os.WriteFile(cfgPath, []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newPublishWaiter()
	s := newServer(c, Options{Logger: zap.NewNop()})
	defer s.stop()
	a := protocol.DocumentURI(uri.File(filepath.Join(dir, "a.md")))
	b := protocol.DocumentURI(uri.File(filepath.Join(dir, "b.md")))
	for _, u := range []protocol.DocumentURI{a, b} {
		if err := s.DidOpen(context.Background(), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
			URI: u, LanguageID: "markdown", Version: 1, Text: "see http://a.org/%zz here\n"}}); err != nil {
			t.Fatal(err)
		}
		c.waitFor(t, u, func(n int) bool { return n == 1 })
	}
	if err := os.WriteFile(cfgPath, []byte(`{"severity": {"bad-escape": "off"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	expireConfigFiles(s)
	if err := s.didChange(didChangeParams{TextDocument: protocol.VersionedTextDocumentIdentifier{
		TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: a}, Version: 2},
		ContentChanges: []changeEvent{{Text: "see http://a.org/%zz there\n"}}}); err != nil {
		t.Fatal(err)
	}
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
	dir := t.TempDir()
	for _, d := range []string{".git", "sub"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfgPath := filepath.Join(dir, ".urlls.json")
	if err := os.WriteFile(cfgPath, []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newPublishWaiter()
	s := newServer(c, Options{Logger: zap.NewNop()})
	defer s.stop()
	a := protocol.DocumentURI(uri.File(filepath.Join(dir, "a.md")))
	b := protocol.DocumentURI(uri.File(filepath.Join(dir, "sub", "b.md")))
	if err := s.DidOpen(context.Background(), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: a, LanguageID: "markdown", Version: 1, Text: "see http://a.org/%zz here\n"}}); err != nil {
		t.Fatal(err)
	}
	c.waitFor(t, a, func(n int) bool { return n == 1 })
	expireConfigFiles(s) // a's entry only: b's is read after it
	if err := s.DidOpen(context.Background(), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: b, LanguageID: "markdown", Version: 1, Text: "see http://b.org/%zz here\n"}}); err != nil {
		t.Fatal(err)
	}
	c.waitFor(t, b, func(n int) bool { return n == 1 })
	if err := os.WriteFile(cfgPath, []byte(`{"severity": {"bad-escape": "off"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.didChange(didChangeParams{TextDocument: protocol.VersionedTextDocumentIdentifier{
		TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: a}, Version: 2},
		ContentChanges: []changeEvent{{Text: "see http://a.org/%zz there\n"}}}); err != nil {
		t.Fatal(err)
	}
	c.waitFor(t, a, func(n int) bool { return n == 0 })
	c.waitFor(t, b, func(n int) bool { return n == 0 }) // its entry was fresh: read again all the same
}
