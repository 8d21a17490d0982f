package position

import "unicode/utf8"

// CutAt returns the longest start of s of at most n bytes that does not
// split a character: what a message, a hover or a JSON finding shows of a
// text it bounds. An invalid byte counts as a character of its own (it
// does not start one only when it is a continuation byte).
func CutAt(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
