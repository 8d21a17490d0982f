package checks

import (
	"reflect"
	"strings"
	"testing"

	"github.com/urlls/urlls/analysis/parser"
)

// summaryCases are URL texts with runs of bad escapes side by side: the same
// span ("%%%"), different spans ("%%z%zz%"), runs broken by other findings,
// placeholders ("%s" is a format verb) and escapes, in every part of a URL.
var summaryCases = []string{
	"http://x.org/" + strings.Repeat("%", 300),
	"http://x.org/" + strings.Repeat("%", 300) + "a",
	"http://x.org/%%%a%%zz%%%z%%9%%9g%",
	"http://x.org/a%zz%zz%zz%zz%41%zz%zz~%zz|%zz%%",
	"http://x%%%.org/%%/%%?%%#%%%",
	"http://x.org/%s%s%%%d%%{id}%%%",
	"http://x.org/%e9%%C3%A9é%%%%%é%%%",
	"%%%%",
	"foo:%%%%%%",
	"../a/%%%/b%zz%zz",
	"http://x.org/" + strings.Repeat("%zz", 200) + strings.Repeat("%", 200) + strings.Repeat("%z", 100),
	"http://[::1%%%]:8%%0/%%",
	"mailto:a%%%@b%%.c",
	// Runs apart, at a step: the same span, a different one, a step
	// that changes, another finding between, side by side after a run
	// apart and apart after one side by side.
	"http://x.org/" + strings.Repeat("a%zz", 300),
	"http://x.org/" + strings.Repeat("a%zz", 30) + "a%zy" + strings.Repeat("ab%zz", 30),
	"http://x.org/a%zza%zzab%zza%zz|a%zza%zz%zz%zza%zz%zza%zz",
	"http://x.org/%a%a%a%%%%a%a%%a%",
	"http://x.org/?" + strings.Repeat("&a=%zz", 50) + "#" + strings.Repeat("%g/", 40),
	"http://x%zz.o%zzrg/%zzb%zz",
	// Runs of unsafe characters: side by side is one run already; at a
	// step, runs of several, a different run between, a bad escape
	// between, braces whose "}" a fix would encode, non-ASCII and tildes
	// (other codes) between, in the query and the fragment.
	"http://x.org/" + strings.Repeat("|a", 300),
	"http://x.org/" + strings.Repeat("||ab", 100) + strings.Repeat("|ab", 100),
	"http://x.org/" + strings.Repeat("|a^a", 100),
	"http://x.org/|a|a%zz|a|a|a|zz|a|a",
	"http://x.org/{a}{a}{a}b{c}|{|{",
	"http://x.org/|aé|aé|a~|a~|a",
	"http://x.org/?q=" + strings.Repeat("a|", 50) + "#" + strings.Repeat("^b", 50),
	"http://x|y.org/|a|a",
	// Runs of tildes (rfc1738-unsafe; syntax under the XBNF, and
	// another message in a fragment directive), non-ASCII characters
	// (valid UTF-8 or not) and needless escapes.
	"http://x.org/" + strings.Repeat("~a", 200) + "#a~b:~:text=~x~",
	"http://x.org/~~a~~a~a~~a",
	"http://x.org/" + strings.Repeat("éa", 100) + strings.Repeat("\xffa", 50) + "é",
	"http://xé.org/éaéa/ü",
	"http://x.org/" + strings.Repeat("%41a", 100) + "%41%42b%41%42b%2E/%2E%2E/",
	"http://x.org/%41|a%41|a~|a~é|aé%zz|a",
	// Brackets after the authority: a syntax finding whose fix encodes
	// them all (bracketFix), paired, stray, a word, a query's.
	"http://x.org/a[1]b[2]",
	"http://x.org/a]b",
	"http://x.org/a/c.[extension]",
	"http://x.org/?filter[name]=x&items[0][id]=1",
	"http://x.org/" + strings.Repeat("[a](http://a.org/(", 50),
	// A host name label of non-ASCII characters alone (nonASCIILabel),
	// then the same characters outside the host: the same code and text,
	// another message, so no run.
	"http://é/é/é",
	"http://é@é/é",
	"http://é.é/aé",
	"news:é@é",
}

