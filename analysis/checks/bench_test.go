package checks

import (
	"strings"
	"testing"
)

func benchmarkURL(b *testing.B, url string) {
	doc, c := candidateIn(url, false)
	b.SetBytes(int64(len(url)))
	for b.Loop() {
		CheckURL(doc, c)
	}
}

func BenchmarkCheckURLClean(b *testing.B) {
	benchmarkURL(b, "http://www.example.com:8080/path/to/file.html?query=1&b=2#frag")
}

func BenchmarkCheckURLDefects(b *testing.B) {
	benchmarkURL(b, "HTTP://u:p@www.exa%2dmple.com:99999/a b/%zz/~u/café?q=a/b|c#f")
}

func BenchmarkCheckDocument(b *testing.B) {
	var sb strings.Builder
	for i := range 200 {
		sb.WriteString("A paragraph with [a link](http://example.com/a/b?c=d) and a bare http://www.example.org/x.\n")
		if i%10 == 0 {
			sb.WriteString("A bad one: <http://x.com/a%zz|b~c> and [rel](../a%41/b).\n")
		}
	}
	doc := []byte(sb.String())
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		CheckDocument(doc, "markdown")
	}
}
