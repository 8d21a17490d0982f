package scan

import (
	"testing"
)

// fuzzLanguages are the languages FuzzScan picks from: each scanner, and
// each family of code syntax.
var fuzzLanguages = []string{
	"plaintext", "markdown", "html", "go", "python", "javascript", "rust", "shellscript", "yaml", "sql",
	"lua", "css", "json", "c", "ruby", "toml", "ini", "haskell", "powershell", "clojure", "unknown",
	"restructuredtext", "asciidoc",
}

// checkInvariants checks what every Scan result must satisfy: spans inside
// the document, in order and disjoint; Text equal to the spanned bytes when
// Offsets is nil; otherwise one strictly increasing offset per Text byte
// (and End after them), each Text byte equal to the document byte it maps to
// unless it belongs to a decoded reference or escape, which starts at an "&"
// or a "\".
func checkInvariants(t *testing.T, doc []byte, cands []Candidate) {
	t.Helper()
	prevEnd := 0
	for i, c := range cands {
		if c.Start < 0 || c.Start >= c.End || c.End > len(doc) {
			t.Fatalf("candidate %d: span %d-%d outside the document (%d bytes)", i, c.Start, c.End, len(doc))
		}
		if c.Start < prevEnd {
			t.Fatalf("candidate %d: starts at %d, before the end %d of the one before", i, c.Start, prevEnd)
		}
		prevEnd = c.End
		if c.Offsets == nil {
			if c.Text != string(doc[c.Start:c.End]) {
				t.Fatalf("candidate %d: Text %q is not the document's %q and Offsets is nil", i, c.Text, doc[c.Start:c.End])
			}
			continue
		}
		if len(c.Offsets) != len(c.Text)+1 {
			t.Fatalf("candidate %d: %d offsets for %d Text bytes", i, len(c.Offsets), len(c.Text))
		}
		if c.Offsets[0] != c.Start || c.Offsets[len(c.Text)] != c.End {
			t.Fatalf("candidate %d: offsets %v do not run from Start %d to End %d", i, c.Offsets, c.Start, c.End)
		}
		for k := 0; k < len(c.Text); k++ {
			o := c.Offsets[k]
			if o >= c.Offsets[k+1] {
				t.Fatalf("candidate %d: offsets not increasing at %d: %v", i, k, c.Offsets)
			}
			if c.Text[k] == doc[o] {
				continue
			}
			decoded := false
			for back := 0; back <= 8 && back <= k; back++ {
				if s := c.Offsets[k-back]; s == o-back && (doc[s] == '&' || doc[s] == '\\') {
					decoded = true
					break
				}
			}
			if !decoded {
				t.Fatalf("candidate %d: Text byte %d %q maps to document byte %d %q, not a decoded reference", i, k, c.Text[k], o, doc[o])
			}
		}
		if c.DocOffset(len(c.Text)) != c.End || c.DocOffset(0) != c.Start {
			t.Fatalf("candidate %d: DocOffset disagrees with Start/End", i)
		}
	}
}

func checkSuppressions(t *testing.T, doc []byte, sups []Suppression) {
	t.Helper()
	for i, s := range sups {
		if s.Start < 0 || s.Start > s.End || s.End > len(doc) {
			t.Fatalf("suppression %d: span %d-%d outside the document (%d bytes)", i, s.Start, s.End, len(doc))
		}
		if i > 0 && s.Start < sups[i-1].Start {
			t.Fatalf("suppressions not ordered by Start")
		}
	}
}

func FuzzScan(f *testing.F) {
	seeds := []string{
		"My http://example.com site (see http://x.org/a_(b)).",
		"<URL:ftp://info.cern.ch/pub/www/doc;\n      type=d> <irc://x> <a+b:c>",
		"[a](http://a.com/\\_&amp; \"t\") ![i](<b c>) <http://x> `http://c` [r]: /x 'y'",
		"```\nhttp://code\n```\n    indented\n- item http://l.com\n> q <a href='h'>t</a>",
		"| a | b |\n|---|---|\n| http://a.com | x |\n",
		`<a href="http://a.com/?a&amp;b&#37;&#x25;">t</a><img srcset="a 1x, b 2x"><meta http-equiv=refresh content="0;url=/x">`,
		"<script>var s='http://s'; // http://c\n</script><style>a{b:url(x)}</style><!-- c -->",
		"// http://a.com\n/* http://b */ s := \"http:\\/\\/x\\u0041\" `http://raw` '\\''",
		"# http://c\nurl: https://y  'q' \"\"\"doc http://d\"\"\" r'\\d'",
		"--[[ http://l ]] [==[x]==] -- urlls-disable-next-line bad-escape\n",
		"<!-- urlls-disable --> http://a <!-- urlls-enable -->\n// urlls-disable-line unsafe-char, bad-escape -- why",
		"&#0; &#x110000; &#128; &notit; &acE; \\u{1F600} \\uD83D\\uDE00 \\400 http://a.com/&amp",
		"((((((((((((((((((( [[[[[[[[[[[[ <<<<<<<<<< ]]]]]]] ))))))) `````` ~~~~",
		"http://a.com/`b` http://\xff\xfe\x00 「http://x.jp」 http://y.com/…",
		".. _a: http://a\n   b\n.. image:: x.png\n   :target: y\n`t <u>`_ ``l`` :ref:`x <y>`\nP::\n\n    code\n.. code-block:: c\n\n   x\n.. c\n",
		"link:a[b] https://x[y^] image::i.png[] :u: https://z\n----\nhttp://code\n----\n// c\n////\nc\n////\n{url}/x[t] pass:[x] <<id>> xref:a[]",
		"SSL_CTX_use_PrivateKey_file:PEM Note: https//h http:/h http::h.x <note: x> https://{{ .X }}/y https://g/<u>/r about:blank",
		"[a](http://x.com/a b) [b]({{< ref \"x\" >}}) <{{% e %}}> [c][d] [d]\n\n[d]:\n  /d\n  'title\n  more'\n" +
			"1. a\n   ```\n   x\n2. b\n  > - c\n  >\tlazy\n-\t\tcode\n| a | b |\n| - | - |\n",
		"regexp.MustCompile(\n\t`^(oci://[^:]+)`) re.compile(r'https://x') Regex::new(r#\"h://[^/]\"#) (\"http://a\") .(\"b://c\")",
		"# see http://a.org/x\\\r\n# y\n\"http://\\N{COMET}.com/?q=\\\\N{A}\" https://:code:`<n>`.x.com h://u:p@h:port/db[?k=v&k=v...]\\",
		"proxy_pass http://w:3100\\$$request_uri; http://x/\\${H}/$$(pwd) m = a\\n\\nb http://a.org/x\\ny http://b.org/\\r\\n\\t file:///C:\\new \\n\\",
	}
	for _, s := range seeds {
		for l := range fuzzLanguages {
			f.Add([]byte(s), uint8(l))
		}
	}
	f.Fuzz(func(t *testing.T, doc []byte, l uint8) {
		lang := fuzzLanguages[int(l)%len(fuzzLanguages)]
		r := Scan(doc, lang)
		checkInvariants(t, doc, r.Candidates)
		checkSuppressions(t, doc, r.Suppressions)
	})
}
