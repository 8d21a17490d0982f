package scan

import (
	"testing"

	"github.com/urlls/urlls/analysis/schemes"
)

// TestProseIsNotURL: words before a colon in prose and code-like text are
// not URLs (the list).
func TestProseIsNotURL(t *testing.T) {
	runScanCases(t, []scanCase{
		{"identifier before file:", "plaintext", "call SSL_CTX_use_PrivateKey_file:PEM and foo_http://x.com", nil},
		{"file:line stamps", "plaintext", "add file:line stamps; see main.go:12 and file:12:3", nil},
		{"labels", "plaintext", "Note: read this. TODO: fix. WARNING: hot. Note:x TODO:y FILE:z Http:/x", nil},
		{"scheme alone", "plaintext", "the http: and ftp: prefixes; http:an ftp:an; https: is better", nil},
		{"registered words", "plaintext",
			"about: this. info:foo example:foo content:encoded icon:close feed:news message:hi service:web " +
				"session:abc shell:cmd tag:v1 stun:x turn:left cap:x dict:y secret:z ssh:key git:main", nil},
		{"opaque schemes need their syntax", "plaintext",
			"news: today news:latest data: x data:foo tel: 123 tel:12 urn: x urn:x urn:a: mailto: me mailto:bar about:This geo:here magnet:x data:image/png;base64 tel:+1", nil},
		{"code paths", "plaintext", "File::open( T:std::cmp::PartialOrd http::Request http::header::HOST std::file::open", nil},
		{"placeholders in angle brackets", "plaintext", "Arg: <user:password> <note: this is prose> <T: Clone> <std::string> <key:value>", nil},
		{"cased letter before the scheme", "plaintext", "éhttp://a.com αhttp://b.com Яhttp://c.com", nil},
		{"upper-case label before a known scheme's text", "plaintext", "NEWS:comp.lang.go DATA:text/plain,x TEL:+12345", nil},
		{"comment generics", "rust", "// impl<T: Clone> for <note: x> and <user:pass>", nil},
		{"drive letters", "plaintext", `C://Users and C:/x and D:\y`, nil},
	})
}

// TestBareSchemes: what follows the colon decides.
func TestBareSchemes(t *testing.T) {
	runScanCases(t, []scanCase{
		{"about pages", "plaintext", "open ⟦about:blank⟧, ⟦about:config⟧ or ⟦about:preferences#privacy⟧.", []w{{}, {}, {}}},
		{"mailto", "plaintext", "⟦mailto:a@b.org⟧ ⟦MAILTO:A@B.ORG⟧ ⟦mailto:?to=a@b.org⟧ (⟦mailto:x.y+z@[::1]⟧)", []w{{}, {}, {}, {}}},
		{"news", "plaintext", "⟦news:comp.infosystems.www⟧ ⟦news:1234@host.org⟧", []w{{}, {}}},
		{"urn", "plaintext", "⟦urn:isbn:0451450523⟧ ⟦URN:ISBN:0-395-36341-1⟧ ⟦urn:ietf:rfc:2648⟧", []w{{}, {}, {}}},
		{"data", "plaintext", "⟦data:text/plain;base64,SGVsbG8=⟧ ⟦data:,Hello⟧ ⟦data:;base64,AA⟧", []w{{}, {}, {}}},
		{"tel and sms", "plaintext", "⟦tel:+1-201-555-0123⟧ ⟦sms:+15105550101?body=hi⟧ ⟦tel:911⟧", []w{{}, {}, {}}},
		{"at-schemes", "plaintext", "⟦cid:foo4*foo1@bar.net⟧ ⟦sip:alice@atlanta.com⟧ ⟦xmpp:romeo@montague.net⟧ mid:day", []w{{}, {}, {}}},
		{"magnet geo tag", "plaintext", "⟦magnet:?xt=urn:btih:abc⟧ ⟦geo:37.786971,-122.399677⟧ ⟦tag:timothy@hpl.hp.com,2001:web/x⟧", []w{{}, {}, {}}},
		{"file", "plaintext", "⟦file:/etc/passwd⟧ ⟦file:///etc/passwd⟧ ⟦file://host/x⟧", []w{{}, {}, {}}},
		{"any scheme before //", "plaintext", "⟦foo://bar⟧ ⟦git+ssh://host/x⟧ ⟦s3://bucket/key⟧ ⟦Custom-App://open⟧ ⟦z39.50://h⟧", []w{{}, {}, {}, {}, {}}},
		{"dotted words before // are names", "yaml", "run: git config http.https://github.com/.extraheader x and example.com://x", nil},
		{"nothing host-like after //", "plaintext", "foo:// foo://. foo://- the redis:// scheme `s3://`", nil},
		{"RFC 1738 reserved schemes before //", "plaintext", "⟦afs://cell/x⟧ mailserver:x ⟦tn3270://h/db⟧", []w{{}, {}}},
		{"uncased letters before the scheme", "plaintext", "詳細は⟦http://a.com⟧ ดู⟦http://b.com⟧ 참고⟦http://c.com⟧", []w{{}, {}, {}}},
		{"underscores", "plaintext", "_⟦http://a.com⟧_ __⟦http://b.com/x⟧__ a_http://c.com", []w{{}, {}}},
	})
}

