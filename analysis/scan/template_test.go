package scan

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPlaceholders(t *testing.T) {
	// Each case marks the expected placeholders with « » around them in
	// want; the text is want without the marks.
	tests := []struct{ name, want string }{
		{"go template", "«{{ .Site.BaseURL }}»/about"},
		{"go template no spaces", "«{{.URL}}»"},
		{"hugo shortcode", "<«{{% eturl opengraph %}}»>"},
		{"hugo ref", "«{{< ref \"x.md\" >}}»#top"},
		{"jinja tag", "«{% url 'x' %}»"},
		{"jinja comment", "a«{# note #}»b"},
		{"handlebars triple", "https://x/«{{{path}}}»/y"},
		{"open action", "https://x/«{{ .Permalink»"},
		{"erb", "«<%= root_url %>»/x"},
		{"shell braces", "«${HOST}»/x"},
		{"shell var", "«$BASE»/x"},
		{"shell vars in authority", "https://«$HOST»:«$PORT»/x"},
		{"ruby", "http://«#{host}»/x"},
		{"windows", "file:///«%APPDATA%»/x"},
		{"template names", "«%sveltekit.assets%»/favicon.png «%script%» x/«%lang%»/y «%PUBLIC_URL%»/a"},
		{"not names", "http://x/100%done% http://x/a%done%20 http://x/%a.% http://x/%ab% /%zz%"},
		{"uri template", "https://api.example.com/users/«{id}»"},
		{"uri template operators", "/search«{?q,lang}»«{/path*}»«{var:3}»"},
		{"uri template hyphen", "/u/«{user-id}»"},
		{"curl glob", "http://«{one,two}».example.com"},
		{"angle placeholder", "https://github.com/«<user>»/«<repo>»"},
		{"angle placeholder spaces", "https://x/?key=«<API key>»"},
		{"printf", "https://x/«%s»/«%d»?q=«%(name)s»&r=«%1$s»"},
		{"escape is not a verb", "https://x/%de%20"},
		{"bad escape is not a verb", "https://x/%zz%2"},
		{"verb must end a word", "https://x/100%done%sure"},
		{"plain", "https://example.com/a?b=c#d"},
		{"glob ranges", "http://site.host«[1-5]».example/«[a-z]»/f«[001-120:10]».png"},
		{"ipv6 is no range", "http://[::1]:80/"},
		{"synopsis", "ssh://«[user@]»host.xz«[:port]»/~«[user]»/path/to/repo.git/"},
		{"synopsis user before @", "scp://«[user]»@hostname/path/"},
		{"ip literal then @ is no word", "http://[::1]@x/"},
		{"synopsis nested", "scp://«[user@]»machine«[[:#]port]»/path"},
		{"synopsis optional path", "gs://BUCKET_NAME«[/NAMESPACE_PATH]» s3://bucket«[/prefix/key]»"},
		{"a path in brackets needs a name", "http://x/a[/]/b[/1]"},
		{"route segment", "https://example.com/«[locale]»/blog"},
		{"dotted name segment", "https://«[service.name]»/«[google.protobuf.Api.name]»"},
		// Where a host goes, a bracketed name no IP literal can be is the
		// host's placeholder; hex digits and dots are an IP literal
		// botched, IPvFuture one written right.
		{"host placeholders", "http://«[host]»/path gs://«[bucket_name]»/x https://«[account]».snowflake.com/ https://u@«[your-domain]»:8080/"},
		{"no host placeholders", "http://[fe80]/x http://[1.2.3.4]/ http://[cafe.d00d]/ http://[v1.fe80]/ http://[::1]/ http://[a b]/ http://[2host]/ http://x/[host]x http://[host]x/y"},
		// Past the authority no host goes: a name in brackets after a "]"
		// or a "//" of the path is the path's (a query's "items[0][name]"
		// written in a path), for the syntax check to judge and fix.
		{"no host placeholders in a path", "https://x.org/items[0][name] http://x.org//[name]x http://x.org/a//[name]"},
		{"host placeholders after optional parts", "ssh://«[user@]»«[host]»/x mailto:a@«[your-domain]»"},
		// Alternatives for the host, "/" between names: "[ip/dnsname]"
		// (rsyslog's KSI signing service).
		{"host placeholder alternatives", "ksi+tcp://«[ip/dnsname]»:3332 http://«[host/ip]»/x"},
		{"no host placeholder alternatives", "http://[ip/]/x http://[ip//dns]/ http://[a/1]/ http://[fe80/64]/ http://[::1/64]/"},
		// A relative reference that starts with a bracketed name is a
		// base the page's server fills in: Apache's mirror CGI pages
		// ("[preferred]/xerces/c/", action="[location]").
		{"base placeholder", "«[preferred]»/xerces/c/3/sources/xerces-c-3.2.4.zip"},
		{"base placeholder alone", "«[location]»"},
		{"base placeholder then query", "«[base_url]»?q=1"},
		{"base placeholder then fragment", "«[base]»#x"},
		{"base placeholder needs a name", "[1]/x"},
		{"base placeholder has no spaces", "[a b]/x"},
		{"base placeholder is a segment", "[preferred]x/"},
		{"base placeholder starts the reference", "x[preferred]/"},
		{"route segment at the end", "gs://B/«[NAMESPACE_PATH]»"},
		{"route segments of the rest", "https://x/«[...slug]»/a/«[[...path]]»?q"},
		{"not route segments", "http://x/a[b]/ http://x/[b]c/ http://x/[1]/ http://x/?a=/[b] http://x/[a:b]/"},
		{"synopsis userinfo with password", "ftp://«[user[:password]@]»host/"},
		{"synopsis optional path", "scheme://hostname:port«[/path]»"},
		{"synopsis repeated part", "driver://«[user:pass@]»host:port«[,[userN:passN@]hostN:portN]»/virtual_host?query"},
		{"synopsis then an ip literal", "ssh://«[user@]»[::1]«[:port]»/x"},
		{"synopsis userinfo of sub-delims and escapes", "ftp://«[us%20er;x=1:p!a$s@]»host/"},
		// An optional userinfo is one where a userinfo goes, after "//",
		// and holds a userinfo's characters (RFC 3986 §3.2.1): elsewhere
		// "[…@]" is no synopsis, and what it holds is checked.
		{"userinfo part only after //", "https://example.com/[user@]host/path%zz"},
		{"userinfo part of a userinfo's characters", "http://[a%zz@]host/p http://[a/b@]host/ http://[a@b@]host/"},
		{"a path in brackets needs a letter", "https://x/a[/1]"},
		{"a word alone is no synopsis", "https://x/~[user]/a?b[]=1&c[0]=2"},
		{"ipv6 literals are no synopsis", "http://[::1]:80/ http://[fe80::1%25en0]/ http://[v1.x]/ http://[::ffff:1.2.3.4]/"},
		{"synopsis optional fragment after the query", "scheme://host«[:port]»/path?query«[#fragment]»"},
		{"synopsis optional query and fragment", "http://host«[:port]»/path«[?query]»«[#fragment]»"},
		// An optional query is bracketed with no optional part before it
		// (SQLAlchemy's dialect docs: ":connectstring:
		// mysql+aiomysql://user:password@host:port/dbname[?key=value&key=value...]").
		{"synopsis optional query alone", "mysql+aiomysql://user:password@host:port/dbname«[?key=value&key=value...]»"},
		{"optional query needs a name", "https://x/a[?] https://x/a[?1] https://x/a[? b]"},
		{"optional fragment only after a synopsis", "https://x/a?q[#b] https://x/a?q[#b]c https://x/a?q[#]"},
		{"character class in a fragment", "pattern.html#[:alpha:]"},
		{"query brackets", "https://x/?page[size]=10&filter[name]=a"},
		{"unclosed bracket", "https://x/[user@"},
		{"ellipsis", "https://«...»url«...»/a/«…»/b/../c"},
		{"brace alone", "https://x/{a b}"},
		{"dollar then a space", "https://x/$ «{a}»"},
		{"dollar digit", "https://x/$1"},
		{"doxygen relpath", "«$relpath^»tabs.css «$relpath^»«$projectlogo» «$relpath$»x.js «$relpaths»^x"},
		{"empty braces", "https://x/{}"},
		{"angle then space", "https://x/<a >"},
		{"unclosed shell brace", "https://x/«${HOST»"},
		{"command substitution", "http://«$(hostname -f)»:8080/«$(a (b) c)»/x"},
		{"unclosed command substitution", "http://«$(kubectl»"},
		{"mako expression", "«${href(page.name, rev=revision.revision_id)}»"},
		{"escaped dollar", `http://write:3100«\$request_uri»; http://x/«\${HOST}»/y http://x/«\$(hostname)»`},
		{"doubled dollar", "http://write:3100«$$request_uri»; «$${HOST}»/x «$$(pwd)»/x http://x/$$ http://x/$$1"},
		{"escaped doubled dollar", `http://write:3100«\$$request_uri»;`},
		{"backslash not before a variable", `http://x/a\b http://x/\$ http://x/\$1 http://x/\\`},
		{"js template literal", "https://«${host}»/«${path + '/x'}»?q=«#{a {b} c}»"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.NewReplacer("«", "", "»", "").Replace(tt.want)
			var b strings.Builder
			prev := 0
			for _, sp := range Placeholders(text) {
				b.WriteString(text[prev:sp.Start])
				b.WriteString("«" + text[sp.Start:sp.End] + "»")
				prev = sp.End
			}
			b.WriteString(text[prev:])
			if diff := cmp.Diff(tt.want, b.String()); diff != "" {
				t.Errorf("Placeholders(%q) (-want +got):\n%s", text, diff)
			}
		})
	}
}

func TestPlaceholdersLinear(t *testing.T) {
	// Pathological openers: every search is bounded, so this is fast; a
	// quadratic recogniser would take minutes on 1 MB.
	for _, unit := range []string{"{{", "{", "<a", "${", "%(", "{a,", "[", "[:a", "[a@", "[[:", "[:a]?[#a"} {
		s := strings.Repeat(unit, 1<<20/len(unit))
		Placeholders(s)
	}
}
