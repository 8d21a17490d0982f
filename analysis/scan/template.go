package scan

import "strings"

// Span is a byte range [Start, End) of a text.
type Span struct{ Start, End int }

// Placeholders returns the spans of template and placeholder syntax in s, a
// URL's text, in order and not overlapping. What they cover is not URL text
// the writer typed but a stand-in for it, filled in by a program before the
// URL is used: a checker must not report it, and a fix must not touch it.
//
// Recognised, in this order of precedence at each byte:
//   - template actions of Go templates and Hugo ("{{ .Site.BaseURL }}",
//     "{{< ref "x" >}}", "{{% eturl x %}}"), Jinja, Django and Liquid
//     ("{{ url }}", "{% url 'x' %}", "{# … #}"), Handlebars and Mustache
//     ("{{url}}", "{{{url}}}"), ERB and EJS ("<%= url %>"); an action left
//     open at the end of s covers the rest of s (the URL was cut inside it);
//   - interpolations: "${HOST}" (shell, JavaScript template literals, Mako
//     and Genshi's "${href(page.name, rev=1)}"), "#{host}" (Ruby), braces
//     nested; shell command substitutions "$(hostname)", parentheses
//     nested, one left open covering the rest of s; "$HOST" and "$host"
//     (shell; "$" then a letter or "_" and word characters), each with the
//     "$" doubled ("$$request_uri", docker-compose's and make's escape) or
//     escaped by a backslash ("\$request_uri", a shell's), "%HOST%"
//     (Windows; upper-case names), "%sveltekit.assets%" where it starts a
//     word (HTML templates),
//     Doxygen's "$relpath^" (its templates' path to the output's root);
//   - RFC 6570 URI template expressions: "{" [operator] varspec *(","
//     varspec) "}" ("{id}", "{/path*}", "{?q,lang}", "{var:3}");
//   - placeholder segments "<user>", "<your-repo>", "<API key>": "<", a
//     letter, then letters, digits, "_", "-", "." or spaces, then ">";
//   - an ellipsis, "..." or "…", standing for what is left out
//     ("https://.../api", "https://example.com/…/x");
//   - glob ranges, as curl and shells expand them: "[1-100]", "[a-z]",
//     "[001-120:10]";
//   - optional parts as a synopsis brackets them, before any "?" or "#":
//     "[user@]" (after "//"), "[:port]", "[/path]", "[?query]", "[[:#]port]",
//     "[,host:port]", and after one of those any bracketed text but an IP
//     literal ("~[user]"), as git's, Vim's and OpenStack's documentation
//     write the forms of a URL ("ssh://[user@]host.xz[:port]/~[user]/path/",
//     "driver://[user:pass@]host:port[,[userN:passN@]hostN:portN]/"); after
//     one of those, past the "?" or "#" too, an optional query or fragment
//     named by a word ("scheme://host[:port]/path?query[#fragment]");
//   - a path segment that is a bracketed name, a file-based router's
//     dynamic segment ("/[locale]/blog", "/[...slug]"), or a base at the
//     start of a relative reference ("[preferred]/xerces/c/");
//   - a bracketed name where a host goes that no IP literal can be
//     ("https://[your-domain]/api"), or names that are its alternatives
//     ("ksi+tcp://[ip/dnsname]:3332");
//   - printf and Python format verbs where they are not an escape and end a
//     word ("%s", "%d/", "%v", "%(name)s", "%1$s"; not "100%done", a bad
//     escape).
//
// It runs in time linear in len(s): every search is bounded by the end of s
// or by a short fixed limit, and the scan resumes after each span.
func Placeholders(s string) []Span {
	var out []Span
	synopsis := false // an optional part was bracketed before i
	// Where a query or fragment may start, optional parts end: a synopsis
	// brackets parts of an authority and a path, and "#[:alpha:]" is
	// Vim's help on a character class. It is looked for at the first "["
	// only: most URLs have none.
	partsEnd := -1
	// hostEnd is the end of the last placeholder that began where a host
	// goes: a host's placeholder may follow it ("ssh://[user@][host]/").
	hostEnd := -1
	for i := 0; i < len(s); {
		if !placeholderStart[s[i]] {
			i++
			continue
		}
		end, ok := placeholderAt(s, i)
		// atHost: a host's placeholder may start at s[i].
		atHost := s[i] == '[' && (hostPlace(s, i) || i == hostEnd)
		if !ok && s[i] == '[' {
			if partsEnd < 0 {
				if partsEnd = strings.IndexAny(s, "?#"); partsEnd < 0 {
					partsEnd = len(s)
				}
			}
			if i < partsEnd {
				var optional bool
				end, optional, ok = optionalPart(s, i, synopsis)
				synopsis = synopsis || optional
				if !ok {
					end, ok = routeSegment(s, i)
				}
				if !ok && atHost {
					end, ok = hostPlaceholder(s, i)
				}
			} else if synopsis {
				end, ok = optionalQueryPart(s, i)
			}
		}
		if ok && end > i {
			out = append(out, Span{i, end})
			if atHost {
				hostEnd = end
			}
			i = end
			continue
		}
		i++
	}
	return out
}

