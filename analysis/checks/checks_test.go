package checks

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/urlls/urlls/analysis/scan"
)

// The minimal document a URL is checked in: text on both sides, so that a
// span or an edit that leaves the URL shows.
const (
	docBefore = "see <"
	docAfter  = "> now"
)

// candidateIn returns a document holding url and the candidate for it.
func candidateIn(url string, relative bool) ([]byte, scan.Candidate) {
	doc := []byte(docBefore + url + docAfter)
	return doc, scan.Candidate{Start: len(docBefore), End: len(docBefore) + len(url), Text: url, Context: scan.Angle, Relative: relative}
}

// applyDocEdits applies non-overlapping, ordered edits to doc.
func applyDocEdits(doc []byte, edits []TextEdit) ([]byte, error) {
	var out []byte
	prev := 0
	for _, e := range edits {
		if e.Start < prev || e.End < e.Start || e.End > len(doc) {
			return nil, fmt.Errorf("bad edit %+v after offset %d", e, prev)
		}
		out = append(out, doc[prev:e.Start]...)
		out = append(out, e.NewText...)
		prev = e.End
	}
	return append(out, doc[prev:]...), nil
}

// got is a diagnostic as the tables write it: the span as offset and bytes
// of the URL, and the URL after the first fix ("" when there is none).
type got struct {
	Code  string
	At    int
	Span  string
	Msg   string
	Fixed string
}

func describe(t *testing.T, url string, relative bool) []got {
	t.Helper()
	return describeWith(t, Options{}, url, relative)
}

// describeWith is describe under opts.
func describeWith(t *testing.T, opts Options, url string, relative bool) []got {
	t.Helper()
	doc, c := candidateIn(url, relative)
	var out []got
	for _, d := range opts.CheckURL(doc, c) {
		g := got{Code: d.Code, At: d.Start - c.Start, Span: string(doc[d.Start:d.End]), Msg: d.Message}
		if len(d.SuggestedFixes) > 0 {
			fixed, err := applyDocEdits(doc, d.SuggestedFixes[0].Edits)
			if err != nil {
				t.Fatalf("%s: %v", url, err)
			}
			if !strings.HasPrefix(string(fixed), docBefore) || !strings.HasSuffix(string(fixed), docAfter) {
				t.Fatalf("%s: fix %+v touches the document outside the URL: %q", url, d.SuggestedFixes[0], fixed)
			}
			g.Fixed = string(fixed[len(docBefore) : len(fixed)-len(docAfter)])
		}
		out = append(out, g)
	}
	return out
}

func TestCleanURLs(t *testing.T) {
	for _, u := range []string{
		"http://www.example.com",
		"http://www.example.com/",
		"http://example.com:8080/path/to/file.html?query=1&b=2",
		"http://example.com/a;b:c@d&e=f?x=y;z:w@v#frag",
		"http://192.168.0.1:80/",
		"http://255.255.255.255:65535/",
		"http://x.com/%7Euser",
		"http://x.com/%2E%2E/up/%2e/same",
		"http://x.com/%20%2F%3F",
		"https://example.com/secure?q=1",
		"ftp://ftp.example.com/pub/file.txt",
		"ftp://ftp.example.com/pub/file.txt;type=i",
		"ftp://ftp.example.com/pub/;type=D",
		"ftp://anonymous@ftp.example.com/pub",
		"ftp://ftp.example.com:21/",
		"file:///etc/passwd",
		"file://localhost/etc/hosts",
		"file://host.example.com/C:/dir/file",
		"gopher://gopher.example.com",
		"gopher://gopher.example.com/",
		"gopher://gopher.example.com/1selector%09search%09plus",
		"mailto:someone@example.com",
		"mailto:a.b+c@sub.example.org",
		"news:comp.lang.go",
		"news:*",
		"news:12345@news.example.com",
		"nntp://news.example.com/comp.lang.go",
		"nntp://news.example.com:119/comp.lang.go/42",
		"telnet://host.example.com",
		"telnet://host.example.com/",
		"telnet://guest@host.example.com:23/",
		"wais://wais.example.com/db",
		"wais://wais.example.com/db?query",
		"wais://wais.example.com:210/db/type/path",
		"prospero://host.example.com/path/to;field=value;other=x",
		// Script source, not URL characters (analyze).
		"javascript:void(0)",
		"javascript:queryParam('layout', 'grid')",
		`javascript:alert("a <b> | ^ {c}")`,
		"javascript:",
	} {
		if ds := describe(t, u, false); len(ds) != 0 {
			t.Errorf("%s: want no diagnostics, got %+v", u, ds)
		}
	}
	for _, u := range []string{"", "../a/b?c#d", "//host.example.com/path", "?q=1", "#frag", "a/b;p?q", "./", "http://x.com/"} {
		if ds := describe(t, u, true); len(ds) != 0 {
			t.Errorf("relative %q: want no diagnostics, got %+v", u, ds)
		}
	}
}

