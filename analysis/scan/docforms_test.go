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