// placeholderStart marks the bytes a placeholder can start with: the rest
// of a URL is skipped a byte at a time without a call.
var placeholderStart = [256]bool{'{': true, '<': true, '$': true, '\\': true, '#': true, '%': true, '[': true, '.': true, 0xE2: true}

// maxPlaceholder bounds the length of the placeholders that must be closed
// to count (interpolations, URI template expressions, <name> segments,
// format verbs): past it, the text is something else.
const maxPlaceholder = 64

// placeholderAt returns the end of the placeholder starting at s[i].
func placeholderAt(s string, i int) (int, bool) {
	rest := s[i:]
	switch s[i] {
	case '{':
		switch {
		case len(rest) >= 2 && rest[1] == '{':
			return actionEnd(s, i+2, "}}"), true
		case len(rest) >= 2 && rest[1] == '%':
			return actionEnd(s, i+2, "%}"), true
		case len(rest) >= 2 && rest[1] == '#':
			return actionEnd(s, i+2, "#}"), true
		}
		return uriTemplateExpr(s, i)
	case '[':
		return globRange(s, i)
	case '.':
		// "https://.../x": an ellipsis stands for the part left out.
		k := i
		for k < len(s) && s[k] == '.' {
			k++
		}
		return k, k-i >= 3
	case 0xE2:
		if strings.HasPrefix(rest, "…") {
			return i + len("…"), true
		}
	case '<':
		if len(rest) >= 2 && rest[1] == '%' {
			return actionEnd(s, i+2, "%>"), true
		}
		return angleName(s, i)
	case '$':
		if len(rest) >= 2 && rest[1] == '$' {
			// "$$" is the escape of a "$" where a program substitutes
			// variables first: docker-compose and Makefiles write
			// "$$request_uri" for the "$request_uri" that the shell or
			// nginx they run is to see.
			if end, ok := dollarPlaceholder(s, i+1); ok {
				return end, true
			}
		}
		return dollarPlaceholder(s, i)
	case '\\':
		// A backslash escapes the "$" of a variable that a shell is
		// to leave for a later stage (a heredoc writing an nginx
		// configuration: "proxy_pass http://write:3100\$request_uri;"):
		// the backslash is no URL text, and the variable a placeholder,
		// "$" doubled or not ("\$$request_uri").
		if len(rest) >= 2 && rest[1] == '$' {
			return placeholderAt(s, i+1)
		}
	case '#':
		if len(rest) >= 2 && rest[1] == '{' {
			return balancedEnd(s, i+2), true
		}
	case '%':
		if isEscapeAt(s, i) {
			return 0, false
		}
		if end, ok := windowsVar(s, i); ok {
			return end, true
		}
		return formatVerb(s, i)
	}
	return 0, false
}

// dollarPlaceholder returns the end of the shell interpolation at s[i] ==
// '$': "${HOST}", "$(hostname)" or "$HOST".
func dollarPlaceholder(s string, i int) (int, bool) {
	rest := s[i:]
	if len(rest) >= 2 && rest[1] == '{' {
		return balancedEnd(s, i+2), true
	}
	if len(rest) >= 2 && rest[1] == '(' {
		return parenEnd(s, i+2), true
	}
	end, ok := varName(s, i+1)
	// Doxygen's header and footer templates end the marker of the
	// path to the output's root with "^" ("$relpath^tabs.css"; "$"
	// in Doxygen before 1.8).
	if ok && s[i+1:end] == "relpath" && end < len(s) && (s[end] == '^' || s[end] == '$') {
		end++
	}
	return end, ok
}