func TestCodes(t *testing.T) {
	const notEscape = `: "%" must be followed by two hex digits`
	for _, tc := range []struct {
		name     string
		url      string
		relative bool
		want     []got
	}{
		// bad-escape
		{name: "bad-escape/letters", url: "http://x.com/100%zz", want: []got{
			{codeBadEscape, 16, "%zz", `"%zz" is not an escape` + notEscape, "http://x.com/100%25zz"}}},
		{name: "bad-escape/one-digit-at-end", url: "http://x.com/a%4", want: []got{
			{codeBadEscape, 14, "%4", `"%4" is not an escape` + notEscape, "http://x.com/a%254"}}},
		{name: "bad-escape/alone-at-end", url: "http://x.com/a%", want: []got{
			{codeBadEscape, 14, "%", `"%" is not an escape` + notEscape, "http://x.com/a%25"}}},
		{name: "bad-escape/before-slash", url: "http://x.com/50%/x", want: []got{
			{codeBadEscape, 15, "%", `"%" is not an escape` + notEscape, "http://x.com/50%25/x"}}},
		{name: "bad-escape/double", url: "http://x.com/%%41", want: []got{
			{codeBadEscape, 13, "%", `"%" is not an escape` + notEscape, "http://x.com/%25%41"},
			{codeRedundantEscape, 14, "%41", `"%41" needlessly escapes "A"`, "http://x.com/%A"}}},
		{name: "bad-escape/in-host-no-fix", url: "http://a%zz.com/", want: []got{
			{codeBadEscape, 8, "%zz", `"%zz" is not an escape` + notEscape, ""}}},
		{name: "good-escapes", url: "http://x.com/%3c%3E%25%7e%00", want: nil},

		// unsafe-char
		{name: "unsafe/space", url: "http://x.com/a b", want: []got{
			{codeUnsafeChar, 14, " ", `unsafe character " ": no URL grammar allows it unencoded`, "http://x.com/a%20b"}}},
		{name: "unsafe/run", url: "http://x.com/a{|}b", want: []got{
			{codeUnsafeChar, 14, "{|}", `unsafe characters "{|}": no URL grammar allows them unencoded`, "http://x.com/a%7B%7C%7Db"}}},
		{name: "unsafe/each", url: `http://x.com/"<>\^` + "`" + "\t\x7f", want: []got{
			{codeUnsafeChar, 13, `"<>\^` + "`\t\x7f", `unsafe characters "\"<>\\^` + "`" + `\t\x7f": no URL grammar allows them unencoded`, "http://x.com/%22%3C%3E%5C%5E%60%09%7F"}}},
		{name: "unsafe/brace-partner", url: "http://x.com/a{b!}c", want: []got{
			{codeUnsafeChar, 14, "{b!}", `2 unsafe characters "{" and "}": no URL grammar allows them unencoded`, "http://x.com/a%7Bb!%7Dc"}}},
		{name: "unsafe/brace-partner-alone", url: "http://x.com/a{b!c", want: []got{
			{codeUnsafeChar, 14, "{", `unsafe character "{": no URL grammar allows it unencoded`, "http://x.com/a%7Bb!c"}}},
		{name: "unsafe/merged", url: "http://x.com/a|b|c d|e", want: []got{
			{codeUnsafeChar, 14, "|b|c d|", `4 unsafe characters "|" and " ": no URL grammar allows them unencoded`, "http://x.com/a%7Cb%7Cc%20d%7Ce"}}},
		{name: "unsafe/merged-partly-fixable", url: "http://a b.com/c|d", want: []got{
			{codeUnsafeChar, 8, " b.com/c|", `2 unsafe characters " " and "|": no URL grammar allows them unencoded`, ""}}},
		{name: "unsafe/in-host-no-fix", url: "http://a b.com/", want: []got{
			{codeUnsafeChar, 8, " ", `unsafe character " ": no URL grammar allows it unencoded`, ""}}},
		{name: "unsafe/in-port-no-fix", url: "http://x.com:8 0/", want: []got{
			{codeUnsafeChar, 14, " ", `unsafe character " ": no URL grammar allows it unencoded`, ""}}},
		{name: "unsafe/query", url: "http://x.com/s?q=a b", want: []got{
			{codeUnsafeChar, 18, " ", `unsafe character " ": no URL grammar allows it unencoded`, "http://x.com/s?q=a%20b"}}},
		{name: "unsafe/relative", url: "a b/c", relative: true, want: []got{
			{codeUnsafeChar, 1, " ", `unsafe character " ": no URL grammar allows it unencoded`, "a%20b/c"}}},

		// rfc1738-unsafe
		{name: "rfc1738/tilde", url: "http://x.com/~user/", want: []got{
			{codeRFC1738Unsafe, 13, "~", `"~" is unsafe in RFC 1738 (RFC 3986 made it unreserved)`, "http://x.com/%7Euser/"}}},
		{name: "rfc1738/tildes", url: "http://x.com/a~~b", want: []got{
			{codeRFC1738Unsafe, 14, "~~", `"~" is unsafe in RFC 1738 (RFC 3986 made it unreserved)`, "http://x.com/a%7E%7Eb"}}},
		{name: "rfc1738/ipv6", url: "http://[2001:db8::1]:8080/a", want: []got{
			{codeRFC1738Unsafe, 7, "[2001:db8::1]", `ipv6 literal host "[2001:db8::1]": RFC 1738 has no IP literals (RFC 2732 added them)`, ""}}},
		{name: "rfc1738/ipv6-ftp", url: "ftp://[::1]/f", want: []got{
			{codeRFC1738Unsafe, 6, "[::1]", `ipv6 literal host "[::1]": RFC 1738 has no IP literals (RFC 2732 added them)`, ""}}},
		{name: "rfc1738/ipv6-relative", url: "//[::1]/f", relative: true, want: []got{
			{codeRFC1738Unsafe, 2, "[::1]", `ipv6 literal host "[::1]": RFC 1738 has no IP literals (RFC 2732 added them)`, ""}}},
		{name: "rfc1738/search-slash", url: "http://x.com/a?b/c", want: []got{
			{codeRFC1738Unsafe, 16, "/", `"/" in a search part: RFC 1738 §3.3 reserves "/" and "?" there (RFC 3986 allows them)`, ""}}},
		{name: "rfc1738/search-both", url: "http://x.com/a?r=http://y/?z#f/", want: []got{
			{codeRFC1738Unsafe, 22, "//y/?", `"/" and "?" in a search part: RFC 1738 §3.3 reserves "/" and "?" there (RFC 3986 allows them)`, ""}}},
		{name: "rfc1738/search-wais", url: "wais://h.com/db?a?b", want: []got{
			{codeRFC1738Unsafe, 17, "?", `"?" in a search part: RFC 1738 §3.3 reserves "/" and "?" there (RFC 3986 allows them)`, ""}}},
		{name: "rfc1738/userinfo", url: "http://user@x.com/", want: []got{
			{codeRFC1738Unsafe, 7, "user@", `userinfo "user@" in an http url: RFC 1738 §3.3 has none (RFC 3986 allows and deprecates it)`, ""}}},
		{name: "rfc1738/userinfo-password", url: "https://user:hunter2@x.com/", want: []got{
			{codeRFC1738Unsafe, 8, "user:hunter2@", `userinfo "user:hunter2@" in an https url: RFC 1738 §3.3 has none (RFC 3986 allows and deprecates it)`, ""},
			{codeCredentials, 13, "hunter2", "password in the url: whoever sees the url can read it", ""}}},
		// "host:port" is a placeholder; as digits, RFC 3986 names the userinfo.
		{name: "rfc1738/userinfo-placeholder-port", url: "http://user:pass@host:port", want: []got{
			{codeRFC1738Unsafe, 7, "user:pass@", `userinfo "user:pass@" in an http url: RFC 1738 §3.3 has none (RFC 3986 allows and deprecates it)`, ""}}},
		{name: "credentials/placeholder-word", url: "https://user:password@x.com/", want: []got{
			{codeRFC1738Unsafe, 8, "user:password@", `userinfo "user:password@" in an https url: RFC 1738 §3.3 has none (RFC 3986 allows and deprecates it)`, ""}}},
		{name: "credentials/placeholder", url: "ftp://user:<password>@x.com/", want: nil},
		{name: "credentials/template", url: "ftp://user:${PASSWORD}@x.com/", want: nil},
		{name: "credentials/example-host", url: "ftp://bob:hunter2@ftp.example.org/", want: nil},
		{name: "credentials/localhost", url: "ftp://postgres:postgres@localhost:5432/", want: nil},
		{name: "credentials/token-word", url: "https://oauth2:TOKEN@gitlab.corp.internal/a.git", want: []got{
			{codeRFC1738Unsafe, 8, "oauth2:TOKEN@", `userinfo "oauth2:TOKEN@" in an https url: RFC 1738 §3.3 has none (RFC 3986 allows and deprecates it)`, ""}}},
		{name: "credentials/placeholder-host", url: "ftp://bob:hunter2@host/", want: nil},
		// RFC 3092's metasyntactic variables: no secret is "foo".
		{name: "credentials/metasyntactic", url: "ftp://derek:foo@ftp.corp.internal/", want: nil},
		{name: "credentials/metasyntactic-upper", url: "ftp://u:Bar@ftp.corp.internal/", want: nil},
		{name: "credentials/metasyntactic-in-a-word", url: "ftp://u:foo1@ftp.corp.internal/", want: []got{
			{codeCredentials, 8, "foo1", "password in the url: whoever sees the url can read it", ""}}},
		// Oracle's sample schema, SCOTT/TIGER, is published: SQLAlchemy's
		// documentation writes "oracle://scott:tiger@dsn".
		{name: "credentials/sample-schema", url: "ftp://scott:tiger@db.corp.internal/", want: nil},
		{name: "credentials/sample-schema-upper", url: "ftp://SCOTT:TIGER@db.corp.internal/", want: nil},
		{name: "credentials/sample-schema-other-user", url: "ftp://bob:tiger@db.corp.internal/", want: []got{
			{codeCredentials, 10, "tiger", "password in the url: whoever sees the url can read it", ""}}},
		{name: "credentials/sample-schema-other-password", url: "ftp://scott:tiger5@db.corp.internal/", want: []got{
			{codeCredentials, 12, "tiger5", "password in the url: whoever sees the url can read it", ""}}},
		// git's documentation of http.proxy: the port is a word, the URL a form.
		{name: "credentials/form", url: "ftp://login-on-proxy:passwd-on-proxy@proxy-host.com:port", want: nil},
		{name: "credentials/digit-port", url: "ftp://login:hunter2@proxy-host.com:8080", want: []got{
			{codeCredentials, 12, "hunter2", "password in the url: whoever sees the url can read it", ""}}},
		{name: "rfc1738/empty-port", url: "http://x.com:/a", want: []got{
			{codeRFC1738Unsafe, 12, ":", `empty port: RFC 1738 requires digits after ":" (RFC 3986 allows none)`, ""}}},
		{name: "rfc1738/empty-port-at-end", url: "telnet://x.com:", want: []got{
			{codeRFC1738Unsafe, 14, ":", `empty port: RFC 1738 requires digits after ":" (RFC 3986 allows none)`, ""}}},

		// non-ascii
		{name: "non-ascii/path", url: "http://x.com/café", want: []got{
			{codeNonASCII, 16, "é", `non-ascii character "é": URLs are US-ASCII (RFC 1738 §2.2)`, "http://x.com/caf%C3%A9"}}},
		{name: "non-ascii/run", url: "http://x.com/パス", want: []got{
			{codeNonASCII, 13, "パス", `non-ascii characters "パス": URLs are US-ASCII (RFC 1738 §2.2)`, "http://x.com/%E3%83%91%E3%82%B9"}}},
		{name: "non-ascii/invalid-utf8", url: "http://x.com/a\xffb", want: []got{
			{codeNonASCII, 14, "\xff", `non-ascii bytes "\xff", not even UTF-8: URLs are US-ASCII (RFC 1738 §2.2)`, "http://x.com/a%FFb"}}},
		{name: "non-ascii/host", url: "http://www.Bücher.de/", want: []got{
			{codeNonASCII, 11, "Bücher", `non-ascii host name label "Bücher": host names are US-ASCII (RFC 1738 §3.1)`, "http://www.xn--bcher-kva.de/"}}},
		{name: "non-ascii/host-two-runs", url: "http://münchen-ö.de/", want: []got{
			{codeNonASCII, 7, "münchen-ö", `non-ascii host name label "münchen-ö": host names are US-ASCII (RFC 1738 §3.1)`, "http://xn--mnchen--g1a1c.de/"}}},

		{name: "non-ascii/host-label-not-ldh", url: "http://a_ü.de/", want: []got{
			{codeNonASCII, 7, "a_ü", `non-ascii host name label "a_ü": host names are US-ASCII (RFC 1738 §3.1)`, ""},
			{codeRFC1738Unsafe, 8, "_", `"_" in host name "a_ü.de": RFC 1738 §3.1 allows letters, digits and "-" (RFC 3986 allows it)`, ""}}},

		// syntax
		{name: "syntax/port", url: "http://x.com:8a/", want: []got{
			{codeSyntax, 14, "a", `unexpected "a" in httpurl › hostport › port: expected digit, "/" or end of input`, ""}}},
		{name: "syntax/hostname-label", url: "http://x-.com/", want: []got{
			{codeSyntax, 9, ".", `unexpected "." in httpurl › hostport › host › hostname › domainlabel: expected alphadigit or "-"`, ""}}},
		{name: "syntax/ftptype", url: "ftp://h.com/a;type=x", want: []got{
			{codeSyntax, 19, "x", `unexpected "x" in ftpurl: expected ftptype`, ""}}},
		{name: "syntax/nntp-article", url: "nntp://h.com/g/12x", want: []got{
			{codeSyntax, 17, "x", `unexpected "x" in nntpurl: expected digit or end of input`, ""}}},
		{name: "syntax/telnet-path", url: "telnet://h.com/x", want: []got{
			{codeSyntax, 15, "x", `unexpected "x" in telneturl: expected end of input`, ""}}},
		{name: "syntax/end-of-input", url: "nntp://h.com", want: []got{
			{codeSyntax, 11, "m", `unexpected end of input in nntpurl › hostport › host › hostname › domainlabel: expected alphadigit, "-", ".", ":" or "/"`, ""}}},
		{name: "syntax/second-hash", url: "http://x.com/#a#b", want: []got{
			{codeSyntax, 15, "#", `unexpected "#" in fragment: expected unreserved, reserved, escape or end of input`, ""}}},
		{name: "syntax/news-group", url: "news:comp.lang!go", want: []got{
			{codeSyntax, 16, "o", `unexpected end of input in newsurl › grouppart › article: expected unreserved, ";", "/", "?", ":", "&", "=", escape or "@"`, ""}}},
		{name: "syntax/after-unsafe", url: "http://x y.com:8a/", want: []got{
			{codeUnsafeChar, 8, " ", `unsafe character " ": no URL grammar allows it unencoded`, ""},
			{codeSyntax, 16, "a", `unexpected "a" in httpurl › hostport › port: expected digit, "/" or end of input`, ""}}},

		// templates and placeholders: never reported, never fixed
		{name: "template/go", url: "{{ .Site.BaseURL }}/about", relative: true, want: nil},
		{name: "template/all", url: "{{.URL}}", relative: true, want: nil},
		{name: "template/uri-template", url: "https://api.example.com/users/{id}", want: nil},
		{name: "template/angle", url: "https://github.com/<user>/<repo>", want: nil},
		{name: "template/port", url: "https://example.com:{{ .Port }}/x", want: nil},
		{name: "template/shell", url: "http://$HOST:$PORT/x", want: nil},
		{name: "template/glob", url: "http://{site,host}.host[1-5].example/", want: nil},
		{name: "template/wildcard-host", url: "https://*.*.sanity.io/**", want: nil},
		{name: "template/port-word", url: "ftp://user:pass@host:port/", want: nil},
		{name: "template/port-words", url: "http://unix:SOCK_PATH:URL_PATH", want: nil},
		{name: "template/port-words-and-digits", url: "http://unix:SOCK:80", want: []got{
			{codeSyntax, 12, "S", `unexpected "S" in httpurl › hostport: expected port`, ""}}},
		{name: "template/ellipsis", url: "https://...url.../x", want: nil},
		{name: "template/host-name", url: "gs://[bucket_name]/x", want: nil},
		{name: "template/host-name-port", url: "http://[host]:port/x", want: nil},
		{name: "template/host-alternatives", url: "http://[ip/dnsname]:3332/", want: nil},
		{name: "template/base", url: "[preferred]/xerces/c/", want: nil},
		{name: "syntax/ip-literal-botched", url: "http://[fe80]/x", want: []got{
			{codeRFC1738Unsafe, 7, "[", `unexpected "[" in httpurl: expected hostport (RFC 1738; RFC 3986 allows it)`, ""},
			{codeSyntax, 12, "]", `unexpected "]" in http-URI › authority › host › IP-literal › IPv6address: expected ":" or "::"`, ""}}},
		{name: "rfc1738/percent-encoded-idn", url: "http://www.m%C3%BCnich.com/index.html", want: []got{
			{codeRFC1738Unsafe, 7, "www.m%C3%BCnich.com", `percent-encoded host name "www.m%C3%BCnich.com": RFC 1738 §3.1 has no escapes in a host (RFC 3986 §3.2.2 allows them, for names in UTF-8; resolvers take "www.xn--mnich-kva.com")`, ""}}},
		{name: "syntax/percent-encoded-combining-mark-first", url: "http://%CC%81a.com/", want: []got{
			{codeSyntax, 7, "%", `unexpected "%" in httpurl: expected hostport`, ""}}},
		{name: "syntax/percent-encoded-space-in-host", url: "http://a%20b.com/", want: []got{
			{codeSyntax, 8, "%", `unexpected "%" in httpurl › hostport › host › hostname › domainlabel: expected ".", alphadigit, "-", ":", "/" or end of input`, ""}}},
		// "[" and "]" after the host: every one from the first on
		// percent-encoded, the finding spanning them, the masked ones (a
		// router segment) left alone.
		{name: "syntax/bracket-in-path", url: "http://example.com/a[1].html", want: []got{
			{codeSyntax, 20, "[1]", `unexpected "[" in httpurl › hpath › hsegment: expected unreserved, ";", ":", "@", "&", "=", escape, "/", "?" or end of input`, "http://example.com/a%5B1%5D.html"}}},
		{name: "syntax/brackets-in-query", url: "https://x.org/s?f[a][b]=1", want: []got{
			{codeSyntax, 17, "[a][b]", `unexpected "[" in httpsurl › search: expected unreserved, ";", ":", "@", "&", "=", escape or end of input`, "https://x.org/s?f%5Ba%5D%5Bb%5D=1"}}},
		// Brackets that do not pair up are a stray or a cut: no fix.
		{name: "syntax/stray-bracket", url: "https://github.com/user]", want: []got{
			{codeSyntax, 23, "]", `unexpected "]" in httpsurl › hpath › hsegment: expected unreserved, ";", ":", "@", "&", "=", escape, "/", "?" or end of input`, ""}}},
		{name: "syntax/unclosed-bracket", url: "http://x.org/a[1", want: []got{
			{codeSyntax, 14, "[", `unexpected "[" in httpurl › hpath › hsegment: expected unreserved, ";", ":", "@", "&", "=", escape, "/", "?" or end of input`, ""}}},
		{name: "syntax/closed-before-opened", url: "http://x.org/a]b[c", want: []got{
			{codeSyntax, 14, "]", `unexpected "]" in httpurl › hpath › hsegment: expected unreserved, ";", ":", "@", "&", "=", escape, "/", "?" or end of input`, ""}}},
		{name: "syntax/bracket-after-ip-literal", url: "http://[::1]/x[2]", want: []got{
			{codeRFC1738Unsafe, 7, "[", `unexpected "[" in httpurl: expected hostport (RFC 1738; RFC 3986 allows it)`, ""},
			{codeSyntax, 14, "[2]", `unexpected "[" in http-URI › path-abempty › segment: expected unreserved, sub-delims, ":", "@", pct-encoded, "/", "?" or end of input`, "http://[::1]/x%5B2%5D"}}},
		{name: "syntax/bracket-relative", url: "docs/a[1].md", relative: true, want: []got{
			{codeSyntax, 6, "[1]", `unexpected "[" in relativeURL › rel_path › path › segment: expected unreserved, ":", "@", "&", "=", escape, "/", ";", "?" or end of input`, "docs/a%5B1%5D.md"}}},
		{name: "syntax/bracket-after-router-segment", url: "https://x.org/[locale]/a[1]", want: []got{
			{codeSyntax, 24, "[1]", `unexpected "[" in httpsurl › hpath › hsegment: expected unreserved, ";", ":", "@", "&", "=", escape, "/", "?" or end of input`, "https://x.org/[locale]/a%5B1%5D"}}},
		// A bracket fix that verify refuses (the ftptype after it, an nntp
		// group, which admit no escape) is not offered, and the finding
		// spans the bracket alone: the span reaches as far as a fix edits,
		// not as far as the brackets go.
		{name: "syntax/bracket-fix-refused-ftptype", url: "ftp://x.org/a;type=[i]", want: []got{
			{codeSyntax, 19, "[", `unexpected "[" in ftpurl: expected ftptype`, ""}}},
		{name: "syntax/bracket-fix-refused-nntp", url: "nntp://x.org/a[1]", want: []got{
			{codeSyntax, 14, "[", `unexpected "[" in nntpurl › group: expected alpha, digit, "-", ".", "+", "_", "/" or end of input`, ""}}},
		// A bracketed name after a "]" in a path is no host placeholder:
		// its brackets are encoded with the others.
		{name: "syntax/bracket-pairs-in-path", url: "https://x.org/items[0][name]", want: []got{
			{codeSyntax, 19, "[0][name]", `unexpected "[" in httpsurl › hpath › hsegment: expected unreserved, ";", ":", "@", "&", "=", escape, "/", "?" or end of input`, "https://x.org/items%5B0%5D%5Bname%5D"}}},
		// A word in brackets in a path is what the writer fills in: still
		// a syntax error, but no fix encodes it.
		{name: "syntax/bracketed-word-in-path", url: "gs://a/b/c.[extension]", want: []got{
			{codeSyntax, 11, "[", `unexpected "[" in genericurl › schemepart › ip-schemepart › urlpath: expected unreserved, reserved, escape or end of input`, ""}}},
		{name: "syntax/bracketed-word-in-file-name", url: "https://x.org/a_[trg]_errors.txt", want: []got{
			{codeSyntax, 16, "[", `unexpected "[" in httpsurl › hpath › hsegment: expected unreserved, ";", ":", "@", "&", "=", escape, "/", "?" or end of input`, ""}}},
		{name: "syntax/bracketed-word-in-query", url: "https://x.org/s?filter[name]=x", want: []got{
			{codeSyntax, 22, "[name]", `unexpected "[" in httpsurl › search: expected unreserved, ";", ":", "@", "&", "=", escape or end of input`, "https://x.org/s?filter%5Bname%5D=x"}}},
		{name: "syntax/bracketed-letter-in-path", url: "https://x.org/a[b]", want: []got{
			{codeSyntax, 15, "[b]", `unexpected "[" in httpsurl › hpath › hsegment: expected unreserved, ";", ":", "@", "&", "=", escape, "/", "?" or end of input`, "https://x.org/a%5Bb%5D"}}},
		{name: "fragment-route", url: "https://matrix.to/#/#jsdom:matrix.org", want: nil},
		{name: "fragment-route/hashbang", url: "https://x.org/#!/a#b", want: nil},
		{name: "fragment-route/snippet-revision", url: "https://playground.babylonjs.com/#T7N8Y0#12", want: nil},
		{name: "fragment-route/not-a-revision", url: "https://playground.babylonjs.com/#T7N8Y0#1a", want: []got{
			{codeSyntax, 40, "#", `unexpected "#" in fragment: expected unreserved, reserved, escape or end of input`, ""}}},
		{name: "fragment-second-hash", url: "https://x.org/#a#b", want: []got{
			{codeSyntax, 16, "#", `unexpected "#" in fragment: expected unreserved, reserved, escape or end of input`, ""}}},
		{name: "template/literal-part-checked", url: "https://{{ .Host }}/a|b%zz", want: []got{
			{codeUnsafeChar, 21, "|", `unsafe character "|": no URL grammar allows it unencoded`, "https://{{ .Host }}/a%7Cb%zz"},
			{codeBadEscape, 23, "%zz", `"%zz" is not an escape: "%" must be followed by two hex digits`, "https://{{ .Host }}/a|b%25zz"}}},
		{name: "template/text-fragment", url: "https://example.com/page#:~:text=hello%20world,end", want: []got{
			{codeRFC1738Unsafe, 26, "~", `"~" is unsafe in RFC 1738 (RFC 3986 made it unreserved); here it delimits a fragment directive (":~:"), which must stay as written`, ""}}},

		// scheme-case
		{name: "scheme-case", url: "HTTP://x.com/", want: []got{
			{codeSchemeCase, 0, "HTTP", `scheme "HTTP" is not lower case`, "http://x.com/"}}},
		{name: "scheme-case/mixed", url: "Mailto:a@b.c", want: []got{
			{codeSchemeCase, 0, "Mailto", `scheme "Mailto" is not lower case`, "mailto:a@b.c"}}},
		{name: "scheme-case/script", url: "JavaScript:show('a b')", want: []got{
			{codeSchemeCase, 0, "JavaScript", `scheme "JavaScript" is not lower case`, "javascript:show('a b')"}}},

		// unknown-scheme, reserved-scheme
		{name: "unknown-scheme", url: "foo:bar", want: []got{
			{codeUnknownScheme, 0, "foo", `unregistered scheme "foo"; checked as genericurl`, ""}}},
		{name: "unknown-scheme/upper", url: "FOO:isbn:0451450523", want: []got{
			{codeSchemeCase, 0, "FOO", `scheme "FOO" is not lower case`, "foo:isbn:0451450523"},
			{codeUnknownScheme, 0, "FOO", `unregistered scheme "foo"; checked as genericurl`, ""}}},
		{name: "unknown-scheme/registered", url: "urn:isbn:0451450523", want: nil},
		{name: "unknown-scheme/registered-upper", url: "URN:isbn:0451450523", want: []got{
			{codeSchemeCase, 0, "URN", `scheme "URN" is not lower case`, "urn:isbn:0451450523"}}},

		// scheme-typo
		{name: "scheme-typo/htps", url: "htps://x.com/", want: []got{
			{codeSchemeTypo, 0, "htps", `unknown scheme "htps": a misspelt "https"?`, "https://x.com/"}}},
		{name: "scheme-typo/hhttps-upper", url: "HHTTPS://x.com/", want: []got{
			{codeSchemeTypo, 0, "HHTTPS", `unknown scheme "HHTTPS": a misspelt "https"?`, "https://x.com/"}}},
		{name: "scheme-typo/mailt", url: "mailt:a@b.com", want: []got{
			{codeSchemeTypo, 0, "mailt", `unknown scheme "mailt": a misspelt "mailto"?`, "mailto:a@b.com"}}},
		{name: "scheme-typo/glued-word", url: "emhttps://neo4j.com", want: []got{
			{codeSchemeTypo, 0, "emhttps", `unknown scheme "emhttps": the word "em" run into "https:"?`, ""}}},
		{name: "scheme-typo/glued-long-word", url: "seeHTTP://x.com", want: []got{
			{codeSchemeTypo, 0, "seeHTTP", `unknown scheme "seeHTTP": the word "see" run into "HTTP:"?`, ""}}},
		{name: "scheme-typo/plus-is-no-word", url: "svn+http://x.com/", want: []got{
			{codeUnknownScheme, 0, "svn+http", `unregistered scheme "svn+http"; checked as genericurl`, ""}}},
		{name: "scheme-typo/defanged", url: "hxxps://x.com/", want: nil}, // registered (provisional)
		{name: "scheme-typo/defanged-unregistered", url: "hxtps://x.com/", want: []got{
			{codeUnknownScheme, 0, "hxtps", `unregistered scheme "hxtps"; checked as genericurl`, ""}}},

		// the "://" misspelt
		{name: "separator/double-colon", url: "http::x.com/a", want: []got{
			{codeSyntax, 4, "::", `"::" after "http": the host must follow "http://"`, "http://x.com/a"}}},
		{name: "separator/one-slash", url: "https:/x.com/a", want: []got{
			{codeSyntax, 5, ":/", `":/" after "https": the host must follow "https://"`, "https://x.com/a"}}},
		{name: "separator/no-slash-host", url: "http:x.com", want: []got{
			{codeSyntax, 4, ":", `":" after "http": the host must follow "http://"`, "http://x.com"}}},
		{name: "separator/no-slash-not-host", url: "http:foo", want: []got{
			{codeSyntax, 5, "f", `unexpected "f" in httpurl: expected "//"`, ""}}},
		{name: "separator/three-slashes", url: "http:///x.com/a", want: []got{
			{codeSyntax, 4, ":///", `":///" after "http": the host must follow "http://"`, "http://x.com/a"}}},
		{name: "fix-exposes/scheme-typo", url: "htps://x.org/?next=/home", want: []got{
			{codeSchemeTypo, 0, "htps", `unknown scheme "htps": a misspelt "https"?`, "https://x.org/?next=/home"}}},
		{name: "fix-exposes/one-slash", url: "http:/x.org/a?b/c", want: []got{
			{codeSyntax, 4, ":/", `":/" after "http": the host must follow "http://"`, "http://x.org/a?b/c"}}},
		{name: "fix-exposes/no-colon", url: "https//x.org/?a=/b", relative: true, want: []got{
			{codeSyntax, 0, "https//", `missing ":" after "https": "https//…" is a relative path, not a url`, "https://x.org/?a=/b"}}},
		{name: "separator/scheme-twice", url: "https://https://x.com/a", want: []got{
			{codeSyntax, 0, "https://https://", `the scheme is written twice: "https://https://"`, "https://x.com/a"}}},
		{name: "separator/url-in-path", url: "https://web.archive.org/web/2020/https://x.com/", want: nil},
		{name: "separator/empty-host", url: "http://:8080/path", want: []got{
			{codeSyntax, 7, ":", `unexpected ":" in httpurl: expected hostport`, ""}}},
		{name: "host/underscore-first", url: "http://_dmarc.example.com/", want: []got{
			{codeRFC1738Unsafe, 7, "_", `"_" in host name "_dmarc.example.com": RFC 1738 §3.1 allows letters, digits and "-" (RFC 3986 allows it)`, ""}}},
		{name: "host/underscore-last", url: "http://a_.example.com/", want: []got{
			{codeRFC1738Unsafe, 8, "_", `"_" in host name "a_.example.com": RFC 1738 §3.1 allows letters, digits and "-" (RFC 3986 allows it)`, ""}}},
		{name: "separator/file-one-slash", url: "file:/etc/hosts", want: []got{
			{codeRFC1738Unsafe, 6, "e", `unexpected "e" in fileurl: expected "/" (RFC 1738; RFC 3986 allows it)`, ""}}},
		{name: "separator/no-colon-relative", url: "https//x.com/a", relative: true, want: []got{
			{codeSyntax, 0, "https//", `missing ":" after "https": "https//…" is a relative path, not a url`, "https://x.com/a"}}},
		{name: "separator/no-colon", url: "http//x.com/a", want: []got{
			{codeSyntax, 0, "http//", `missing ":" after "http": "http//…" is a relative path, not a url`, "http://x.com/a"}}},
		{name: "separator/no-colon-upper-case", url: "HTTPS//x.com/a", relative: true, want: []got{
			{codeSyntax, 0, "HTTPS//", `missing ":" after "HTTPS": "HTTPS//…" is a relative path, not a url`, ""}}}, // the fixed URL has its scheme in upper case: scheme-case, an error under strict
		{name: "separator/no-colon-longest-scheme", url: "prospero//x.com/a", relative: true, want: []got{
			{codeSyntax, 0, "prospero//", `missing ":" after "prospero": "prospero//…" is a relative path, not a url`, "prospero://x.com/a"}}},
		{name: "separator/no-scheme-before-slashes", url: "docs/https//x.com/a", relative: true, want: nil},
		{name: "separator/no-scheme-word", url: "httpx//x.com/a", relative: true, want: nil},
		{name: "unknown-scheme/syntax", url: "foo:a#b#c", want: []got{
			{codeUnknownScheme, 0, "foo", `unregistered scheme "foo"; checked as genericurl`, ""},
			{codeSyntax, 7, "#", `unexpected "#" in fragment: expected unreserved, reserved, escape or end of input`, ""}}},
		{name: "reserved-scheme", url: "afs://x.com/y", want: []got{
			{codeReservedScheme, 0, "afs", `scheme "afs" is reserved by RFC 1738 §4 without a syntax; checked as genericurl`, ""}}},
		{name: "reserved-scheme/z39.50s-registered", url: "z39.50s://x.com/y", want: nil},
		{name: "reserved-scheme/z39.51", url: "z39.51://x.com/y", want: []got{
			{codeUnknownScheme, 0, "z39.51", `unregistered scheme "z39.51"; checked as genericurl`, ""}}},
		{name: "reserved-scheme/mid", url: "mid:12345@example.com", want: []got{
			{codeReservedScheme, 0, "mid", `scheme "mid" is reserved by RFC 1738 §4 without a syntax; checked as genericurl`, ""}}},

		// port-range, host-range
		{name: "port-range", url: "http://x.com:65536/", want: []got{
			{codePortRange, 13, "65536", "port 65536 is above 65535", ""}}},
		{name: "port-range/leading-zeros", url: "http://x.com:0000080/", want: nil},
		{name: "port-range/huge", url: "ftp://x.com:123456789012345678901234567890/", want: []got{
			{codePortRange, 12, "123456789012345678901234567890", "port 123456789012345678901234567890 is above 65535", ""}}},
		{name: "host-range", url: "http://10.0.300.1/", want: []got{
			{codeHostRange, 12, "300", "host number part 300 is above 255", ""}}},
		{name: "host-range/two", url: "http://256.1.1.999:80/", want: []got{
			{codeHostRange, 7, "256.1.1.999", "host number part 256 is above 255; host number part 999 is above 255", ""}}},
		{name: "host-range/not-four", url: "http://1.2.300/", want: []got{
			{codeSyntax, 14, "/", `unexpected "/" in httpurl › hostport › host › hostname › domainlabel: expected alphadigit, "-", "." or digit`, ""}}},

		// credentials
		{name: "credentials/ftp", url: "ftp://anonymous:guest@ftp.x.com/pub", want: []got{
			{codeCredentials, 16, "guest", "password in the url: whoever sees the url can read it", ""}}},
		{name: "credentials/empty-password", url: "ftp://anonymous:@ftp.x.com/pub", want: nil},
		{name: "credentials/telnet", url: "telnet://u:p@h.com", want: []got{
			{codeCredentials, 11, "p", "password in the url: whoever sees the url can read it", ""}}},

		// redundant-escape
		{name: "redundant/letter", url: "http://x.com/%41", want: []got{
			{codeRedundantEscape, 13, "%41", `"%41" needlessly escapes "A"`, "http://x.com/A"}}},
		{name: "redundant/run", url: "http://x.com/%61%62%2d%5F%2e%30z", want: []got{
			{codeRedundantEscape, 13, "%61%62%2d%5F%2e%30", `"%61%62%2d%5F%2e%30" needlessly escapes "ab-_.0"`, "http://x.com/ab-_.0z"}}},
		{name: "redundant/host", url: "http://%41.com/", want: []got{
			{codeRedundantEscape, 7, "%41", `"%41" needlessly escapes "A"`, "http://A.com/"},
			{codeRFC1738Unsafe, 7, "%41.com", `percent-encoded host name "%41.com": RFC 1738 §3.1 has no escapes in a host (RFC 3986 §3.2.2 allows them, for names in UTF-8; resolvers take "A.com")`, ""}}},
		{name: "redundant/dot-segment-kept", url: "http://x.com/a/%2E%2e/.%2E/%2E/b", want: nil},
		{name: "redundant/dot-not-segment", url: "http://x.com/a%2Eb", want: []got{
			{codeRedundantEscape, 14, "%2E", `"%2E" needlessly escapes "."`, "http://x.com/a.b"}}},
		{name: "redundant/dot-at-end-kept", url: "http://x.com/a%41%2E", want: []got{
			{codeRedundantEscape, 14, "%41", `"%41" needlessly escapes "A"`, "http://x.com/aA%2E"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, describe(t, tc.url, tc.relative)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.url, diff)
			}
		})
	}
}

