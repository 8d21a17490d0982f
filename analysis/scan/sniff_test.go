package scan

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// sniffWhole is looksLikeAsciiDoc as it was: every expression over the
// whole head. The line-by-line sniff must agree with it on every input.
func sniffWhole(doc []byte) bool {
	head := doc[:min(len(doc), sniffLimit)]
	if bytes.IndexByte(head, '[') < 0 {
		return false
	}
	n := 0
	for _, m := range asciiDocMarkers {
		n += len(m.re.FindAllIndex(head, 3-n))
		if n >= 3 {
			return true
		}
	}
	return false
}

var sniffSeeds = []string{
	"",
	"plain text with https://example.com/ and [brackets]\n",
	"see https://x.org/y[text] and link:a.html[a] and image:b.png[]\n",
	":toc: left\n:icons: font\n[source,go]\n",
	":toc: left\r\n:icons: font\r\n[NOTE]\r\n",
	"include::a.adoc[]\nifdef::x[]\ntoc::[]\n",
	"http://[::1]:80/ http://[::1]:81/ http://[::1]:82/\n",
	"linkgit:git-log[1] linkgit:git-diff[1]\nlinkgit:git-add[1]",
	"a https://x.org/[\n] b\n:attr!:\n:!x:\n[quote]\n",
	"mailto:a@b.c[mail] xhttps://x.org/y[t] _https://x.org/[z]\n",
	// Where macroBracket looks: a name right before ":" and an empty
	// target, "//" as a target, "://" with nothing after it, a target
	// that runs back to a bracket or a tab.
	"mailto://[a] link:[b] xref:x[c]\n",
	"http://[::1]/ http://[x] ftp://[y] irc://a[b] image:[c]\n",
	"]https://x[a]\tlinkgit:[b]\n[kbd:[c] btn:[d]\n",
	"menu:x:y[a] footnote:[b]\fhttps://a:b[c]\n",
	"a https://x[a] b ftp://y[b] c irc://z[c]\n",
	"include::a[]\nimage::b.png[]\n x toc::[]\ntoc::[]\n",
}

func TestAsciiDocSniffLines(t *testing.T) {
	for _, s := range sniffSeeds {
		if got, want := looksLikeAsciiDoc([]byte(s)), sniffWhole([]byte(s)); got != want {
			t.Errorf("looksLikeAsciiDoc(%q) = %v, the expressions over the whole head say %v", s, got, want)
		}
	}
	// Every plain-text and AsciiDoc document of the real-world corpus
	// (../shared/corpus/realworld, beside the checkout; sharedDir skips
	// without it, outside CI).
	t.Run("realworld", func(t *testing.T) {
		root := filepath.Join(sharedDir(t), "corpus", "realworld")
		n := 0
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if l := LanguageForPath(path); l != "plaintext" && l != "asciidoc" {
				return nil
			}
			doc, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			n++
			if got, want := looksLikeAsciiDoc(doc), sniffWhole(doc); got != want {
				t.Errorf("%s: looksLikeAsciiDoc = %v, the expressions over the whole head say %v", path, got, want)
			}
			return nil
		})
		if err != nil || n == 0 {
			t.Fatalf("no plain text or AsciiDoc read in %s (%d): %v", root, n, err)
		}
		t.Logf("%d documents", n)
	})
}

func FuzzAsciiDocSniffLines(f *testing.F) {
	for _, s := range sniffSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if got, want := looksLikeAsciiDoc(doc), sniffWhole(doc); got != want {
			t.Fatalf("looksLikeAsciiDoc(%q) = %v, the expressions over the whole head say %v", doc, got, want)
		}
	})
}

// BenchmarkAsciiDocSniff: the sniff of a plain-text head of prose with a
// few bracketed words, line by line and as it was (the whole head), in one
// run.
func BenchmarkAsciiDocSniff(b *testing.B) {
	var doc []byte
	for i := 0; len(doc) < sniffLimit; i++ {
		doc = append(doc, "Prose of a plain-text document that links to https://example.com/page and says little else.\n"...)
		if i%20 == 0 {
			doc = append(doc, "A [bracketed] aside, see: notes.\n"...)
		}
	}
	b.Run("lines", func(b *testing.B) {
		b.SetBytes(int64(sniffLimit))
		for b.Loop() {
			looksLikeAsciiDoc(doc)
		}
	})
	b.Run("whole", func(b *testing.B) {
		b.SetBytes(int64(sniffLimit))
		for b.Loop() {
			sniffWhole(doc)
		}
	})
}