// actionEnd returns the offset after the close delimiter of a template
// action whose body starts at j, or len(s) when the action is left open.
// Handlebars' triple braces close with a third "}".
func actionEnd(s string, j int, close string) int {
	triple := close == "}}" && j < len(s) && s[j] == '{'
	for k := j; k+len(close) <= len(s); k++ {
		if s[k:k+len(close)] == close {
			end := k + len(close)
			if triple && end < len(s) && s[end] == '}' {
				end++
			}
			return end
		}
	}
	return len(s)
}

// balancedEnd returns the offset after the "}" that closes an interpolation
// whose expression starts at j ("${HOST}", "${href(page.name, rev=1)}",
// "#{a + {b}}"): braces nest, white space is part of the expression; an
// interpolation left open covers the rest of s, as an open action does.
func balancedEnd(s string, j int) int { return closeEnd(s, j, '{', '}') }

// parenEnd returns the offset after the ")" that closes a shell command
// substitution whose command starts at j ("$(hostname)", "$(kubectl get
// svc -o jsonpath='{.x}')"): parentheses nest; a substitution left open
// covers the rest of s (the URL was cut at a space inside it).
func parenEnd(s string, j int) int { return closeEnd(s, j, '(', ')') }

// closeEnd returns the offset after the close that ends what starts at j,
// open and close nesting inside, or len(s) when none does.
func closeEnd(s string, j int, open, close byte) int {
	depth := 0
	for k := j; k < len(s); k++ {
		switch s[k] {
		case open:
			depth++
		case close:
			if depth == 0 {
				return k + 1
			}
			depth--
		}
	}
	return len(s)
}

func isWordByte(b byte) bool { return isAlnum(b) || b == '_' }

// varName returns the end of a shell variable name starting at j ("$HOST").
func varName(s string, j int) (int, bool) {
	if j >= len(s) || !(isAlpha(s[j]) || s[j] == '_') {
		return 0, false
	}
	k := j + 1
	for k < len(s) && isWordByte(s[k]) {
		k++
	}
	return k, true
}

// windowsVar recognises "%NAME%": upper-case letters, digits and "_",
// starting with a letter. Where the "%" starts a word (at the start of s or
// after a character that is not a letter or a digit), the name may hold
// lower-case letters, "." and "-" too, as the placeholders of HTML
// templates do ("%sveltekit.assets%/favicon.png" in every SvelteKit app,
// browser-sync's src="%script%"), of three characters or more, when the
// closing "%" ends a word too: "100%done%20" and "%zz%2" are bad escapes
// and escapes, not names.
func windowsVar(s string, i int) (int, bool) {
	k := i + 1
	if k >= len(s) || !isAlpha(s[k]) {
		return 0, false
	}
	word := i == 0 || !isAlnum(s[i-1])
	upper := true
	for k < len(s) && k-i < maxPlaceholder {
		c := s[k]
		switch {
		case 'A' <= c && c <= 'Z' || isDigit(c) || c == '_':
		case word && ('a' <= c && c <= 'z' || c == '.' || c == '-'):
			upper = false
		default:
			goto end
		}
		k++
	}
end:
	if k >= len(s) || s[k] != '%' || k-i <= 2 {
		return 0, false
	}
	if !upper && (k-i <= 3 || s[k-1] == '.' || s[k-1] == '-' || k+1 < len(s) && isAlnum(s[k+1])) {
		return 0, false
	}
	return k + 1, true
}

// uriTemplateExpr recognises an RFC 6570 §2.2 expression at s[i] == '{':
//
//	expression = "{" [ operator ] variable-list "}"
//	operator   = "+" / "#" / "." / "/" / ";" / "?" / "&" / "=" / "," / "!" / "@" / "|"
//	varspec    = varname [ ":" max-length / "*" ]
//	varname    = varchar *( ["."] varchar ), varchar = ALPHA / DIGIT / "_" / pct-encoded
//
// A hyphen is accepted in names too: "{user-id}" is a placeholder as often.
func uriTemplateExpr(s string, i int) (int, bool) {
	k := i + 1
	if k < len(s) && isTemplateOperator(s[k]) {
		k++
	}
	for {
		n := k
		for k < len(s) && k-i < maxPlaceholder && (isWordByte(s[k]) || s[k] == '.' || s[k] == '-' || isEscapeAt(s, k)) {
			if s[k] == '%' {
				k += 2
			}
			k++
		}
		if k == n {
			return 0, false
		}
		if k < len(s) && s[k] == ':' {
			m := k + 1
			for m < len(s) && m-k <= 4 && isDigit(s[m]) {
				m++
			}
			if m == k+1 {
				return 0, false
			}
			k = m
		} else if k < len(s) && s[k] == '*' {
			k++
		}
		if k < len(s) && s[k] == ',' {
			k++
			continue
		}
		if k < len(s) && s[k] == '}' {
			return k + 1, true
		}
		return 0, false
	}
}

