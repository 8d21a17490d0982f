package checks

import (
	"strings"
	"testing"

	"github.com/urlls/urlls/analysis/parser"
	"github.com/urlls/urlls/analysis/scan"
)

// escapeFixVerdicts analyzes text as check does and, for every fix of its
// findings that escapeFixKeeps passes without an analysis, checks that
// verify's analysis of the fixed text (reanalyze) passes it too. It
// returns how many fixes escapeFixKeeps passed and how many it left to
// the analysis.
func escapeFixVerdicts(t *testing.T, text string, rd reading) (kept, left int) {
	t.Helper()
	sc := new(scratch)
	fs, stop := analyze(text, rd, withFixes, sc, nil)
	v := verifier{text: text, rd: rd, stop: stop, findings: fs, budget: verifyBudget, scratch: sc,
		masked: sc.masked, auth: sc.auth}
	for _, f := range fs {
		for _, fx := range f.fixes {
			gone := []place{{f.code, f.start}}
			fixed, ok := applyEdits(text, fx.edits)
			if !ok {
				continue
			}
			if !v.escapeFixKeeps(gone, fx.edits) {
				left++
				continue
			}
			kept++
			if !v.reanalyze(gone, fx.edits, fixed) {
				t.Errorf("%q (%+v): escapeFixKeeps passes the fix %q, which verify's analysis of %q refuses", text, rd, fx.msg, fixed)
			}
		}
	}
	return kept, left
}

// escapeFixReadings are the readings escapeFixVerdicts tries: the default,
// which escapeFixKeeps may shortcut, and others, which it leaves alone.
func escapeFixReadings() []reading {
	rds := []reading{{}, {relative: true}}
	for _, name := range parser.ProfileNames() {
		if p, _ := parser.ProfileNamed(name); p != parser.RFC1738 {
			rds = append(rds, reading{profile: p})
		}
	}
	return rds
}

// badEscapes are the bad escapes written into URLs to test with.
var badEscapes = []string{"%", "%z", "%zz", "%4g", "%g4", "%s", "%25s", "%%", "%2", "%A", "%AB_", "%(", "%$", "%.5"}

// TestEscapeFixKeeps: in hand-made URLs, and in the URLs of the real
// documents (when the corpus is beside the checkout), with a bad escape
// written at each place after the scheme, the fixes escapeFixKeeps passes
// without an analysis are the ones verify's analysis passes.
func TestEscapeFixKeeps(t *testing.T) {
	escapeFixKeepsOn(t, []string{
		"http://x.org/a", "https://x.org/", "http://x.org", "http://x.org:80/a/b;c?d=e&f#g", "http://x.org#/r/#x",
		"http://x.org/~a", "http://x.org/a b", "http://x.org/{id}", "http://x.org/$HOME/x", "http://user:pw@x.org/a",
		"http://x.org?q", "http://1.2.3.4/x", "http://[::1]/x", "HTTP://x.org/a", "http://x.org/é", "http://*.x.org/a",
		"http://x.org/a%41b", "http://x.org/a%2Fb", "http://x.org/a?b/c", "http://x.org/%d/a", "ftp://x.org/a;type=d",
		"news:comp.lang", "mailto:a@x.org", "http://x.org/a:b@c", "http://x.org/a..b/../c", "http://x.org/a#b#c",
		"http://x.org/a?b=%%", "http://x.org/<user>/r", "http://host:port/x", "javascript:x", "http:/x.org/a",
		"http://x.org/AB%41", "http://x.org/$x/y", "http://x.org/a.../b", "http://x.org/%41d", "http://x.org/x_y/(z)",
		"http://x.org/A1%42", "http://x.org/%(a)s", "http://x.org/a$1",
	})
	t.Run("realworld", func(t *testing.T) {
		var urls []string
		realworldDocs(t, func(path, lang string, doc []byte) {
			for _, c := range scan.Scan(doc, lang).Candidates {
				if strings.HasPrefix(strings.ToLower(c.Text), "http") && len(c.Text) < 200 {
					urls = append(urls, c.Text)
				}
			}
		})
		escapeFixKeepsOn(t, urls)
	})
}

// escapeFixKeepsOn is TestEscapeFixKeeps on urls.
func escapeFixKeepsOn(t *testing.T, urls []string) {
	t.Helper()
	kept, left := 0, 0
	for _, u := range urls {
		// At most a dozen places a URL, spread over it.
		step := max(1, len(u)/12)
		for p := 5; p <= len(u); p += step {
			for _, bad := range badEscapes {
				text := u[:p] + bad + u[p:]
				// The default reading, which escapeFixKeeps shortcuts;
				// FuzzEscapeFixKeeps tries the others.
				k, l := escapeFixVerdicts(t, text, reading{})
				kept, left = kept+k, left+l
			}
		}
	}
	t.Logf("%d URLs: %d fixes passed without an analysis, %d analyzed", len(urls), kept, left)
	if kept == 0 || left == 0 {
		t.Errorf("escapeFixKeeps passed %d fixes and left %d: the test tests nothing", kept, left)
	}
}

// FuzzEscapeFixKeeps is TestEscapeFixKeeps on any text, under each reading.
func FuzzEscapeFixKeeps(f *testing.F) {
	for _, s := range []string{
		"http://x.org/a%zz", "https://x.org/%", "http://x.org:80/a/b;c?d=e&f#g%4g", "http://x.org/%25s%z",
		"http://x.org/a%zz/%41%", "http://x.org/%zu", "http://x.org#/%z/#x", "http://a@x.org/%", "http://x.org/%HOME%",
		"http://x.org/AB%zz%", "http://x.org/$a%zz", "http://x.org/%(a%zz)s", "http://x.org/%1%d",
	} {
		for r := range escapeFixReadings() {
			f.Add(s, uint8(r))
		}
	}
	f.Fuzz(func(t *testing.T, text string, r uint8) {
		rds := escapeFixReadings()
		escapeFixVerdicts(t, text, rds[int(r)%len(rds)])
	})
}
