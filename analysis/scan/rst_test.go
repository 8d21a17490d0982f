package scan

import "testing"

func TestRST(t *testing.T) {
	ref := w{ctx: RefDef, rel: true}
	link := w{ctx: Link, rel: true}
	runScanCases(t, []scanCase{
		{"hyperlink targets", "restructuredtext",
			".. _Babel: ⟦https://babel.pocoo.org/⟧\n.. _city in Uganda: ⟦https://en.wikipedia.org/wiki/Jinja%2C_Uganda⟧\n.. _`a: b`: ⟦../x.html⟧\n",
			[]w{ref, ref, ref}},
		{"anonymous targets", "restructuredtext", ".. __: ⟦http://a.org/x⟧\n__ ⟦http://b.org/y⟧\n", []w{ref, ref}},
		{"target over lines", "restructuredtext", ".. _long: ⟦http://a.org/very/\n   long/path⟧\n\nText.\n",
			[]w{{ctx: RefDef, rel: true, text: "http://a.org/very/long/path", offs: offs([2]int{0, 18}, [2]int{22, 9})}}},
		{"target on the next line", "restructuredtext", ".. _x:\n   ⟦http://a.org/⟧\n", []w{ref}},
		{"internal and indirect targets", "restructuredtext", ".. _identifier-naming:\n\n.. _a: b_\n.. _c: `d e`_\n\nText.\n", nil},
		{"embedded URIs", "restructuredtext",
			"See `Python <⟦http://www.python.org/⟧>`_ and `the docs <⟦../docs/index.html⟧>`__ or `<⟦http://a.org⟧>`_.\n",
			[]w{link, link, link}},
		{"embedded URI over lines", "restructuredtext", "A `long link <⟦http://a.org/x\n   y⟧>`_ here.\n",
			[]w{{ctx: Link, rel: true, text: "http://a.org/xy", offs: offs([2]int{0, 14}, [2]int{18, 1})}}},
		{"aliases and roles are not URLs", "restructuredtext",
			"`alias <name_>`_ :ref:`text <label>` :doc:`guide <../guide>` `title` `http://interpreted.org` ``http://literal.org``\n", nil},
		{"standalone URLs", "restructuredtext", "Visit ⟦https://docs.djangoproject.com/en/stable/⟧. Or <⟦http://a.org/b⟧>.\n", []w{{}, {ctx: Angle}}},
		{"prose in angle brackets", "restructuredtext", "Use <note: this is prose> and <user:password>, Note: it.\n", nil},
		{"literal block after ::", "restructuredtext", "Example::\n\n    curl http://literal.org/x\n\n    more http://code.org\n\nBack ⟦http://text.org⟧.\n", []w{{}}},
		{"expanded literal form", "restructuredtext", "Text ⟦http://a.org⟧\n\n::\n\n    http://code.org\n\nAfter ⟦http://b.org⟧\n", []w{{}, {}}},
		{"list item literal block", "restructuredtext", "- Example::\n\n      http://code.org\n\n- ⟦http://item.org⟧\n", []w{{}}},
		{"no literal block without indentation", "restructuredtext", "Ends with::\n\n⟦http://a.org⟧\n", []w{{}}},
		{"code directives", "restructuredtext",
			".. code-block:: html+jinja\n\n    <a href=\"http://domain.invalid/\">you</a>\n\n.. sourcecode:: python\n   :linenos:\n\n   url = 'http://x.org'\n\n⟦http://after.org⟧\n",
			[]w{{}}},
		{"doctest", "restructuredtext", ">>> get('http://x.org')\n'http://y.org'\n\n⟦http://z.org⟧\n", []w{{}}},
		{"admonition content is text", "restructuredtext", ".. note:: See ⟦http://a.org⟧\n\n   and ⟦http://b.org⟧.\n", []w{{}, {}}},
		{"image and figure", "restructuredtext",
			".. image:: ⟦images/logo.png⟧\n   :target: ⟦https://a.org/⟧\n   :alt: http://alt.org\n\n.. figure:: ⟦https://b.org/fig.png⟧\n\n   Caption ⟦http://c.org⟧.\n",
			[]w{link, link, link, {}}},
		{"substitution image", "restructuredtext", ".. |logo| image:: ⟦logo.png⟧\n   :target: ⟦https://a.org⟧\n.. |x| replace:: see ⟦http://r.org⟧\n", []w{link, link, {}}},
		{"raw html", "restructuredtext", ".. raw:: html\n\n   <a href=\"⟦http://a.org/x⟧\">http://a.org/x</a>\n\n.. raw:: latex\n\n   \\url{http://l.org}\n", []w{{ctx: Attr, rel: true}}},
		{"comments skipped", "restructuredtext", ".. This is a comment http://c.org\n   still http://c2.org\n\n..\n   http://c3.org\n\n⟦http://t.org⟧\n", []w{{}}},
		{"footnotes are text", "restructuredtext", ".. [1] See ⟦http://f.org⟧.\n.. [CIT2002] ⟦http://cit.org⟧\n", []w{{}, {}}},
		{"include is a path", "restructuredtext", ".. include:: ../CHANGES.rst\n.. literalinclude:: x.py\n   :lines: 1-3\n", nil},
		{"section and field list", "restructuredtext", "Title\n=====\n\n:Author: me\n:URL: ⟦https://a.org⟧\n", []w{{}}},
		// docutils unescapes the URIs of targets, embedded URIs and
		// directive arguments: the backslash goes, the character after it
		// stays (and maps to its own offset), an escaped space is a space.
		{"backslash escapes in URIs", "restructuredtext",
			".. _x: ⟦https://a.org/w_\\(p\\)⟧\nSee `p <⟦http://b.org/2836\\(03\\)6⟧>`_.\n.. image:: ⟦img\\_1.png⟧\n.. _y: ⟦http://c.org/a\\ b\\\\c⟧\n",
			[]w{{ctx: RefDef, rel: true, text: "https://a.org/w_(p)", offs: offs([2]int{0, 16}, [2]int{17, 2}, [2]int{20, 1})},
				{ctx: Link, rel: true, text: "http://b.org/2836(03)6", offs: offs([2]int{0, 17}, [2]int{18, 3}, [2]int{22, 2})},
				{ctx: Link, rel: true, text: "img_1.png", offs: offs([2]int{0, 3}, [2]int{4, 6})},
				{ctx: RefDef, rel: true, text: "http://c.org/a b\\c", offs: offs([2]int{0, 14}, [2]int{15, 2}, [2]int{18, 2})}}},
		// FuzzScan's find: the URI starts at the byte its first backslash
		// escapes, the backslash going with nothing before it.
		{"a URI that starts with an escape", "restructuredtext", "__ \\⟦0x⟧\n", []w{{ctx: RefDef, rel: true, text: "0x", offs: offs([2]int{0, 2})}}},
		{"crlf", "restructuredtext", ".. _a: ⟦http://a.org⟧\r\n\r\nText ⟦http://b.org⟧\r\n", []w{ref, {}}},
	})
}

func TestRSTSuppressions(t *testing.T) {
	doc := []byte(".. urlls-disable-next-line\n\nhttp://a.org/%zz\n\nText.\n")
	sups := Scan(doc, "restructuredtext").Suppressions
	if len(sups) != 1 {
		t.Fatalf("got %v, want one suppression", sups)
	}
	off := len(".. urlls-disable-next-line\n")
	if sups[0].Start != off || sups[0].End != off+1 {
		t.Errorf("got %v, want the line after the comment (%d-%d)", sups[0], off, off+1)
	}
}
