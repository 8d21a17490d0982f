package scan

import "testing"

// TestLinkTags: the target of a JSDoc or TSDoc inline link tag ends at the
// "|" that starts the link's text, or at the tag's "}"; the tag may break
// the line inside a block comment. A "|" elsewhere stays in the URL, to be
// reported.
func TestLinkTags(t *testing.T) {
	runScanCases(t, []scanCase{
		{"link and text", "typescript", "/** See {@link ⟦https://a.org/CallOptions.html⟧|CallOptions} for more. */",
			[]w{{ctx: Code}}},
		{"spaced text and variants", "javascript", "// {@link ⟦https://a.org/x⟧ | text} {@linkcode ⟦https://b.org/y⟧ y} [t]{@link ⟦https://c.org/z⟧}",
			[]w{{ctx: Code}, {ctx: Code}, {ctx: Code}}},
		{"tag broken over lines", "typescript", "/**\n * like a {@link\n * ⟦https://a.org/projects.topics#Topic⟧|Topic\n * object}.\n */",
			[]w{{ctx: Code}}},
		{"plain text", "plaintext", "{@link ⟦https://a.org/x⟧|x}", []w{{}}},
		{"not a tag: the bar stays", "typescript", "// ⟦https://a.org/nightly|builds/⟧ and @link ⟦https://b.org/a|b⟧",
			[]w{{ctx: Code}, {ctx: Code}}},
	})
}

// TestEscapeBeforeScheme: the letter of an escape sequence before a
// scheme ("\nhttps://…" in a string literal, or quoted in a comment) is not
// part of the scheme; an escaped backslash leaves the letter a letter.
func TestEscapeBeforeScheme(t *testing.T) {
	runScanCases(t, []scanCase{
		{"template literal", "javascript", "throw new Error(`visit the following URL:\\n\\n⟦https://console.example.com/iam?project=⟧${id}`);",
			[]w{{ctx: Code, cont: true}}},
		{"single-quoted string", "javascript", `console.log('\tin Nightwatch v2:\n\t\t⟦https://forms.gle/zBhbjdsDE77hTHSB7⟧\n');`,
			[]w{{ctx: Code}}},
		{"comment quoting a string", "javascript", `// Example: "Authenticate your account at:\n⟦https://www.npmjs.com/auth/cli/xyz⟧"`,
			[]w{{ctx: Code}}},
		{"plain text", "plaintext", `a regex \b⟦https://x.org/⟧ and \r\n⟦http://y.org/⟧`, []w{{}, {}}},
		{"escaped backslash", "plaintext", `C:\\⟦nhttp://x.org/⟧`, []w{{}}},
	})
}

// TestQuotedInCode: in a comment or a string literal, a URL right after a
// "'" ends at the next one, as in plain text: a word written right after
// the closing quote (a Korean particle) is not part of it.
func TestQuotedInCode(t *testing.T) {
	runScanCases(t, []scanCase{
		{"string", "typescript", `readonly m: "hostedBaseUrl은 'http://' 또는 '⟦https://a.org⟧'로 시작해야 합니다";`, []w{{ctx: Code}}},
		{"comment", "go", `// 'http://' 또는 '⟦https://a.org/x⟧'로`, []w{{ctx: Code}}},
		{"as in plain text", "plaintext", `'http://' 또는 '⟦https://a.org/x⟧'로`, []w{{ctx: Quoted}}},
	})
}

// TestDelimiterRefs: where references are not decoded, "&lt;", "&gt;" and
// "&quot;" end a URL, as the characters they stand for would; where they
// are decoded (HTML, Markdown) they always did.
func TestDelimiterRefs(t *testing.T) {
	runScanCases(t, []scanCase{
		{"escaped markup in a comment", "javascript",
			"// `You should go to &lt;a href=\"⟦http://www.yahoo.com⟧\"&gt;⟦http://www.yahoo.com⟧&lt;/a&gt;`",
			[]w{{ctx: Code}, {ctx: Code}}},
		{"quotes in plain text", "plaintext", "&lt;a href=&quot;⟦http://a.org/x⟧&quot;&GT; and ⟦http://b.org/?a=1&lt=2⟧ ⟦http://c.org/⟧&#60;",
			[]w{{}, {}, {}}},
		{"string literal", "java", `s = "⟦http://a.org/x⟧&gt;";`, []w{{ctx: Code}}},
	})
}