// TestSummary: an analysis that makes one finding of a run of identical bad
// escapes (summary) merges to the same findings as one that makes a
// finding of each (findOnly), under every profile, absolute and relative.
// check uses summary for a URL too long to verify a fix of, where findOnly's
// findings would be the same but for their fixes, which neither has.
func TestSummary(t *testing.T) { onSummaryCases(t, testSummary) }

// onSummaryCases runs test on each of summaryCases.
func onSummaryCases(t *testing.T, test func(*testing.T, string)) {
	for _, text := range summaryCases {
		test(t, text)
	}
}

// fuzzFromSummaryCases fuzzes test, summaryCases its seeds.
func fuzzFromSummaryCases(f *testing.F, test func(*testing.T, string)) {
	for _, s := range summaryCases {
		f.Add(s)
	}
	f.Fuzz(test)
}

func testSummary(t *testing.T, text string) {
	t.Helper()
	for _, p := range []parser.Profile{parser.RFC1738, parser.RFC3986, parser.XBNF} {
		for _, relative := range []bool{false, true} {
			rd := reading{relative: relative, profile: p}
			want := checkIn(findOnly, text, rd, new(scratch))
			got := checkIn(summary, text, rd, new(scratch))
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%q (profile %v, relative %v): summary\n%+v\nfind-only\n%+v", text, p, relative, got, want)
			}
		}
	}
}

// TestSummaryLong: a URL past the verify budget is checked in summary
// (check), with the findings a finding per bad escape makes.
func TestSummaryLong(t *testing.T) {
	for _, text := range []string{
		"http://x.org/" + strings.Repeat("%", 100_000),
		"http://x.org/" + strings.Repeat("%zz%%", 20_000) + "|" + strings.Repeat("~%", 10_000),
		"http://x.org/" + strings.Repeat("a%zz", 100_000),
		"http://x.org/" + strings.Repeat("|a", 100_000),
		"http://x.org/" + strings.Repeat("|a", 50_000) + strings.Repeat("^a|b", 20_000),
		"http://x.org/" + strings.Repeat("~a", 50_000) + strings.Repeat("éa", 30_000) + strings.Repeat("%41a", 20_000),
	} {
		rd := reading{profile: parser.RFC1738}
		want := checkIn(findOnly, text, rd, new(scratch))
		got := check(text, rd, nil)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%.40q…: check\n%+v\nfind-only\n%+v", text, got, want)
		}
	}
}

// FuzzSummary is TestSummary on any text.
func FuzzSummary(f *testing.F) { fuzzFromSummaryCases(f, testSummary) }

// TestSummaryRuns: an analysis that only counts makes one finding of a
// run of identical bad escapes or unsafe characters at a step, so that a
// URL of hundreds of thousands of them costs a few findings' memory.
func TestSummaryRuns(t *testing.T) {
	for _, tc := range []struct {
		text string
		most int // findings before merge, at most
	}{
		{"http://x.org/" + strings.Repeat("a%zz", 100_000), 1},
		{"http://x.org/" + strings.Repeat("|a", 100_000), 1},
		{"http://x.org/" + strings.Repeat("||ab", 50_000), 1},
		{"http://x.org/" + strings.Repeat("|a", 50_000) + strings.Repeat("a%zz", 50_000), 2},
		{"http://x.org/" + strings.Repeat("~a", 100_000), 1},
		{"http://x.org/" + strings.Repeat("éa", 100_000), 1},
		{"http://x.org/" + strings.Repeat("%41a", 100_000), 1},
	} {
		fs, _ := analyze(tc.text, reading{profile: parser.RFC1738}, summary, new(scratch), nil)
		if len(fs) > tc.most {
			t.Errorf("%.30q…: %d findings before merge, want at most %d", tc.text, len(fs), tc.most)
		}
	}
}

