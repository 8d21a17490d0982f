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
// "image:a.png[]"; a URL macro's target is not empty, as Asciidoctor's
// InlineLinkRx has it, so "http://[::1]:80/" is an IP literal, not a
// macro), attribute entries (":toc: left"), block attribute lines
// ("[source,go]", "[NOTE]") and include and image block macros.
var asciiDocMarkers = []*regexp.Regexp{
	regexp.MustCompile(`\b(?:(?:https?|ftp|irc)://[^\s\[\]]+|(?:linkgit|link|xref|image|footnote|kbd|btn|menu|mailto):[^\s\[\]]*)\[[^\]\n]*\]`),
	regexp.MustCompile(`(?m)^:!?[A-Za-z0-9_][A-Za-z0-9_-]*!?:(?: |$)`),
	regexp.MustCompile(`(?m)^\[(?:source|listing|literal|verse|quote|NOTE|TIP|IMPORTANT|WARNING|CAUTION|horizontal|glossary)(?:[,\]])`),
	regexp.MustCompile(`(?m)^(?:include|image|ifdef|ifndef|toc)::\S*\[`),
}

// looksLikeAsciiDoc reports whether doc, given as plain text, is AsciiDoc:
// at least three markers (asciiDocMarkers) in its first sniffLimit bytes.
// Projects write AsciiDoc in .txt files (git's documentation is), and read
// as plain text every "https://x.org/y[text]" link macro would be a URL
// with a broken "[" in it.
func looksLikeAsciiDoc(doc []byte) bool {
	head := doc[:min(len(doc), sniffLimit)]
	if bytes.IndexByte(head, '[') < 0 {
		return false
	}
	n := 0
	for _, re := range asciiDocMarkers {
		n += len(re.FindAllIndex(head, 3-n))
		if n >= 3 {
			return true
		}
	}
	return false
}