// TestEscapedQuote: where escapes are not decoded, an escaped quote ends a
// URL as the quote would: JSON or a string literal quoted in a comment, or
// escaped twice (JSON in a string literal, shown in a generated doc
// comment).
func TestEscapedQuote(t *testing.T) {
	runScanCases(t, []scanCase{
		{"JSON in a comment", "typescript",
			`// {"type":"verbose","data":"Request \"⟦https://registry.npmjs.org/@angular%2fnon-existent⟧\" finished"}`,
			[]w{{ctx: Code}}},
		{"single quotes", "plaintext", `s = '\'⟦http://a.org/x⟧\''`, []w{{ctx: Quoted}}},
		{"decoded in a string", "javascript", `s = "\"⟦http://a.org/x⟧\""`, []w{{ctx: Code}}},
		{"escaped twice in a comment", "typescript",
			`/** * <broker xmlns=\\"⟦http://activemq.apache.org/schema/core⟧\\">` + "\n" + ` * \\"token_uri\\": \\"⟦https://oauth2.googleapis.com/token⟧\\", */`,
			[]w{{ctx: Code}, {ctx: Code}}},
		{"a backslash alone stays", "plaintext", `⟦http://a.org/x\y⟧ ⟦http://b.org/x\\⟧ and ⟦http://c.org/\\y⟧"`, []w{{}, {}, {}}},
	})
}

// TestAnchoredPattern: a scheme right after "^" starts a regular
// expression, not a URL.
func TestAnchoredPattern(t *testing.T) {
	runScanCases(t, []scanCase{
		{"string", "javascript", `const githubPages = regEx('^https://([^.]+).github.com/([^/]+)$');`, nil},
		{"template literal", "javascript", "regEx(`^https://hex\\\\.pm/api/repos/(?<organization>[a-z0-9_]+)/$`)", nil},
		{"plain text", "plaintext", `match ^http://a\.org/ but ⟦http://b.org/⟧`, []w{{}}},
	})
}

// TestRegexArgument: a string literal that is the first argument of a
// standard library's regular-expression constructor or matcher is a
// pattern, not a URL; the same literal elsewhere, or a later argument, holds
// URLs.
func TestRegexArgument(t *testing.T) {
	runScanCases(t, []scanCase{
		{"go", "go", "var r = regexp.MustCompile(\"http://httpbin\\\\.org/(|e.+)$\")", nil},
		{"go raw", "go", "regexp.MustCompile(`\\w+://[^\\s]+`)", nil},
		{"go anchored group", "go", "refTag := regexp.MustCompile(`^(oci://[^:]+(:[0-9]{1,5})?[^:]+):(.*)$`)", nil},
		{"go on the next line", "go", "var r = regexp.Compile(\n\t\"https://a\\\\.org/[a-z]+\")", nil},
		{"go matcher", "go", `ok, _ := regexp.MatchString("https://[^/]+/x", s)`, nil},
		{"python", "python", `re.compile(r"https://(www\.)?x\.org/[^ ]*")`, nil},
		{"javascript", "javascript", `new RegExp("https://[^/]+\\.example\\.org/")`, nil},
		{"java", "java", `Pattern.compile("http://[a-z]+\\.org/.*")`, nil},
		{"rust", "rust", `Regex::new(r"https://[^/]+/(\d+)")`, nil},
		{"not the first argument", "go", `re.ReplaceAllString(s, "⟦https://a.org/x⟧")`, []w{{ctx: Code}}},
		{"another function", "go", `http.Get("⟦https://a.org/x⟧") url.Parse( "⟦https://b.org/⟧")`, []w{{ctx: Code}, {ctx: Code}}},
		{"a method of another package", "go", `x.MustCompile("⟦https://a.org/⟧") myregexp.Compile("⟦https://b.org/⟧")`, []w{{ctx: Code}, {ctx: Code}}},
		{"plain text", "plaintext", `regexp.MustCompile("⟦https://a.org/x⟧")`, []w{{ctx: Quoted}}},
	})
}

// TestTSDocEscape: in a comment, TSDoc's "\@", "\{" and "\}" stand for
// "@", "{" and "}".
func TestTSDocEscape(t *testing.T) {
	runScanCases(t, []scanCase{
		{"markdown link in a doc comment", "typescript",
			"/**\n * from [\\@azure/keyvault-keys](⟦https://www.npmjs.com/package/\\@azure/keyvault-keys⟧):\n */",
			[]w{{ctx: Code, text: "https://www.npmjs.com/package/@azure/keyvault-keys", offs: append(offs([2]int{0, 31}), offs([2]int{32, 19})...)}}},
		{"escaped braces of a placeholder", "typescript",
			"/**\n * `⟦gs://{bucket\\}/{object\\}⟧` and ⟦https://x.org/\\{id\\}⟧\n */",
			[]w{{ctx: Code, text: "gs://{bucket}/{object}", offs: append(offs([2]int{0, 13}), offs([2]int{14, 9})...)},
				{ctx: Code, text: "https://x.org/{id}", offs: append(append(offs([2]int{0, 15}), offs([2]int{16, 2})...), 18)}}},
		{"not in a string", "javascript", `s = "⟦https://x.org/\@a⟧"`, []w{{ctx: Code}}},
		{"other escapes stay", "go", `// ⟦https://x.org/\_a⟧`, []w{{ctx: Code}}},
	})
}

