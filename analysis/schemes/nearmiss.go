package schemes

import "strings"

// commonSchemes are the schemes whose misspellings NearMiss recognises: the
// ones writers type by hand in documents. Shorter or rarer schemes are left
// out: a name one edit away from "ws" or "git" is as likely another word.
var commonSchemes = []string{"http", "https", "mailto", "ftp", "file"}

// NearMiss returns the common scheme that name, a scheme not in use (see
// InUse), is most likely a misspelling of: one edit away (a letter added,
// dropped, changed or two swapped: "htps", "hhttps", "htpts", "mailt"), or
// two for the longer names https and mailto ("htttps" is one, "hptts:" two).
// Defanged URLs ("hxxp", "hxxps", "fxp"), which security writing uses on
// purpose, are not misspellings.
func NearMiss(name string) (string, bool) {
	name = strings.ToLower(name)
	if len(name) < 3 || InUse(name) || defanged(name) {
		return "", false
	}
	best, bestDist := "", 3
	for _, c := range commonSchemes {
		limit := 1
		if len(c) >= 5 {
			limit = 2
		}
		d := editDistance(name, c, limit)
		// Ties go to the scheme with the same first letter: "fttp" is ftp
		// with a letter doubled, more likely than http with one changed.
		if d <= limit && (d < bestDist || d == bestDist && name[0] == c[0] && best[0] != c[0]) {
			best, bestDist = c, d
		}
	}
	return best, best != ""
}

// defanged reports the deliberately broken schemes of security writing.
func defanged(name string) bool {
	switch name {
	case "hxxp", "hxxps", "hxtp", "hxtps", "fxp", "sftx", "meow", "meows":
		return true
	}
	return false
}

// editDistance returns the optimal string alignment distance between a and b
// (insertions, deletions, substitutions and transpositions of adjacent
// letters), or limit+1 when it is above limit.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
		}
		prev2, prev, cur = prev, cur, prev2
	}
	if d := prev[len(b)]; d <= limit {
		return d
	}
	return limit + 1
}
