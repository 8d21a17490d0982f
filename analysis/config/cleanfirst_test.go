package config

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/urlls/urlls/analysis/checks"
	"github.com/urlls/urlls/analysis/scan"
)

// TestCheckFirstCleanSequence: documents checked one after the other with
// one checks.Clean, as a worker of `urlls check` checks its files (each
// with the Checker memory the last one left, and past a small findings
// limit a second Checker made mid-document for the brief rest), some
// fixed as --fix does (Apply over CheckCandidatesClean, FixAll, the fixed
// document checked again): what CheckFirstClean returned for each, kept
// until every document is checked, is what it was when returned and what
// CheckFirst without a Clean returns.
func TestCheckFirstCleanSequence(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	urls := []string{
		"http://x.org/a%zz", "http://x.org/%41", "http://x.org/a b|c", "HTTP://x.org/", "htp://x.org/",
		"http://x.org/a[0]", "http://x.org/ü", "http://x.org/~u", "https://example.com/docs", "http://[::1/",
		"http://x.org/{a}", "http://münchen.de/%", "ftp://ftp.x.org/pub/",
	}
	type kept struct {
		what     string
		doc      []byte
		cands    []scan.Candidate
		sups     []scan.Suppression
		c        Config
		mildest  checks.Severity
		findings []Finding
		counts   Counts
		then     string
	}
	var all []kept
	clean := checks.NewClean()
	firstClean := func(what string, c Config, doc []byte, lang string, mildest checks.Severity) {
		scanned := scan.Scan(doc, lang)
		f, n := c.CheckFirstClean(doc, scanned.Candidates, slices.Clone(scanned.Suppressions), mildest, clean)
		all = append(all, kept{what, doc, scanned.Candidates, scanned.Suppressions, c, mildest, f, n, fmt.Sprintf("%#v %v", f, n)})
	}
	briefs := 0
	for i := range 60 {
		var b strings.Builder
		for j := range 5 + rng.Intn(80) {
			u := urls[rng.Intn(len(urls))]
			if rng.Intn(2) == 0 {
				u += fmt.Sprint(rng.Intn(4)) // met again in this document or a later one
			}
			if rng.Intn(6) == 0 {
				fmt.Fprintf(&b, "<!-- urlls-disable-next-line -->\n")
			}
			fmt.Fprintf(&b, "[l%d](%s) %s\n", j, u, u+"/b")
		}
		doc := []byte(b.String())
		c := Config{}
		if rng.Intn(3) == 0 {
			c.Grammar = "rfc3986"
		}
		if rng.Intn(4) != 0 {
			n := 1 + rng.Intn(6) // a few shown: the rest brief
			c.MaxFindings = &n
			briefs++
		}
		mildest := checks.Error + checks.Severity(rng.Intn(4))
		what := fmt.Sprintf("document %d", i)
		if rng.Intn(3) == 0 {
			scanned := scan.Scan(doc, "markdown")
			fs := c.Apply(slices.Clone(scanned.Suppressions), c.CheckOptions().CheckCandidatesClean(doc, scanned.Candidates, clean))
			edits, _ := FixAll(fs)
			all = append(all, kept{what + " before its fixes", doc, scanned.Candidates, scanned.Suppressions, c, checks.Hint, fs, CountsOf(fs), fmt.Sprintf("%#v %v", fs, CountsOf(fs))})
			var fixed []byte
			last := 0
			for _, e := range edits {
				fixed = append(append(fixed, doc[last:e.Start]...), e.NewText...)
				last = e.End
			}
			doc = append(fixed, doc[last:]...)
			what += " fixed"
		}
		firstClean(what, c, doc, "markdown", mildest)
	}
	switched := 0 // documents where CheckFirstClean went brief
	for _, k := range all {
		if limit := k.c.FindingsLimit(); limit > 0 && len(k.findings) > limit && !strings.HasSuffix(k.what, "before its fixes") {
			switched++
		}
		if now := fmt.Sprintf("%#v %v", k.findings, k.counts); now != k.then {
			t.Fatalf("%s: its findings changed as later documents were checked:\nthen %s\nnow  %s", k.what, k.then, now)
		}
		var want []Finding
		var wantCounts Counts
		if strings.HasSuffix(k.what, "before its fixes") {
			want = k.c.Apply(slices.Clone(k.sups), k.c.CheckOptions().CheckCandidates(k.doc, k.cands))
			wantCounts = CountsOf(want)
		} else {
			want, wantCounts = k.c.CheckFirst(k.doc, k.cands, slices.Clone(k.sups), k.mildest)
		}
		if k.counts != wantCounts {
			t.Errorf("%s: counts %v, without a Clean %v", k.what, k.counts, wantCounts)
		}
		if diff := cmp.Diff(want, k.findings); diff != "" {
			t.Errorf("%s: (-without a Clean +with)\n%s", k.what, diff)
		}
	}
	if briefs < 20 || switched < 10 {
		t.Errorf("%d documents with a findings limit, %d checked brief past it: the test tests little", briefs, switched)
	}
	t.Logf("%d documents, %d with a limit, %d past it", len(all), briefs, switched)
}
