package fileio

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFindConfigDigest: the digest is that of the bytes read, the
// configuration file's and its grammars': the same files give the same
// digest, a change in either (the same size too) another one, and so do a
// configuration file that appears or goes.
func TestFindConfigDigest(t *testing.T) {
	dir := t.TempDir()
	digest := func() [32]byte {
		t.Helper()
		_, _, _, d, err := FindConfigDigest(dir, dir)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	none := digest()
	write("geo.abnf", "geo-URI = \"geo:\" 1*DIGIT\n")
	write(".urlls.json", `{"schemes": {"geo": {"grammar": "geo.abnf", "rule": "geo-URI"}}}`)
	first := digest()
	if first == none {
		t.Error("a configuration file that appeared left the digest as it was")
	}
	if digest() != first {
		t.Error("the same files gave another digest")
	}
	write("geo.abnf", "geo-URI = \"geo:\" 1*ALPHA\n") // the same size
	if digest() == first {
		t.Error("a changed grammar file left the digest as it was")
	}
	if err := os.Remove(filepath.Join(dir, ".urlls.json")); err != nil {
		t.Fatal(err)
	}
	if digest() != none {
		t.Error("no configuration file gave another digest than before")
	}
}
