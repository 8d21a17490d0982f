package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestReport(t *testing.T) {
	long := strings.Repeat("word ", 60) + "http://example.org/long%zz " + strings.Repeat("tail ", 40)
	dir := writeFiles(t, map[string]string{
		"a.md":       "# A\n\nsee http://example.org/a%zz\n\tand http://example.org/b%zz and http://example.org/~c\n",
		"b.md":       long + "\n",
		"c.txt":      "http://example.org/~d http://example.org/ok\n",
		"code.go":    "package x // http://example.org/go%zz\n",
		"ignored.md": "http://example.org/ignored%zz\n",
		".gitignore": "ignored.md\n",
		".git/HEAD":  "ref: refs/heads/main\n",
	})
	out, errOut, code := urlls(t, "report", "--sample", "2", dir)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	out = strings.ReplaceAll(out, dir+string(filepath.Separator), "")
	want := `3 files checked, 6 URLs, 5 findings

SEVERITY     CODE            FINDINGS  FILES
error        bad-escape             3      2
information  rfc1738-unsafe         2      2

== error bad-escape: 3 findings in 2 files, 2 shown ==
a.md:3:25: error: "%zz" is not an escape: "%" must be followed by two hex digits [bad-escape]
    see http://example.org/a%zz
                            ^
b.md:1:324: error: "%zz" is not an escape: "%" must be followed by two hex digits [bad-escape]
    …` + long[323-96:323+65] + `…
     ` + strings.Repeat(" ", 96) + `^

== information rfc1738-unsafe: 2 findings in 2 files, 2 shown ==
a.md:4:53: information: "~" is unsafe in RFC 1738 (RFC 3986 made it unreserved) [rfc1738-unsafe]
    	and http://example.org/b%zz and http://example.org/~c
    	                                                   ^
c.txt:1:20: information: "~" is unsafe in RFC 1738 (RFC 3986 made it unreserved) [rfc1738-unsafe]
    http://example.org/~d http://example.org/ok
                       ^
`
	if out != want {
		t.Errorf("report:\n%s\nwant:\n%s", out, want)
	}

	t.Run("--severity", func(t *testing.T) {
		out, _, code := urlls(t, "report", "--severity", "information", "--sample=0", dir)
		if code != 0 || !strings.HasPrefix(out, "3 files checked, 6 URLs, 2 findings\n") ||
			strings.Contains(out, "bad-escape") || !strings.Contains(out, "rfc1738-unsafe         2") || strings.Contains(out, "==") {
			t.Errorf("exit %d:\n%s", code, out)
		}
	})
	t.Run("configuration and --include as check", func(t *testing.T) {
		out, _, _ := urlls(t, "report", "--include", "*.go", "--strict", dir)
		if !strings.HasPrefix(out, "4 files checked, 7 URLs, 6 findings\n") || !strings.Contains(out, "error        rfc1738-unsafe         2") {
			t.Errorf("report:\n%s", out)
		}
	})
	t.Run("clean", func(t *testing.T) {
		out, _, code := urllsIn(t, "http://example.org/\n", "report", "-")
		if code != 0 || out != "1 file checked, 1 URL, 0 findings\n" {
			t.Errorf("exit %d: %q", code, out)
		}
	})
	for _, tc := range []struct {
		name string
		args []string
		msg  string
	}{
		{"no paths", []string{"report"}, "urlls: report: no files given (use - for standard input)"},
		{"bad severity", []string{"report", "--severity", "error,fatal", dir}, "urlls: report: unknown severity fatal (want error, warning, information or hint)"},
		{"off is no severity", []string{"report", "--severity", "off", dir}, "urlls: report: unknown severity off (want error, warning, information or hint)"},
		{"negative sample", []string{"report", "--sample", "-1", dir}, "urlls: report: --sample must not be negative, got -1"},
		{"missing file", []string{"report", filepath.Join(dir, "nope.md"), dir}, "urlls: report: " + filepath.Join(dir, "nope.md") + ": no such file or directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := urlls(t, tc.args...)
			if code != 2 || !strings.HasPrefix(errOut, tc.msg+"\n") {
				t.Errorf("exit %d, stderr %q, want 2 and %q", code, errOut, tc.msg)
			}
		})
	}
}

func TestPickSamples(t *testing.T) {
	// hits builds the hits of files with the given numbers of findings.
	hits := func(counts ...int) []hit {
		var hs []hit
		for f, n := range counts {
			for i := range n {
				hs = append(hs, hit{f, i})
			}
		}
		return hs
	}
	for _, tc := range []struct {
		name   string
		counts []int
		n      int
		want   string
	}{
		{"fewer than n", []int{2, 1}, 10, "0.0 0.1 1.0"},
		{"one file, spread", []int{10}, 3, "0.0 0.3 0.6"},
		{"more files than n: every k-th file", []int{1, 5, 1, 1, 1, 1}, 3, "0.0 2.0 4.0"},
		{"one busy file does not take all", []int{100, 1, 1}, 4, "0.0 0.50 1.0 2.0"},
		{"shares follow the counts", []int{1, 6, 6}, 7, "0.0 1.0 1.2 1.4 2.0 2.2 2.4"},
		{"none", []int{3}, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, h := range pickSamples(hits(tc.counts...), tc.n) {
				got = append(got, fmt.Sprintf("%d.%d", h.file, h.index))
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("picked %q, want %q", strings.Join(got, " "), tc.want)
			}
		})
	}
}

// TestReportCaretOnLongLines: the caret stands under the finding's character
// however the line is cut.
func TestReportCaretOnLongLines(t *testing.T) {
	for _, at := range []int{0, 5, 95, 96, 97, 150, 400} {
		line := strings.Repeat("世", at) + "http://example.org/%zz" + strings.Repeat("x", 300) // CJK has no spaces before a URL
		dir := writeFiles(t, map[string]string{"a.txt": line + "\n"})
		out, _, _ := urlls(t, "report", dir)
		lines := strings.Split(out, "\n")
		i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "[bad-escape]") })
		if i < 0 || i+2 >= len(lines) {
			t.Fatalf("no sample:\n%s", out)
		}
		shown, caret := []rune(lines[i+1]), lines[i+2]
		col := utf8.RuneCountInString(caret) - 1
		if caret[len(caret)-1] != '^' || col >= len(shown) || string(shown[col:col+3]) != "%zz" {
			t.Errorf("at %d: caret not under %%zz:\n%s\n%s", at, lines[i+1], caret)
		}
		if len(shown) > 4+sourceBefore+sourceAfter+3 {
			t.Errorf("at %d: shown line has %d columns", at, len(shown))
		}
	}
}