// TestEntityOffsets checks spans and edits of a URL whose text differs from
// its document bytes: HTML character references decoded.
func TestEntityOffsets(t *testing.T) {
	doc := []byte(`<a href="http://x.com/&#37;zz&amp;&eacute;">`)
	// Text: http://x.com/%zz&é
	text := "http://x.com/%zz&\u00e9"
	start := strings.Index(string(doc), "http")
	var offs []int
	for i := 0; i < 13; i++ {
		offs = append(offs, start+i)
	}
	p := start + 13
	offs = append(offs, p, p+5, p+6) // &#37; z z
	p += 7
	offs = append(offs, p) // &amp;
	p += 5
	offs = append(offs, p, p) // &eacute; decodes to two bytes
	p += 8
	offs = append(offs, p)
	c := scan.Candidate{Start: start, End: p, Text: text, Offsets: offs, Context: scan.Attr, Relative: true}
	ds := CheckURL(doc, c)
	if len(ds) != 2 {
		t.Fatalf("want 2 diagnostics, got %+v", ds)
	}
	if d := ds[0]; d.Code != codeBadEscape || string(doc[d.Start:d.End]) != "&#37;zz" {
		t.Errorf("bad-escape span %q (%+v), want &#37;zz", doc[d.Start:d.End], d)
	} else if e := d.SuggestedFixes[0].Edits; len(e) != 1 || string(doc[e[0].Start:e[0].End]) != "&#37;" || e[0].NewText != "%25" {
		t.Errorf("bad-escape fix %+v, want &#37; -> %%25", e)
	}
	if d := ds[1]; d.Code != codeNonASCII || string(doc[d.Start:d.End]) != "&eacute;" {
		t.Errorf("non-ascii span %q (%+v), want &eacute;", doc[d.Start:d.End], d)
	} else if e := d.SuggestedFixes[0].Edits; len(e) != 1 || string(doc[e[0].Start:e[0].End]) != "&eacute;" || e[0].NewText != "%C3%A9" {
		t.Errorf("non-ascii fix %+v, want &eacute; -> %%C3%%A9", e)
	}
}

