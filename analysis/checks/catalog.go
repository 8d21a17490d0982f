package checks

// Code describes one diagnostic code of the catalog.
type Code struct {
	// Name is the stable name, e.g. "bad-escape".
	Name string
	// Summary is one line, for SARIF rule short descriptions and docs.
	Summary string
	// Doc is a paragraph: what the code finds, why it matters (with the RFC
	// section) and how to fix it.
	Doc string
	// Severity is the default severity.
	Severity Severity
	// Strict is the severity under strict mode, where every RFC 1738
	// violation is an error.
	Strict Severity
	// Unnecessary asks the editor to render the span as unnecessary code
	// (LSP DiagnosticTag Unnecessary).
	Unnecessary bool
}

// The code names, as the findings carry them.
const (
	codeBadEscape       = "bad-escape"
	codeUnsafeChar      = "unsafe-char"
	codeRFC1738Unsafe   = "rfc1738-unsafe"
	codeNonASCII        = "non-ascii"
	codeSyntax          = "syntax"
	codeSchemeCase      = "scheme-case"
	codeUnknownScheme   = "unknown-scheme"
	codeSchemeTypo      = "scheme-typo"
	codeReservedScheme  = "reserved-scheme"
	codePortRange       = "port-range"
	codeHostRange       = "host-range"
	codeCredentials     = "credentials"
	codeRedundantEscape = "redundant-escape"
)

// TooManyFindings is the code of the finding that stands for the findings
// of a document past the most a front end shows (config.Config.Limit). No
// analyzer reports it: it is about the document, not a URL.
const TooManyFindings = "too-many-findings"

