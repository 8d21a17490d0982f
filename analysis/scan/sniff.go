package scan

import (
	"bytes"
	"regexp"
)

// sniffLimit is how much of a plain-text document looksLikeAsciiDoc reads.
const sniffLimit = 64 << 10

// asciiDocMarkers are the constructs that plain text hardly ever holds and
// AsciiDoc documents are full of: inline macros with their bracketed text
// ("linkgit:git-log[1]", "link:x.html[x]", "https://x.org/y[text]",
// "image:a.png[]", or a text that a line break wraps, "https://x.org/y[the"
// at a line's end; a URL macro's target is not empty, as Asciidoctor's
// InlineLinkRx has it, so "http://[::1]:80/" is an IP literal, not a
// macro), attribute entries (":toc: left"), block attribute lines
// ("[source,go]", "[NOTE]") and include and image block macros.
var asciiDocMarkers = []*regexp.Regexp{
	regexp.MustCompile(`(?m)\b(?:(?:https?|ftp|irc)://[^\s\[\]]+|(?:linkgit|link|xref|image|footnote|kbd|btn|menu|mailto):[^\s\[\]]*)\[(?:[^\]\n]*\]|\pL[^\]\n]*$)`),
	regexp.MustCompile(`(?m)^:!?[A-Za-z0-9_][A-Za-z0-9_-]*!?:(?: |$)`),
	regexp.MustCompile(`(?m)^\[(?:source|listing|literal|verse|quote|NOTE|TIP|IMPORTANT|WARNING|CAUTION|horizontal|glossary)(?:[,\]])`),
	regexp.MustCompile(`(?m)^(?:include|image|ifdef|ifndef|toc)::\S*\[`),
}

// looksLikeAsciiDoc reports whether doc, given as plain text, is AsciiDoc:
// at least three markers (asciiDocMarkers) in its first sniffLimit bytes.
// Projects write AsciiDoc in .txt files (git's documentation is), and read
// as plain text every "https://x.org/y[text]" link macro would be a URL
// with a broken "[" in it.
//
// No marker spans a line ("\s", "\S" and "[^\]\n]" stop at its end, "^"
// and "$" are a line's), so the expressions run on the lines that can hold
// one only: a line with a "[" (every marker but an attribute entry has
// one) or that starts with ":" (an attribute entry). On a text of prose
// that is a few lines in a hundred, where running them over the whole
// head cost a check of a tree of real documents 15% of its time. The
// count is the same (TestAsciiDocSniffLines).
func looksLikeAsciiDoc(doc []byte) bool {
	head := doc[:min(len(doc), sniffLimit)]
	if bytes.IndexByte(head, '[') < 0 {
		return false
	}
	n := 0
	for len(head) > 0 {
		line := head
		if nl := bytes.IndexByte(head, '\n'); nl >= 0 {
			line, head = head[:nl], head[nl+1:]
		} else {
			head = nil
		}
		if len(line) == 0 || line[0] != ':' && bytes.IndexByte(line, '[') < 0 {
			continue
		}
		for k, re := range asciiDocMarkers {
			if !markerMayMatch(k, line) {
				continue
			}
			n += len(re.FindAllIndex(line, 3-n))
			if n >= 3 {
				return true
			}
		}
	}
	return false
}

// markerMayMatch reports whether the k-th of asciiDocMarkers may match in
// line, from what every match holds: a macro a ":" (and the "[" the line
// has), an attribute entry a ":" first, a block attribute line a "["
// first, a block macro "::". Running an expression only where it may match
// halves the sniff of a tree's plain text, and finds the same (FuzzAsciiDocSniffLines).
func markerMayMatch(k int, line []byte) bool {
	switch k {
	case 0:
		return bytes.IndexByte(line, ':') >= 0
	case 1:
		return line[0] == ':'
	case 2:
		return line[0] == '['
	case 3:
		return bytes.Contains(line, []byte("::"))
	}
	return true
}
