package checks

import (
	"fmt"
	"strconv"

	"github.com/urlls/urlls/analysis/position"
)

// maxQuoted bounds, in bytes, what a message or a fix message quotes of a
// URL: a run of 30000 unsafe characters, a 256 KB user name or the
// thousands of escapes a fix writes are shown by their start and their
// length. One finding per URL and code keeps the findings linear in the
// document; this keeps each of them small, whatever the URL.
const maxQuoted = 64

// quote is strconv.Quote of s, cut when s is longer than maxQuoted bytes:
// then the quoted start of s, "…" and how long s is,
// `"||||…"… (30000 bytes)`.
func quote(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(position.CutAt(s, maxQuoted-16)), len(s))
}

// cut is s, or its start and "…" when s is longer than maxQuoted bytes,
// for text a message shows unquoted (an encoding "%7C%7C…", digits).
func cut(s string) string {
	if len(s) <= maxQuoted {
		return s
	}
	return position.CutAt(s, maxQuoted-1) + "…"
}