func isTemplateOperator(b byte) bool {
	switch b {
	case '+', '#', '.', '/', ';', '?', '&', '=', ',', '!', '@', '|':
		return true
	}
	return false
}

// angleName recognises a placeholder segment "<user>", "<your-repo>",
// "<API key>": a letter, then letters, digits, "_", "-", "." and spaces.
func angleName(s string, i int) (int, bool) {
	k := i + 1
	if k >= len(s) || !isAlpha(s[k]) {
		return 0, false
	}
	for k < len(s) && k-i < maxPlaceholder {
		switch b := s[k]; {
		case b == '>':
			return k + 1, s[k-1] != ' '
		case isWordByte(b) || b == '-' || b == '.' || b == ' ':
			k++
		default:
			return 0, false
		}
	}
	return 0, false
}

// globRange recognises a range "[1-100]", "[a-z]" or "[001-120:10]" (with
// a step, as curl's URL globbing writes it) at s[i] == '['. No URL holds
// one literally: "[" and "]" delimit only an IP literal (RFC 3986 §3.2.2),
// which has no "-".
func globRange(s string, i int) (int, bool) {
	k := i + 1
	n := k
	for k < len(s) && k-n < 8 && isAlnum(s[k]) {
		k++
	}
	if k == n || k >= len(s) || s[k] != '-' {
		return 0, false
	}
	k++
	m := k
	for k < len(s) && k-m < 8 && isAlnum(s[k]) {
		k++
	}
	if k == m || isDigit(s[n]) != isDigit(s[m]) {
		return 0, false
	}
	if k < len(s) && s[k] == ':' {
		k++
		d := k
		for k < len(s) && k-d < 8 && isDigit(s[k]) {
			k++
		}
		if k == d {
			return 0, false
		}
	}
	if k < len(s) && s[k] == ']' {
		return k + 1, true
	}
	return 0, false
}

// optionalPart recognises the brackets around an optional part of a URL's
// form at s[i] == '[', as synopses write them: bracketed text, brackets
// nested, no space, closed within maxPlaceholder bytes, that is an
// optional userinfo where one goes (optionalUserinfo: "[user@]",
// "[user[:password]@]"), starts with ":", "/" or "?" and a letter
// ("[:port]", "host:port[/path]", "host:port/dbname[?key=value&key=value...]",
// SQLAlchemy's connect strings), starts with another bracket
// ("[[:#]port]") or a comma (a repeated part: "port[,[user@]host:port]"),
// or is a word before an "@" ("[user]@host", Vim's netrw help; an IP
// literal is never followed by one); it reports whether the brackets were
// one of those (optional). After one (synopsis), any bracketed text is a
// placeholder too ("~[user]") except where an IP literal may stand. An IP
// literal ("[::1]", "[fe80::1%25en0]", "[v1.x]") is none of these, nor is
// the "[]" or "[0]" of a query.
func optionalPart(s string, i int, synopsis bool) (end int, optional, ok bool) {
	depth := 0
	k := i
	for ; k < len(s) && k-i <= maxPlaceholder; k++ {
		c := s[k]
		if c <= ' ' || c == 0x7f {
			return 0, false, false
		}
		if c == '[' {
			depth++
		} else if c == ']' {
			depth--
			if depth == 0 {
				break
			}
		}
	}
	if k >= len(s) || k-i > maxPlaceholder || s[k] != ']' {
		return 0, false, false
	}
	body := s[i+1 : k]
	switch {
	case optionalUserinfo(s, i, body),
		k+1 < len(s) && s[k+1] == '@' && body != "" && isAlpha(body[0]) && strings.Trim(body, wordChars) == "",
		len(body) >= 2 && (body[0] == ':' || body[0] == '/' || body[0] == '?') && isAlpha(body[1]),
		len(body) >= 2 && (body[0] == '[' || body[0] == ','):
		return k + 1, true, true
	case synopsis && body != "" && !ipLiteralPlace(s, i):
		return k + 1, false, true
	}
	return 0, false, false
}