// TestBareTypos: the typos the checks report must be candidates, as
// written.
func TestBareTypos(t *testing.T) {
	runScanCases(t, []scanCase{
		{"scheme near-misses", "plaintext", "⟦hhttps://example.com⟧ ⟦htps://example.com/x⟧ ⟦htttp://a.org⟧", []w{{}, {}, {}}},
		{"missing colon", "plaintext", "see ⟦https//example.com/x⟧ and ⟦http//example.com⟧ and ⟦HTTPS//A.COM⟧.", []w{{}, {}, {}}},
		{"one slash", "plaintext", "see ⟦http:/example.com/x⟧ and ⟦https:/a.org⟧.", []w{{}, {}}},
		{"doubled colon", "plaintext", "see ⟦http::example.com/x⟧ and ⟦https::a.org:8080⟧.", []w{{}, {}}},
		{"not typos", "plaintext", "(the word http//) ftp:/ http::a_b.c() https::x http//-x", nil},
	})
}

// TestBareTemplates: template syntax inside a URL does not cut it.
func TestBareTemplates(t *testing.T) {
	runScanCases(t, []scanCase{
		{"go template host", "plaintext", "see ⟦https://{{ .Site.BaseURL }}/about⟧.", []w{{}}},
		{"go template in path", "plaintext", "⟦https://x.org/{{ .Path }}/y⟧ ⟦https://x.org/{{- .P -}}⟧ x", []w{{}, {}}},
		{"handlebars, jinja, erb", "plaintext", "⟦https://a.org/{{{raw}}}/x⟧ ⟦https://b.org/{% url 'x' %}/y⟧ ⟦http://c.org/<%= path %>/z⟧", []w{{}, {}, {}}},
		{"hugo shortcode", "plaintext", "⟦https://d.org/{{< param \"x\" >}}/e⟧", []w{{}}},
		{"interpolations", "plaintext", "⟦https://${HOST}/x⟧ ⟦https://$HOST/x⟧ ⟦https://a.org/#{id}⟧", []w{{}, {}, {}}},
		{"no scheme, no URL", "plaintext", "{{ .URL }} ${HOST}/x {{ .Site.BaseURL }}/about", nil},
		{"action left open: the URL ends at the space", "plaintext", "⟦https://a.org/x{{⟧ .y\n}} and https://{{ .z", []w{{}}},
		{"name placeholders", "plaintext", "⟦https://github.com/<user>/<repo>⟧ ⟦https://<host>:8080/x?key=<API_KEY>⟧.", []w{{}, {}}},
		{"HTML tags are not placeholders", "plaintext", "⟦https://a.org/⟧<b>bold</b> ⟦https://b.org/x⟧<br> ⟦http://c.org⟧<user>", []w{{}, {}, {}}},
		{"template in HTML text", "html", "<p>⟦https://{{ .Site.BaseURL }}/about⟧</p>", []w{{}}},
		{"template in markdown", "markdown", "see ⟦https://{{ .Site.BaseURL }}/about⟧ now", []w{{}}},
		{"template in a code string ends it", "yaml", "url: \"⟦https://x.org/⟧{{ .Values.path }}\"\n", []w{{ctx: Code, cont: true}}},
	})
}