// TestURLLists: a "," or a "|" followed by a URL, or a "," followed by
// GOPROXY's "direct" or "off", separates the items of a list; any other ","
// or "|" stays in the URL.
func TestURLLists(t *testing.T) {
	runScanCases(t, []scanCase{
		{"etcd", "plaintext", "--listen-client-urls ⟦http://0.0.0.0:2379⟧,⟦http://127.0.0.1:4001⟧ here", []w{{}, {}}},
		{"goproxy", "plaintext", "GOPROXY=⟦https://proxy.golang.org⟧,direct and GOPROXY=⟦https://goproxy.io⟧,⟦https://proxy.golang.org⟧,off", []w{{}, {}, {}}},
		{"string", "javascript", "const goproxy = process.env.GOPROXY ?? '⟦https://proxy.golang.org⟧,direct';", []w{{ctx: Code}}},
		{"commas stay", "plaintext", "⟦https://a.org/x,y,directory⟧ ⟦https://b.org/?q=a,b,offset⟧ ⟦https://c.org/a,b⟧", []w{{}, {}, {}}},
		{"pipes", "plaintext", `url="⟦ksi+tcp://u:p@one.example.com⟧|⟦ksi+tcp://u:p@two.example.com⟧"`, []w{{ctx: Quoted}, {}}},
		{"pipes in html text", "html", "<p>url=”⟦ksi+tcp://a.example.com⟧|⟦ksi+tcp://b.example.com⟧”</p>", []w{{}, {}}},
		{"pipes stay", "plaintext", "⟦https://a.org/x|y|z/w⟧ ⟦https://b.org/?q=a|b:c⟧", []w{{}, {}}},
		{"a keyword that does not end the URL", "plaintext", "⟦https://h.org/lights?state=on,off&level=50%⟧ ⟦https://f.org/?stops=nonstop,direct&q=1⟧ ⟦https://e.org/a,off^b⟧", []w{{}, {}, {}}},
	})
}

// TestContinued: a URL in a string literal that a template placeholder
// cuts, or that runs to the end of a literal concatenated with what
// follows, is Continued: the program completes it.
func TestContinued(t *testing.T) {
	runScanCases(t, []scanCase{
		{"concatenated exact literal", "javascript", `proxy: '⟦http://mj:x@⟧' + host + ':123/done'`, []w{{ctx: Code, cont: true}}},
		{"concatenated after a word", "java", `s = "see ⟦http://a.org/u@⟧" + host;`, []w{{ctx: Code, cont: true}}},
		{"placeholder", "python", `u = "⟦http://user:pw@⟧{host}/x"; v = "⟦https://a.org/⟧%s/y"`, []w{{ctx: Code, cont: true}, {ctx: Code, cont: true}}},
		{"not concatenated", "javascript", `a = '⟦http://a.org/x⟧'; b = '⟦http://b.org/⟧' === c; d = '⟦http://d.org/⟧'++`, []w{{ctx: Code}, {ctx: Code}, {ctx: Code}}},
		{"not the literal's end", "javascript", `a = 'see ⟦http://a.org/x⟧ and y' + z`, []w{{ctx: Code}}},
		{"comment", "javascript", `// ⟦http://a.org/x⟧ + y`, []w{{ctx: Code}}},
	})
}

// TestLinkTagNotAcrossBlankLine: a blank line ends the tag's reach.
func TestLinkTagNotAcrossBlankLine(t *testing.T) {
	runScanCases(t, []scanCase{
		{"blank line", "markdown", "{@link\n\n⟦https://a.org/x|y⟧", []w{{}}},
	})
}

// TestLineContinuation: a backslash that ends its line continues the line
// (a comment's, a raw string's, a Makefile's; a hard line break in
// Markdown), as a URL too long for the line is wrapped ("# from
// http://www.mssqltips.com/sqlservertip/1425/\" then "# working-with-…/"):
// it is not URL text, and the URL, which goes on past it, is Continued. A
// backslash inside a line stays, to be reported.
func TestLineContinuation(t *testing.T) {
	runScanCases(t, []scanCase{
		{"comment", "python", "# from ⟦http://www.mssqltips.com/sqlservertip/1425/⟧\\\n# working-with-default-constraints/\n",
			[]w{{ctx: Code, cont: true}}},
		{"crlf", "ruby", "# see ⟦https://a.org/x⟧\\\r\n#   #anchor\r\n", []w{{ctx: Code, cont: true}}},
		{"raw docstring", "python", "r\"\"\"Read <⟦https://www.oasis-open.org/⟧\\\n    committees/x.pdf>`_.\"\"\"",
			[]w{{ctx: Code, cont: true}}},
		{"plain text", "plaintext", "⟦https://a.org/a⟧\\\nb", []w{{cont: true}}},
		{"inside a line", "python", "# ⟦http://a.org/x\\y⟧ ⟦http://b.org/x\\⟧ z\n", []w{{ctx: Code}, {ctx: Code}}},
		{"decoded in a string", "python", "s = \"⟦http://a.org/x⟧\\\nb\"", []w{{ctx: Code}}},
	})
}