// hostPlaceholder recognises a bracketed name where a host goes that no
// IP literal can be, a placeholder for the host: "https://[your-domain]/api",
// "gs://[bucket_name]/", "https://[account].snowflakecomputing.com". An IP
// literal (RFC 3986 §3.2.2) holds ":" (IPv6) or starts with "v", hex digits
// and "." (IPvFuture); hex digits and dots alone ("[fe80]", "[1.2.3.4]") are
// one botched. Those stay URL text, for the syntax check to judge. The name
// starts with a letter, holds letters, digits, "_", "-" and ".", at least one
// byte that is neither a hex digit nor ".", and is closed within
// maxPlaceholder bytes. Placeholders asks it only where a host goes
// (hostPlace) or right after a placeholder that began there: after the "]"
// of a path's own brackets ("/items[0][name]") or a "//" inside a path, a
// bracketed name is the path's, for the syntax check to judge and fix. A
// "/" before a letter separates alternatives ("ksi+tcp://[ip/dnsname]:3332",
// rsyslog's): no IP literal holds one.
func hostPlaceholder(s string, i int) (int, bool) {
	if i+1 >= len(s) || !isAlpha(s[i+1]) {
		return 0, false
	}
	k, name := i+1, false
	for ; k < len(s) && k-i <= maxPlaceholder && s[k] != ']'; k++ {
		c := s[k]
		if c == '/' && k+1 < len(s) && isAlpha(s[k+1]) {
			continue
		}
		if !isNameByte(c) {
			return 0, false
		}
		name = name || !isHex(c) && c != '.'
	}
	if k >= len(s) || s[k] != ']' || !name {
		return 0, false
	}
	if k+1 < len(s) && !strings.ContainsRune("/:.?#[@", rune(s[k+1])) {
		return 0, false // "http://[host]x/": no host part ends there
	}
	if body := s[i+1 : k]; body[0]|0x20 == 'v' {
		j := 1
		for j < len(body) && isHex(body[j]) {
			j++
		}
		if j > 1 && j < len(body) && body[j] == '.' {
			return 0, false // IPvFuture: "v" 1*HEXDIG "." …
		}
	}
	return k + 1, true
}

// optionalQueryPart recognises, at s[i] == '[' past where a query or
// fragment may start, the brackets around an optional query or fragment
// named by a word, as a synopsis writes them after its other optional parts:
// "scheme://host[:port]/path?query[#fragment]" (OpenTelemetry's
// conventions), "http://host[:port]/path[?query][#fragment]". Placeholders
// calls it only after an optional part: a query's own brackets
// ("?page[size]") are checked.
func optionalQueryPart(s string, i int) (int, bool) {
	k := i + 1
	if k+1 >= len(s) || s[k] != '#' && s[k] != '?' || !isAlpha(s[k+1]) {
		return 0, false
	}
	k += 2
	for k < len(s) && k-i < maxPlaceholder && (isWordByte(s[k]) || s[k] == '-') {
		k++
	}
	if k >= len(s) || s[k] != ']' {
		return 0, false
	}
	return k + 1, true
}

// hostPlace reports whether s[i] is where a host goes: right after the "//"
// that follows a scheme's ":" or starts a network-path reference (RFC 3986
// §3.2, §4.2), or after the "@" that ends a user's part (§3.2.1).
func hostPlace(s string, i int) bool {
	if i >= 1 && s[i-1] == '@' {
		return true
	}
	return i >= 2 && s[i-2:i] == "//" && (i == 2 || s[i-3] == ':' || s[i-3] == ' ')
}