// unverified merges the findings of text analyzed in mode m with no budget
// to verify a fix with: what check does for a URL too long to verify one
// (verifiable).
func unverified(m mode, text string, rd reading) []finding {
	sc := new(scratch)
	fs, stop := analyze(text, rd, m, sc, nil)
	v := verifier{text: text, rd: rd, stop: stop, findings: fs, budget: 0, scratch: sc, masked: sc.masked, auth: sc.auth}
	return merge(fs, &v)
}

// testUnverified: with no fix verified, the findings of an analysis that
// only counts (summary) merge to what those of a full one (withFixes),
// one finding each occurrence, with its message and fix, merge to. check
// of a URL past the verify budget, and a brief check, use summary; a full
// analysis is what they used before summary made runs of characters. The
// texts are short, so any text is quick to try, and merge with no budget
// offers no fix whatever the length.
func testUnverified(t *testing.T, text string) {
	t.Helper()
	for _, p := range []parser.Profile{parser.RFC1738, parser.RFC3986, parser.XBNF} {
		for _, relative := range []bool{false, true} {
			for _, brief := range []bool{false, true} {
				rd := reading{relative: relative, profile: p, brief: brief}
				want := unverified(withFixes, text, rd)
				got := unverified(summary, text, rd)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%q (profile %v, relative %v, brief %v): summary\n%+v\nwith fixes\n%+v", text, p, relative, brief, got, want)
				}
			}
		}
	}
}

// TestSummaryUnverified is testUnverified on the summary cases.
func TestSummaryUnverified(t *testing.T) { onSummaryCases(t, testUnverified) }

// FuzzSummaryUnverified is testUnverified on any text.
func FuzzSummaryUnverified(f *testing.F) { fuzzFromSummaryCases(f, testUnverified) }

// TestFindOnlyAsFull: verify's analysis of a fixed text (findOnly), which
// makes the findings of characters without their fixes, finds what a full
// one does, at the same places, with the same messages.
func TestFindOnlyAsFull(t *testing.T) { onSummaryCases(t, testFindOnly) }

func testFindOnly(t *testing.T, text string) {
	t.Helper()
	for _, p := range []parser.Profile{parser.RFC1738, parser.RFC3986, parser.XBNF} {
		for _, relative := range []bool{false, true} {
			rd := reading{relative: relative, profile: p}
			want, wantStop := analyze(text, rd, withFixes, new(scratch), nil)
			got, gotStop := analyze(text, rd, findOnly, new(scratch), nil)
			for i := range want {
				want[i].fixes = nil
			}
			for i := range got {
				got[i].fixes = nil
			}
			if !reflect.DeepEqual(got, want) || gotStop != wantStop {
				t.Errorf("%q (profile %v, relative %v): find-only (stop %d)\n%+v\nwith fixes (stop %d)\n%+v", text, p, relative, gotStop, got, wantStop, want)
			}
		}
	}
}

// FuzzFindOnlyAsFull is TestFindOnlyAsFull on any text.
func FuzzFindOnlyAsFull(f *testing.F) { fuzzFromSummaryCases(f, testFindOnly) }

// TestBracketFixOnlyWithFixes: the fix that encodes every bracket after
// the authority, an edit a bracket, is made where it may be offered
// (withFixes) and not where it is not (summary, findOnly).
func TestBracketFixOnlyWithFixes(t *testing.T) {
	text := "http://x.org/" + strings.Repeat("a[1]", 1000)
	edits := func(m mode) int {
		fs, _ := analyze(text, reading{profile: parser.RFC1738}, m, new(scratch), nil)
		n := 0
		for _, f := range fs {
			for _, fx := range f.fixes {
				n += len(fx.edits)
			}
		}
		return n
	}
	if n := edits(withFixes); n != 2000 {
		t.Errorf("withFixes: %d edits, want one for each of the 2000 brackets", n)
	}
	for _, m := range []mode{findOnly, summary} {
		if n := edits(m); n != 0 {
			t.Errorf("mode %d: %d edits, want none", m, n)
		}
	}
}