// TestWrappers: <…> in running text.
func TestWrappers(t *testing.T) {
	runScanCases(t, []scanCase{
		{"scheme in use", "plaintext", "<⟦mailto:a@b.org⟧> <⟦urn:isbn:123⟧> <⟦irc://x⟧> <⟦about:blank⟧>", []w{{ctx: Angle}, {ctx: Angle}, {ctx: Angle}, {ctx: Angle}}},
		{"known scheme without its syntax", "plaintext", "<http:foo> <file:line> <news:today> <mailto:me> <urn:x>", nil},
		{"XML qualified names", "plaintext", "<content:encoded> <app:layout_behavior> <xsl:template> <dc:title>", nil},
		{"broken over lines", "plaintext", "<⟦http://a.b/c\n   d⟧>", []w{{ctx: Angle, text: "http://a.b/cd", offs: offs([2]int{0, 12}, [2]int{16, 1})}}},
		{"RFC 3986 appendix C", "plaintext", "from <⟦ftp://foo.example.\n   com/rfc/⟧>.",
			[]w{{ctx: Angle, text: "ftp://foo.example.com/rfc/", offs: offs([2]int{0, 18}, [2]int{22, 8})}}},
		{"CRLF break", "plaintext", "<⟦http://a.b/c\r\n  d⟧>", []w{{ctx: Angle, text: "http://a.b/cd", offs: offs([2]int{0, 12}, [2]int{16, 1})}}},
		{"space within a line is prose", "plaintext", "<⟦http://a.b/⟧ c> <⟦gopher://g.org/1sel⟧ ector>", []w{{}, {}}},
		{"space before the break is prose", "plaintext", "<⟦http://a.b/c⟧ \n d>", []w{{}}},
		{"URL: wrapper takes any white space", "plaintext", "<URL:⟦http://a.b/ c⟧>", []w{{ctx: Wrapped, rel: true, text: "http://a.b/c", offs: offs([2]int{0, 11}, [2]int{12, 1})}}},
		{"not in use", "plaintext", "<a+b+c:d> <user:password> <x-unknown:thing>", nil},
	})
}

// TestHTMLTemplates: template actions in HTML text are not markup, and
// attribute values that hold them stay whole.
func TestHTMLTemplates(t *testing.T) {
	runScanCases(t, []scanCase{
		{"printf of a tag in an action", "html", `{{- printf "<span class=%q><a class=%q href=%q>%s</a></span>" $a $b $href $t | safeHTML }} <a href="⟦/x⟧">`,
			[]w{{ctx: Attr, rel: true}}},
		{"action value", "html", `<a href="⟦{{ .Permalink }}⟧">{{ .Title }}</a>`, []w{{ctx: Attr, rel: true}}},
		{"icon is a URL on menuitem and command only", "html", `<modal id="about" icon="far fa-heart"></modal><menuitem icon="⟦i/a.png⟧" label="A"><command ICON="⟦b.png⟧">`,
			[]w{{ctx: Attr, rel: true}, {ctx: Attr, rel: true}}},
		{"quotes inside an action", "html", `<img src="⟦{{ (resources.Get "x.png").RelPermalink }}⟧" alt="{{ "a" }}">`, []w{{ctx: Attr, rel: true}}},
		{"django url tag", "html", `<a href="⟦{% url "app:view" id %}⟧">x</a>`, []w{{ctx: Attr, rel: true}}},
		{"unquoted action value", "html", `<a href=⟦{{ .URL }}⟧ title=x>`, []w{{ctx: Attr, rel: true}}},
		{"srcset with actions", "html", `<img srcset="⟦{{ $a.RelPermalink }}⟧ 1x, ⟦{{ $b.RelPermalink }}⟧ 2x">`, []w{{ctx: Attr, rel: true}, {ctx: Attr, rel: true}}},
		{"srcset one action", "html", `<source srcset="⟦{{ $imageWebp.RelPermalink }}⟧" type="image/webp">`, []w{{ctx: Attr, rel: true}}},
		{"action with a URL in text", "html", `<p>{{ $href := printf "⟦https://github.com/gohugoio/hugo/releases/tag/v%s⟧" $.version }}</p>`, []w{{ctx: Quoted}}},
		{"text URL around an action", "html", `<p>⟦https://x.org/{{ .Path }}/y⟧ and <a href="⟦{{ .A }}/{{ .B }}⟧">t</a></p>`, []w{{}, {ctx: Attr, rel: true}}},
		{"braces that are not actions", "html", `<p>{ a } {{ open <a href="⟦/x⟧">t</a> {{ b }} <b>{{ ⟦http://y.org⟧</b>`, []w{{ctx: Attr, rel: true}, {}}},
		{"actions do not nest", "html", `{{ a {{ b }} <a href="⟦/z⟧">`, []w{{ctx: Attr, rel: true}}},
		{"ping with actions", "html", `<a ping="⟦{{ .A }}⟧ ⟦/p⟧"></a>`, []w{{ctx: Attr, rel: true}, {ctx: Attr, rel: true}}},
	})
}