// TestWrappedOffsets checks a <URL:…> URL broken across lines: the white
// space is not part of the text, and edits leave it alone.
func TestWrappedOffsets(t *testing.T) {
	doc := []byte("<URL:HTTP://x.com/a{\n     }b\n     %zz>")
	c := wrapped(doc, 5, len(doc)-1)
	if c.Text != "HTTP://x.com/a{}b%zz" {
		t.Fatalf("text %q", c.Text)
	}
	var spans []string
	for _, d := range CheckURL(doc, c) {
		s := fmt.Sprintf("%s %q", d.Code, doc[d.Start:d.End])
		for _, e := range d.SuggestedFixes[0].Edits {
			s += fmt.Sprintf(" [%q->%q]", doc[e.Start:e.End], e.NewText)
		}
		spans = append(spans, s)
	}
	want := []string{
		`scheme-case "HTTP" ["HTTP"->"http"]`,
		`unsafe-char "{\n     }" ["{"->"%7B"] ["}"->"%7D"]`,
		`bad-escape "%zz" ["%"->"%25"]`,
	}
	if diff := cmp.Diff(want, spans); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// wrapped returns the candidate for doc[start:end] in a <URL:…> wrapper:
// white space dropped, offsets mapped.
func wrapped(doc []byte, start, end int) scan.Candidate {
	c := scan.Candidate{Start: start, End: end, Context: scan.Wrapped}
	var text []byte
	for i := start; i < end; i++ {
		if isSpace(doc[i]) {
			continue
		}
		text = append(text, doc[i])
		c.Offsets = append(c.Offsets, i)
	}
	c.Offsets = append(c.Offsets, end)
	c.Text = string(text)
	return c
}

func TestCatalog(t *testing.T) {
	want := []string{"bad-escape", "unsafe-char", "rfc1738-unsafe", "non-ascii", "syntax", "scheme-case",
		"unknown-scheme", "scheme-typo", "reserved-scheme", "port-range", "host-range", "credentials", "redundant-escape", "too-many-findings"}
	var names []string
	for _, c := range Catalog {
		names = append(names, c.Name)
		if c.Summary == "" || c.Doc == "" || c.Severity == 0 || c.Strict == 0 || c.Strict > c.Severity {
			t.Errorf("%s: incomplete or strict milder than default: %+v", c.Name, c)
		}
		if l, ok := Lookup(c.Name); !ok || l.Name != c.Name {
			t.Errorf("Lookup(%q) = %+v, %v", c.Name, l, ok)
		}
		if strings.HasSuffix(c.Summary, ".") || !strings.HasSuffix(c.Doc, ".") {
			t.Errorf("%s: summary ends in a period or doc does not", c.Name)
		}
	}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("catalog order (-want +got):\n%s", diff)
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("Lookup(nope) found something")
	}
	sev := map[string][2]Severity{
		"bad-escape": {Error, Error}, "unsafe-char": {Error, Error}, "rfc1738-unsafe": {Information, Error},
		"non-ascii": {Information, Error}, "syntax": {Error, Error}, "scheme-case": {Hint, Error},
		"unknown-scheme": {Information, Information}, "scheme-typo": {Error, Error}, "reserved-scheme": {Information, Information},
		"port-range": {Error, Error}, "host-range": {Error, Error}, "credentials": {Warning, Warning},
		"redundant-escape": {Hint, Hint}, "too-many-findings": {Information, Information},
	}
	for _, c := range Catalog {
		if s := sev[c.Name]; s != [2]Severity{c.Severity, c.Strict} {
			t.Errorf("%s: severity %v/%v, want %v/%v", c.Name, c.Severity, c.Strict, s[0], s[1])
		}
		if c.Unnecessary != (c.Name == "redundant-escape") {
			t.Errorf("%s: Unnecessary %v", c.Name, c.Unnecessary)
		}
	}
}