// routeSegment recognises a path segment that is a bracketed name at
// s[i] == '[', as file-based routers (Next.js, Astro, SvelteKit, Nuxt)
// write a dynamic segment: "/[locale]/blog", "/[...slug]", "/[[...path]]",
// the name standing for the value; so do API references, with a dotted
// name ("/[google.protobuf.Api.name]"). The segment is the brackets alone,
// between a "/" and a "/", "?", "#" or the end. The first segment of a
// relative reference is one too, a base the page's server fills in, as
// Apache's mirror pages write theirs: href="[preferred]/xerces/c/",
// action="[location]" (a reference cannot start with "[" otherwise,
// RFC 3986 §4.2).
func routeSegment(s string, i int) (int, bool) {
	if i > 0 && s[i-1] != '/' || ipLiteralPlace(s, i) {
		return 0, false // ("http://[host]/" is where an IP literal goes)
	}
	k, open := i, 0
	for k < len(s) && s[k] == '[' && open < 2 {
		k++
		open++
	}
	if strings.HasPrefix(s[k:], "...") {
		k += 3
	}
	n := k
	for k < len(s) && k-i < maxPlaceholder && isNameByte(s[k]) {
		k++
	}
	if k == n || !isAlpha(s[n]) {
		return 0, false
	}
	for ; open > 0; open-- {
		if k >= len(s) || s[k] != ']' {
			return 0, false
		}
		k++
	}
	if k < len(s) && s[k] != '/' && s[k] != '?' && s[k] != '#' {
		return 0, false
	}
	return k, true
}

// optionalUserinfo reports whether body, the text inside the brackets at
// s[i], is an optional userinfo: right after "//", where a userinfo goes,
// a letter, then a userinfo's characters (RFC 3986 §3.2.1: unreserved,
// pct-encoded, sub-delims and ":"; brackets nested, "[user[:password]@]"),
// then the "@" that ends it. Elsewhere, or holding other characters
// ("http://[a%zz@]host", "https://h/[user@]host"), the brackets are no
// synopsis, and what they hold is checked.
func optionalUserinfo(s string, i int, body string) bool {
	if i < 2 || s[i-2:i] != "//" || len(body) < 2 || !isAlpha(body[0]) || body[len(body)-1] != '@' {
		return false
	}
	for k := 0; k < len(body)-1; k++ {
		switch c := body[k]; {
		case c == '%':
			if k+2 >= len(body)-1 || !isHex(body[k+1]) || !isHex(body[k+2]) {
				return false
			}
			k += 2
		case !userinfoChar[c]:
			return false
		}
	}
	return true
}

// userinfoChar marks the bytes of a userinfo but "%" (RFC 3986 §3.2.1:
// unreserved, sub-delims and ":"), and the brackets of an optional part
// nested in one.
var userinfoChar = func() (m [256]bool) {
	for _, c := range []byte("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:[]") {
		m[c] = true
	}
	return m
}()

// ipLiteralPlace reports whether s[i] is where a host, and so an IP
// literal, may start: after "//", after the "@" of a userinfo, or after
// an optional part ("[user@][::1]").
func ipLiteralPlace(s string, i int) bool {
	return i >= 2 && s[i-2:i] == "//" || i >= 1 && (s[i-1] == '@' || s[i-1] == ']')
}

// isNameByte reports whether c may be in the name of a bracketed
// placeholder (hostPlaceholder, routeSegment) or a reStructuredText role
// (roleForHost): a word byte, "-" or ".".
func isNameByte(c byte) bool { return isWordByte(c) || c == '-' || c == '.' }

// wordChars are the bytes of a bracketed word in a synopsis ("[user]").
const wordChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"

// formatVerb recognises a printf verb or a Python %-format placeholder at
// s[i] == '%' that is not an escape: "%s", "%-10v", "%(name)s", "%1$s".
func formatVerb(s string, i int) (int, bool) {
	k := i + 1
	if k < len(s) && s[k] == '(' {
		k++
		for k < len(s) && k-i < maxPlaceholder && isWordByte(s[k]) {
			k++
		}
		if k >= len(s) || s[k] != ')' {
			return 0, false
		}
		k++
	}
	for k < len(s) && k-i < 16 && (isDigit(s[k]) || s[k] == '-' || s[k] == '+' || s[k] == '.' || s[k] == '$' || s[k] == '#') {
		k++
	}
	if k >= len(s) {
		return 0, false
	}
	switch s[k] {
	case 's', 'd', 'v', 'q', 'i', 'u', 'x', 'f':
		// "100%done" is a bad escape, not a verb: a verb ends a word.
		if k+1 < len(s) && isWordByte(s[k+1]) {
			return 0, false
		}
		return k + 1, true
	}
	return 0, false
}

// isEscapeAt reports whether s[i:] starts with "%" hex hex.
func isEscapeAt(s string, i int) bool {
	return i+2 < len(s) && s[i] == '%' && isHex(s[i+1]) && isHex(s[i+2])
}