// TestRegistrySchemes: schemes of the IANA registry that are not in
// bareSchemes are bare URLs only before "//", and wrappers only when they
// hold more than an XML qualified name. The registry is stubbed with a few
// of its real entries, common words among them.
func TestRegistrySchemes(t *testing.T) {
	registered := map[string]bool{"content": true, "app": true, "spotify": true, "service": true, "session": true, "feed": true, "info": true}
	registryInUse = func(name string) bool { return registered[name] || schemes.InUse(name) }
	defer func() { registryInUse = schemes.InUse }()
	runScanCases(t, []scanCase{
		{"bare only before //", "plaintext", "content:encoded service:web session:abc spotify:track:6rq feed:x ⟦feed://a.org/rss⟧ info:x", []w{{}}},
		{"wrappers", "plaintext", "<⟦spotify:track:6rqhFgbbKwnb9MLmUQDhG6⟧> <⟦info:doi/10.1000/182⟧> <content:encoded> <app:layout_behavior> <service:web> <session: x>",
			[]w{{ctx: Angle}, {ctx: Angle}}},
		{"comments", "go", "// <⟦spotify:track:6rq⟧> and <content:encoded>", []w{{ctx: Angle}}},
	})
}

// TestPlainTextAsciiDoc: a plain-text file written in AsciiDoc (git's
// documentation is, in .txt files) is scanned as AsciiDoc, so that
// "url[text]" is a link macro; ordinary text is not.
func TestPlainTextAsciiDoc(t *testing.T) {
	runScanCases(t, []scanCase{
		{"git documentation", "plaintext", "git-replace(1)\n==============\n\nSee linkgit:git-filter-branch[1] and\n⟦https://github.com/newren/git-filter-repo⟧[git-filter-repo], among\nothers; see ⟦http://repo.or.cz/w/git.git/tree/HEAD:/gitweb/⟧[] too.\n", []w{{}, {}}},
		// git's howto/coordinate-embargoed-releases.txt: two of the
		// three link macros have a text that a line break wraps.
		{"wrapped link texts", "plaintext", "The first step is to ⟦https://github.com/git/git/security/advisories/new⟧[open\nan advisory]. See\n⟦https://oss-security.openwall.org/wiki/mailing-lists/distros#how-to-use-the-lists⟧[here].\nAs an example, see ⟦https://www.openwall.com/lists/oss-security/2019/12/13/1⟧[the\nannouncement].\n", []w{{}, {}, {}}},
		// git's MyFirstObjectWalk.txt: one macro, too few markers.
		{"one link macro", "plaintext", "- ⟦https://eagain.net/articles/git-for-computer-scientists/⟧[Git for Computer Scientists]\n", []w{{}}},
		// Vault's changelog/24201.txt.
		{"placeholder of words", "plaintext", "events: Source URL is now `vault://{vault node}`\n", nil},
		{"placeholder of words after a path", "plaintext", "see ⟦https://x.org/a/⟧{your name} and ⟦https://x.org/{id}⟧ c}\n", []w{{}, {}}},
		{"a closed bracket is the URL's", "plaintext", "⟦https://x.org/a[b]⟧ c\n", []w{{}}},
		{"a bracket closed on no line is the URL's", "plaintext", "⟦https://x.org/a[b⟧ c\nd]\n", []w{{}}},
		{"a bracket closed on no line is the URL's, CR line ends", "plaintext", "⟦https://x.org/a[b⟧ c\rd]\r", []w{{}}},
		{"a bracket closed on no line is the URL's, CRLF line ends", "plaintext", "⟦https://x.org/a[b⟧ c\r\nd]\r\n", []w{{}}},
		{"a bracket before no letter is the URL's", "plaintext", "⟦https://x.org/a[1⟧ b]\n", []w{{}}},
		{"a bracket at a line's end is no AsciiDoc", "plaintext", "⟦http://a.org/x[⟧\n⟦http://b.org/y[⟧\n⟦http://c.org/z[⟧\n", []w{{}, {}, {}}},
		{"one bracket is no AsciiDoc", "plaintext", "⟦http://foo.com/blah_blah_[other]⟧ and plain text\n", []w{{}}},
	})
}

