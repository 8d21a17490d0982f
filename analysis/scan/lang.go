package scan

import (
	"slices"
	"strings"
)

// extLanguages maps a lower-case file extension to its LSP language id
// (the ids of VS Code's built-in languages where there is one).
var extLanguages = map[string]string{
	".md": "markdown", ".markdown": "markdown", ".mdown": "markdown", ".mkd": "markdown",
	".mkdn": "markdown", ".mdwn": "markdown", ".mdx": "markdown",
	".html": "html", ".htm": "html", ".xhtml": "html", ".shtml": "html",
	".txt": "plaintext", ".text": "plaintext",
	".go": "go", ".py": "python", ".pyw": "python", ".pyi": "python",
	".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascriptreact",
	".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "typescriptreact",
	".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp", ".hpp": "cpp",
	".hh": "cpp", ".hxx": "cpp", ".h++": "cpp", ".ipp": "cpp", ".cu": "cuda-cpp",
	".m": "objective-c", ".mm": "objective-cpp", ".java": "java", ".kt": "kotlin", ".kts": "kotlin",
	".scala": "scala", ".sc": "scala", ".swift": "swift", ".rs": "rust", ".dart": "dart", ".cs": "csharp",
	".php": "php", ".rb": "ruby", ".rake": "ruby", ".gemspec": "ruby", ".pl": "perl", ".pm": "perl",
	".r": "r", ".sh": "shellscript", ".bash": "shellscript", ".zsh": "shellscript", ".ksh": "shellscript",
	".fish": "fish", ".ps1": "powershell", ".psm1": "powershell", ".psd1": "powershell",
	".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".ini": "ini", ".cfg": "ini", ".conf": "ini",
	".properties": "properties", ".env": "dotenv", ".json": "json", ".jsonl": "jsonl",
	".jsonc": "jsonc", ".code-workspace": "jsonc", ".json5": "json5",
	".css": "css", ".scss": "scss", ".less": "less", ".lua": "lua", ".sql": "sql",
	".hs": "haskell", ".ex": "elixir", ".exs": "elixir", ".erl": "erlang", ".hrl": "erlang",
	".clj": "clojure", ".cljs": "clojure", ".cljc": "clojure", ".edn": "clojure",
	".lisp": "lisp", ".lsp": "lisp", ".el": "emacs-lisp", ".scm": "scheme", ".ss": "scheme", ".rkt": "racket",
	".jl": "julia", ".nim": "nim", ".zig": "zig", ".groovy": "groovy", ".gradle": "groovy",
	".xml": "xml", ".xsd": "xml", ".xsl": "xsl", ".xslt": "xsl", ".svg": "xml", ".plist": "xml",
	".vue": "vue", ".svelte": "svelte", ".proto": "proto3", ".sol": "solidity",
	".cmake": "cmake", ".mk": "makefile", ".dockerfile": "dockerfile",
	".tex": "latex", ".latex": "latex", ".sty": "latex", ".cls": "latex", ".bib": "bibtex",
	".rst": "restructuredtext", ".adoc": "asciidoc", ".asciidoc": "asciidoc",
	".diff": "diff", ".patch": "diff", ".bat": "bat", ".cmd": "bat", ".csv": "csv", ".log": "log",
}

// nameLanguages maps a lower-case file name without a telling extension to
// its language id.
var nameLanguages = map[string]string{
	"dockerfile": "dockerfile", "containerfile": "dockerfile", "makefile": "makefile",
	"gnumakefile": "makefile", "cmakelists.txt": "cmake", ".bashrc": "shellscript",
	".bash_profile": "shellscript", ".profile": "shellscript", ".zshrc": "shellscript",
	".env": "dotenv", "gemfile": "ruby", "rakefile": "ruby", "jenkinsfile": "groovy",
}

// LanguageForPath returns the LSP language id for a file name (a path with
// "/" or "\" separators is fine) by its extension, in any case: ".md" and
// ".markdown" are markdown, ".html", ".htm" and ".xhtml" html, ".txt" and
// no extension plaintext, ".go" go, ".py" python, and so on (extLanguages).
// A few names go by themselves (Dockerfile, Makefile, CMakeLists.txt,
// .bashrc), and Sphinx's page sources by their inner extension
// ("page.rst.txt" is reStructuredText). It returns "" for an unknown
// extension.
func LanguageForPath(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	lname := strings.ToLower(name)
	if l, ok := nameLanguages[lname]; ok {
		return l
	}
	if strings.HasPrefix(lname, "dockerfile.") || strings.HasSuffix(lname, ".dockerfile") {
		return "dockerfile"
	}
	// Sphinx copies each page's source next to the HTML it builds as
	// "_sources/page.rst.txt" (or ".md.txt" for MyST Markdown): the inner
	// extension says what the text is.
	for _, inner := range []string{".rst.txt", ".md.txt"} {
		if strings.HasSuffix(lname, inner) && len(lname) > len(inner) {
			return extLanguages[strings.TrimSuffix(inner, ".txt")]
		}
	}
	i := strings.LastIndexByte(lname, '.')
	if i <= 0 {
		if lname == "" {
			return ""
		}
		return "plaintext" // README, LICENSE, and dotfiles without a language
	}
	return extLanguages[lname[i:]]
}

// KnownLanguage reports whether lang (an LSP language id, in any case) is
// one Scan knows: a markup language, a language whose comments and strings
// it reads, plain text, or the language of a file extension or name that
// LanguageForPath knows (read as plain text when Scan has no syntax for
// it). Any other id is read as plain text too, but is more likely a typo.
func KnownLanguage(lang string) bool {
	return slices.Contains(Languages(), strings.ToLower(lang))
}

// Languages returns the language ids KnownLanguage knows, sorted.
func Languages() []string {
	var ids []string
	for id := range markupKinds {
		ids = append(ids, id)
	}
	for id := range languages {
		ids = append(ids, id)
	}
	for _, id := range extLanguages {
		ids = append(ids, id)
	}
	for _, id := range nameLanguages {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}
