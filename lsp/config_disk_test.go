package lsp

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
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
		name, doc, edited, newConfig string
	}{
		{"a severity", "see http://a.org/%zz here\n\nsome words\n\nand http://b.org/%zz\n",
			"see http://a.org/%zz here\n\nsome wordsX\n\nand http://b.org/%zz\n", `{"severity": {"bad-escape": "off"}}`},
		{"the grammar", "see http://a.org/~u here\n\nsome words\n\nand http://b.org/~v\n",
			"see http://a.org/~u here\n\nsome wordsX\n\nand http://b.org/~v\n", `{"grammar": "rfc3986"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			cfgPath := filepath.Join(dir, ".urlls.json")
			if err := os.WriteFile(cfgPath, []byte(`{}`), 0o644); err != nil {
				t.Fatal(err)
			}
			u := string(uri.File(filepath.Join(dir, "doc.md")))
			s := newServer(nopClient{}, Options{Logger: zap.NewNop(), Debounce: time.Hour})
			base := analyzeFrom(t, s, u, "markdown", 1, []byte(tt.doc), nil)
			before := published(t, s, base)
			if err := os.WriteFile(cfgPath, []byte(tt.newConfig), 0o644); err != nil {
				t.Fatal(err)
			}
			// As configFresh later: the entry is read again.
			s.configFiles.mu.Lock()
			for k, e := range s.configFiles.entries {
				e.read = e.read.Add(-configFresh)
				s.configFiles.entries[k] = e
			}
			s.configFiles.mu.Unlock()
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