// TestHTMLCode: bare URLs in HTML code elements are examples; an unclosed
// inline code element ends with its block.
func TestHTMLCode(t *testing.T) {
	runScanCases(t, []scanCase{
		{"pre and code", "html", "<pre>curl http://localhost:port/</pre> <p><code>http://a.b/%zz</code> ⟦http://c.org/⟧</p>", []w{{}}},
		{"attributes in code are checked", "html", `<pre><a href="⟦http://d.org/⟧">d</a> http://e.org/</pre>`, []w{{ctx: Attr, rel: true}}},
		{"unclosed code ends with its block", "html", "<p><code>x http://f.org/</p><p>⟦http://g.org/⟧</p>", []w{{}}},
		// Sphinx's viewcode: blocks inside the <pre> of a module's source.
		{"blocks inside code", "html", `<div class="highlight"><pre><div class="viewcode-block" id="x">def f(): pass</div>
<span class="c1"># Forbid URLs like http:///example.com</span></pre></div><p>⟦http://h.org/⟧</p>`, []w{{}}},
		{"unclosed code in a block in code", "html", "<pre><div><code>x</div> http://i.org/</pre><p>⟦http://j.org/⟧</p>", []w{{}}},
		// An end tag closes the last open element of its name: the </pre>
		// of a <pre><code> whose </code> is missing closes both (HTML
		// §13.2.6.4.7, "pop elements until an element with the same tag
		// name has been popped"), not the <code> alone, which left the
		// <pre> open and every later paragraph in code.
		{"unclosed code in pre", "html", "<pre><code>make install\n</pre>\n<p>Then ⟦http://k.org/a⟧ b</p>\n<p>See ⟦http://k.org/b⟧</p>\n<div>and ⟦http://k.org/c⟧</div>\n", []w{{}, {}, {}}},
		{"unclosed kbd in samp", "html", "<samp><kbd>ls</samp> ⟦http://l.org/⟧", []w{{}}},
		{"unclosed pre in a block in code", "html", "<pre><div><pre>x</div> http://m.org/</pre> ⟦http://n.org/⟧", []w{{}}},
		// An end tag of a code element that is not open is ignored (HTML
		// §13.2.6.4.7: "if the stack of open elements does not have an
		// element in scope that is an HTML element with the same tag name
		// as that of the token, this is a parse error; ignore the token").
		{"stray end tag in code", "html", "<pre>x</code> http://o.org/ y</pre> ⟦http://p.org/⟧", []w{{}}},
		// The unclosed <code> of a paragraph ends with the paragraph, a
		// block opened in it or not.
		{"unclosed code with a block in a paragraph", "html", "<p>Run <code>make<div>x</div> then http://q.org/%zz</p><p>⟦http://r.org/⟧</p>", []w{{}}},
	})
}

// TestTrailingBar: outside Markdown a "|" that ends a URL is a text table's
// border or a Vim help tag's bar (Vim's pi_netrw.txt), not part of the URL;
// a GFM autolink keeps it (GFM 6.9), and so does a "|" inside a URL.
func TestTrailingBar(t *testing.T) {
	runScanCases(t, []scanCase{
		{"text table", "plaintext", "|  :Nread ⟦fetch://host/path⟧|   |\n| ⟦http://a.org/x⟧ | y |\n", []w{{}, {}}},
		{"inside", "plaintext", "⟦https://fonts.googleapis.com/css?family=A|B⟧ and ⟦http://a.org/x⟧||\n", []w{{}, {}}},
		{"go comment", "go", "// see ⟦http://a.org/x⟧|\n", []w{{ctx: Code}}},
		{"markdown keeps it", "markdown", "see ⟦http://a.org/x|⟧ there\n", []w{{}}},
	})
}