// Catalog lists every diagnostic code, in the order of DESIGN.md.
var Catalog = []Code{
	{
		Name:     codeBadEscape,
		Summary:  `"%" not followed by two hex digits`,
		Doc:      `A "%" starts an escape and must be followed by two hexadecimal digits that give the octet's value (RFC 1738 §2.2: "escape = "%" hex hex"). A "%" followed by anything else is not a URL, and programs disagree about what it means. To write a literal "%", encode it as "%25".`,
		Severity: Error,
		Strict:   Error,
	},
	{
		Name:     codeUnsafeChar,
		Summary:  "a character no URL grammar allows",
		Doc:      `RFC 1738 §2.2 calls space, the control characters, the double quote, "<", ">", "\", "^", "{", "}", "|" and the backquote unsafe: gateways and transports alter them, and "<", ">" and the quote delimit URLs in text. No URL grammar, RFC 1738, RFC 1808 or RFC 3986, admits them unencoded. Percent-encode each one with its US-ASCII code, e.g. a space as "%20", "|" as "%7C". Where escapes are not allowed either (a host name, a port) there is no fix: the character does not belong there.`,
		Severity: Error,
		Strict:   Error,
	},
	{
		Name:     codeRFC1738Unsafe,
		Summary:  "a form RFC 1738 forbids that later RFCs made legal",
		Doc:      `RFC 1738 forbids some forms that later RFCs allow: "~" anywhere (RFC 1738 §2.2 lists it as unsafe; RFC 3986 §2.3 made it unreserved), an IPv6 literal host in "[ ]" (RFC 2732, RFC 3986 §3.2.2), "/" or "?" in a search part (RFC 1738 §3.3 reserves them there; RFC 3986 §3.4 allows them in a query), a user name or password in an http or https URL (RFC 1738 §3.3 has none; RFC 3986 §3.2.1 allows and deprecates them), a search part right after the host with no "/" before the "?" (RFC 1738 §3.3; RFC 3986 §3.3 allows an empty path) and an empty port after ":" (RFC 3986 §3.2.3). Any other part of a URL that RFC 1738's production for its scheme rejects and RFC 3986 (with the scheme's current definition: RFC 9110 for http and https, RFC 8089 for file) accepts is reported here too, e.g. a host name with a trailing ".", a "_" or escapes (an internationalized name in percent-encoded UTF-8, RFC 3986 §3.2.2). Modern software accepts them; programs that follow RFC 1738 do not, so this is information unless you ask for RFC 1738 strictness ("strict"). A URL gets one such finding for its syntax, where RFC 1738 first fails (a "~" is reported apart). Under the grammar setting rfc3986 or xbnf there is no stricter grammar to compare with, and this code is not reported. Encode "~" as "%7E"; the other forms have no RFC 1738 equivalent.`,
		Severity: Information,
		Strict:   Error,
	},
	{
		Name:     codeNonASCII,
		Summary:  "a non-ASCII character (an IRI)",
		Doc:      `URLs are written in a subset of US-ASCII (RFC 1738 §2.2: "URLs are written only with the graphic printable characters of the US-ASCII coded character set"). A non-ASCII character makes the URL an IRI (RFC 3987), which programs that expect a URL may reject or encode differently. Percent-encode the character's UTF-8 bytes, e.g. "é" as "%C3%A9"; in a host name, where escapes are not allowed, convert the label to punycode (RFC 3492, IDNA), e.g. "bücher" as "xn--bcher-kva". Browsers and most modern software accept IRIs, so this is information unless you ask for RFC 1738 strictness ("strict").`,
		Severity: Information,
		Strict:   Error,
	},
	{
		Name:     codeSyntax,
		Summary:  "the URL does not match its scheme's production",
		Doc:      `The scheme selects a production of RFC 1738 §5 (httpurl, ftpurl, newsurl, …; https uses the http syntax per RFC 2818 §2.4; other schemes genericurl) and a relative reference uses RFC 1808 §2.2 relativeURL. The URL does not match it: the message names the production and what it expected at the first byte that does not fit, e.g. a host name label ending in "-", an ftptype other than a, i or d, an nntp article number that is not digits or a telnet URL with a path. It is an error only where the modern syntax rejects the URL too: RFC 3986 with the scheme's current definition (RFC 9110 §4.2 for http and https, RFC 8089 for file; RFC 1738 itself for ftp, gopher, news, nntp, telnet, wais and prospero, whose definitions were never replaced); what RFC 3986 accepts and only RFC 1738 rejects is rfc1738-unsafe. Under the grammar setting rfc3986 or xbnf that grammar alone decides: what it rejects is a syntax error, what it accepts is not. A misspelt "://" ("http:/host", "http::host", "https//host") is reported as such, with a fix. "[" and "]" after the host (only an IP literal host may hold them), in pairs, have a fix that percent-encodes them as %5B and %5D ("?filter[name]=x" as HTML forms send it, "?filter%5Bname%5D=x"); a "]" with no "[" is a stray, and a word in brackets in a path ("c.[extension]") names what the writer fills in: neither has one. A "#" inside a fragment that is a client-side route ("https://matrix.to/#/#room:matrix.org", "#!/a#b") or a snippet and its revision ("https://playground.babylonjs.com/#T7N8Y0#12") is not reported: browsers keep it and the application reads it. Rewrite that part by the production's definition (the hover shows it).`,
		Severity: Error,
		Strict:   Error,
	},
	{
		Name:     codeSchemeCase,
		Summary:  "upper-case letters in the scheme",
		Doc:      `RFC 1738 §2.1 writes schemes in lower case ("scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]") and asks interpreters to use case-ignore, so "HTTP:" works but is not the canonical form, and strict RFC 1738 does not allow it. Lower-case the scheme.`,
		Severity: Hint,
		Strict:   Error,
	},
	{
		Name:     codeUnknownScheme,
		Summary:  "a scheme neither registered nor in wide use; checked as genericurl",
		Doc:      `The scheme is not in the IANA URI scheme registry (RFC 7595; the copy urlls embeds, with its date) nor in urlls's list of unregistered schemes in wide use (git+ssh, postgres, s3, …), and it is not a near miss of a common scheme (scheme-typo). A registered scheme without a grammar in RFC 1738 §5 (data, urn, tel, …) is not reported. An unknown scheme's URL is checked only against the generic form "genericurl = scheme ":" schemepart" (RFC 1738 §2.1), which accepts nearly anything made of URL characters. Check the spelling of the scheme; if it is right, nothing is wrong.`,
		Severity: Information,
		Strict:   Information,
	},
	{
		Name:     codeSchemeTypo,
		Summary:  "a misspelt common scheme",
		Doc:      `The scheme is not in the IANA URI scheme registry nor in wide use, and it is one edit away from http, https, mailto, ftp or file (two for https and mailto): a letter added, dropped, changed or two swapped, as in "htps", "hhttps", "htttp" or "mailt". No program knows what to do with it, so the link is broken. Replace it with the scheme it misspells (the fix does). A word run into a common scheme ("baseada emhttps://…", a space gone missing) is reported too, without a fix: the space belongs in the text, not in the URL. Defanged URLs ("hxxp", "hxxps"), which security writing uses on purpose, are not reported.`,
		Severity: Error,
		Strict:   Error,
	},
	{
		Name:     codeReservedScheme,
		Summary:  "a scheme RFC 1738 reserves without a syntax",
		Doc:      `RFC 1738 §4 reserves the schemes afs, mid, cid, nfs, tn3270, mailserver and z39.50 for future or experimental use without giving them a syntax (mid and cid later got one in RFC 2392, nfs in RFC 2224). Such a URL is checked only against genericurl.`,
		Severity: Information,
		Strict:   Information,
	},
	{
		Name:     codePortRange,
		Summary:  "port above 65535",
		Doc:      `RFC 1738 §3.1 gives the port as decimal digits; TCP and UDP ports are 16-bit numbers, so a port above 65535 cannot be connected to. Correct the number.`,
		Severity: Error,
		Strict:   Error,
	},
	{
		Name:     codeHostRange,
		Summary:  "a hostnumber part above 255",
		Doc:      `A host number is "a sequence of four decimal digit groups separated by "."" (RFC 1738 §3.1): an IPv4 address, each group one octet from 0 to 255. A larger group is not an address. Correct the number.`,
		Severity: Error,
		Strict:   Error,
	},
	{
		Name:     codeCredentials,
		Summary:  "a password in a URL",
		Doc:      `RFC 1738 §3.1 allows "user:password@" in URLs of IP-based schemes, but a URL is no place for a secret: it is shown, logged, cached and sent in Referer headers (RFC 3986 §3.2.1 deprecates the form for this reason). Remove the password and pass it some other way. An example is not reported: a placeholder password ("password", "xxxx", "token", "<password>", "$PASSWORD") or one of RFC 3092's metasyntactic variables ("foo", "bar", "baz", "qux", "quux", "foobar"), Oracle's published sample account ("scott:tiger"), a password in the form of a URL whose port is a word ("http://login:passwd@proxy:port") or any password of a URL to a host reserved for examples and tests (example.com, example.net, example.org, .example, .test, .invalid, localhost, 127.0.0.1 and [::1]; RFC 2606, RFC 6761) or to a placeholder host ("host", "hostname").`,
		Severity: Warning,
		Strict:   Warning,
	},
	{
		Name:        codeRedundantEscape,
		Summary:     "an escape of a character that needs none",
		Doc:         `Letters, digits, "-", "." and "_" are unreserved in every URL grammar (RFC 1738 §2.2, RFC 3986 §2.3), so escaping them changes nothing but readability: "%41" is "A". Decode the escape. An escaped "." that makes a path segment "." or ".." is left alone, since decoding it would change how the reference resolves (RFC 1808 §4), and so is one that ends the URL, which running text would then cut off as punctuation; "%7E" is needed under RFC 1738, where "~" is unsafe.`,
		Severity:    Hint,
		Strict:      Hint,
		Unnecessary: true,
	},
	{
		Name:     TooManyFindings,
		Summary:  "more findings than the document may show; the rest are counted",
		Doc:      `A document has more findings than the setting "maxFindings" (1000 by default) lets urlls show: the first ones, in document order, are shown, and this finding, at the first one left out, counts the others by severity. It keeps an editor, a terminal and a CI log usable when a generated document holds thousands of broken URLs. Nothing is lost: "urlls check" still exits 1 when a finding left out is an error, and "urlls check --fix" and the editor's fix-all fix every finding, shown or not. Fix the findings shown and check again, or raise "maxFindings" (0 shows them all).`,
		Severity: Information,
		Strict:   Information,
	},
}

// Lookup returns the catalog entry for a code name.
func Lookup(name string) (Code, bool) {
	for _, c := range Catalog {
		if c.Name == name {
			return c, true
		}
	}
	return Code{}, false
}

// violation reports whether code is an RFC 1738 violation, an error under
// strict mode; a fix must never introduce one.
func violation(code string) bool {
	c, ok := Lookup(code)
	return ok && (c.Severity == Error || c.Strict == Error)
}

// reservedSchemes are the schemes RFC 1738 §4 reserves without a syntax.
var reservedSchemes = map[string]bool{
	"afs": true, "mid": true, "cid": true, "nfs": true,
	"tn3270": true, "mailserver": true, "z39.50": true,
}
