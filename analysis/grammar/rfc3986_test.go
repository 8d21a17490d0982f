package grammar

import "testing"

// TestRFC3986 checks the transcription of RFC 3986 Appendix A (and the RFC
// 9110 and RFC 8089 scheme rules) on the RFC's own examples and on the forms
// urlls relies on it to judge: what RFC 1738 rejects and RFC 3986 accepts
// (a trailing dot or "_" in a host, "~", an IPv6 literal, an empty path
// before "?"), and what both reject.
func TestRFC3986(t *testing.T) {
	g := Builtin("rfc3986")
	if g == nil {
		t.Fatal(BuiltinError())
	}
	tests := []struct {
		rule, input string
		ok          bool
	}{
		// RFC 3986 §1.1.2 examples.
		{"URI", "ftp://ftp.is.co.za/rfc/rfc1808.txt", true},
		{"URI", "http://www.ietf.org/rfc/rfc2396.txt", true},
		{"URI", "ldap://[2001:db8::7]/c=GB?objectClass?one", true},
		{"URI", "mailto:John.Doe@example.com", true},
		{"URI", "news:comp.infosystems.www.servers.unix", true},
		{"URI", "tel:+1-816-555-1212", true},
		{"URI", "telnet://192.0.2.16:80/", true},
		{"URI", "urn:oasis:names:specification:docbook:dtd:xml:4.1.2", true},
		// RFC 3986 §5.4 reference examples.
		{"URI-reference", "g;x?y#s", true},
		{"URI-reference", "../../../g", true},
		{"URI-reference", "//g", true},
		{"URI-reference", "", true},
		// Forms only RFC 1738 rejects.
		{"URI-reference", "http://example.com./x", true},
		{"URI-reference", "http://my_host.local/~user/", true},
		{"URI-reference", "http://h?q=a/b?c", true},
		{"URI-reference", "https://example.com/page#:~:text=hello%20world,end", true},
		{"http-URI", "http://[::1]:8080/x", true},
		{"http-URI", "http://h:/x", true},
		{"https-URI", "https://user@h/x", true},
		{"file-URI", "file:/etc/hosts", true},
		{"file-URI", "file:///etc/hosts", true},
		{"file-URI", "file://localhost/etc/hosts", true},
		// Forms both reject.
		{"URI-reference", "http://[::1/x", false},
		{"URI-reference", "http://h:80a/", false},
		{"URI-reference", "http://x/a[b]", false},
		{"URI-reference", "http://x/a b", false},
		{"URI-reference", "http://x/%zz", false},
		{"http-URI", "http::host", false},
		{"http-URI", "http:/host", false},
		{"http-URI", "https://h/", false},
		{"file-URI", "file:line", false},
		// Pieces.
		{"IPv6address", "2001:db8::1", true},
		{"IPv6address", "1:2:3:4:5:6:7:8", true},
		{"IPv6address", "::ffff:192.0.2.1", true},
		{"IPv6address", "1:2:3:4:5:6:7:8:9", false},
		{"IPv4address", "192.0.2.255", true},
		{"IPv4address", "192.0.2.256", false},
		{"IPvFuture", "v1.x", true},
	}
	for _, tt := range tests {
		_, err := g.Rule(tt.rule).Match(tt.input)
		if (err == nil) != tt.ok {
			t.Errorf("%s %q: error %v, want ok=%v", tt.rule, tt.input, err, tt.ok)
		}
	}
}