// TestRoleForHost: reStructuredText's interpreted text with a role right
// after "//" stands for the host ("https://:code:`<resource-name>`.api.
// cognitiveservices.azure.com", Azure's generated docstrings): the URL is
// a form, not one to check. An empty host before anything else is URL text.
func TestRoleForHost(t *testing.T) {
	runScanCases(t, []scanCase{
		{"docstring", "python", "\"\"\"Endpoint (e.g. https://:code:`<resource-name>`.api.cognitiveservices.azure.com). Required.\"\"\"", nil},
		{"two roles", "python", "# https://:code:`<clusterName>`.:code:`<regionName>`.kusto.windows.net.\n", nil},
		{"plain text", "plaintext", "https://:code:`<name>`.search.windows.net,", nil},
		{"not a role", "python", "# ⟦https://:code/x⟧ ⟦https://:80/x⟧ ⟦https://:a:b⟧`\n", []w{{ctx: Code}, {ctx: Code}, {ctx: Code}}},
	})
}

// TestNamedEscape: Python's "\N{COMET}" in a string literal names a
// character the scanner does not look up; the URL is cut before it, as at
// the "{" of a placeholder, and Continued. An escaped backslash before
// "N{" is a character of the URL; so is the backslash of a raw string,
// which the "{" cuts after.
func TestNamedEscape(t *testing.T) {
	runScanCases(t, []scanCase{
		{"host", "python", `iri2uri("http://\N{COMET}.com/\N{COMET}")`, nil},
		{"query", "python", `iri2uri("⟦http://bitworking.org/?fred=⟧\N{COMET}")`, []w{{ctx: Code, cont: true}}},
		{"spaced name", "python", `u"⟦http://a.org/caf⟧\N{LATIN SMALL LETTER E WITH ACUTE}"`, []w{{ctx: Code, cont: true}}},
		{"escaped backslash", "python", `"⟦http://a.org/\\N⟧{x}"`, []w{{ctx: Code, cont: true, text: `http://a.org/\N`,
			offs: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15}}}},
		{"raw string", "python", `r"⟦http://a.org/\N⟧{COMET}"`, []w{{ctx: Code, cont: true}}},
	})
}

// TestNewlineEscape: a "\n" (or "\r", "\t") that a program turns into a
// line break (printf's, JavaScript's) ends the URL before it, where the text is
// written with such escapes: fail2ban's mail actions and a workflow's
// github-script write "…abuse-contact-db\nabusix.com is…" and
// "…/runs/1\n\ncc @team". So it is where the text before the URL on its
// line breaks a paragraph so ("\n\n"), or where the "\n" is followed by
// another escape or ends the URL. Elsewhere the backslash stays, to be
// reported: "file:///C:\new" is a Windows path written wrong.
func TestNewlineEscape(t *testing.T) {
	runScanCases(t, []scanCase{
		{"ini value", "ini", `message = Dear Sir,\n\nSee ⟦https://abusix.com/abuse-contact-db⟧\nabusix.com is not liable.\n`, []w{{ctx: Code}}},
		{"yaml block", "yaml", "script: |\n  const body = `Failed.\\n\\nRun: ⟦https://github.com/o/r/actions/runs/1⟧\\n\\ncc @team`;\n", []w{{ctx: Code}}},
		{"another escape follows", "ini", `action = ⟦http://whois.example.com/x⟧\n\n`, []w{{ctx: Code}}},
		{"ends the line", "ini", "action = ⟦http://whois.example.com/x⟧\\n\nnext = 1\n", []w{{ctx: Code}}},
		{"plain text", "plaintext", `Hi,\n\nsee ⟦https://a.org/x⟧\nthanks`, []w{{}}},
		{"crlf escapes", "plaintext", `"/**\r\n * @see ⟦https://doc.example.com/x#y⟧\r\n */\r\n"`, []w{{}}},
		{"tab escapes", "plaintext", `"x\r\n\r\n// see ⟦https://a.org/x⟧\tfoo"`, []w{{}}},
		{"tab in a path", "ini", `path = ⟦file:///C:\temp\x⟧`, []w{{ctx: Code}}},
		{"windows path", "ini", `path = ⟦file:///C:\new\x⟧`, []w{{ctx: Code}}},
		{"inside a path", "ini", `a = b\nc ⟦http://a.org/x\ny⟧`, []w{{ctx: Code}}},
	})
}