// TestMessages checks the style of every message the tables produce: lower
// case start (but for RFC names and quotes), no final period.
func TestMessages(t *testing.T) {
	urls := []string{"http://x.com/%zz a~é%41", "HTTP://u:p@[::1]:/a?b/c", "foo:x", "afs:x", "http://1.2.3.400:99999/", "nntp://h"}
	for _, u := range urls {
		for _, g := range describe(t, u, false) {
			if g.Msg == "" || strings.HasSuffix(g.Msg, ".") || strings.ToUpper(g.Msg[:1]) == g.Msg[:1] && g.Msg[0] != '"' {
				t.Errorf("%s: message %q", u, g.Msg)
			}
		}
	}
}

func TestPunycode(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"bücher", "xn--bcher-kva"},
		{"münchen", "xn--mnchen-3ya"},
		{"例え", "xn--r8jz45g"},
		{"テスト", "xn--zckzah"},
		{"Bücher", "xn--bcher-kva"},
	} {
		if got, ok := idnaLabel(tc.in); !ok || got != tc.want {
			t.Errorf("idnaLabel(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
	if _, ok := idnaLabel("a\xff"); ok {
		t.Error("idnaLabel accepted invalid UTF-8")
	}
}

func TestOrder(t *testing.T) {
	doc, c := candidateIn("HTTP://u:p@1.2.3.999:99999/%zz a~é%41?x/y", false)
	ds := CheckURL(doc, c)
	if !sort.SliceIsSorted(ds, func(i, j int) bool { return ds[i].Start < ds[j].Start }) {
		t.Errorf("not in document order: %+v", ds)
	}
	if len(ds) < 9 {
		t.Errorf("want at least 9 diagnostics, got %d: %+v", len(ds), ds)
	}
}
