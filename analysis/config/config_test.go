package config

import (
	"strings"
	"testing"

	"github.com/urlls/urlls/analysis/checks"
)

func TestParse(t *testing.T) {
	c, err := Parse(".urlls.json", []byte(`{
  "strict": true,
  "severity": {"redundant-escape": "off", "non-ascii": "error", "scheme-case": "info"},
  "ignore": ["http://localhost*"],
  "languages": {".mdx": "markdown"},
  "include": ["*.go", "docs/**/*.yaml", "!gen.go"]
}`))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Strict || !c.Severity["redundant-escape"].Off || c.Severity["non-ascii"].Severity != checks.Error ||
		c.Severity["scheme-case"].Severity != checks.Information || c.Language(".MDX") != "markdown" || c.Ignore[0] != "http://localhost*" ||
		strings.Join(c.Include, " ") != "*.go docs/**/*.yaml !gen.go" {
		t.Errorf("parsed %+v", c)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"syntax", "{\n  \"strict\": tru\n}", ".urlls.json:2:16: invalid JSON"},
		{"not an object", "[1]", ".urlls.json:1:1: the configuration must be a JSON object"},
		{"unknown key", "{\n\"strikt\": true}", `.urlls.json:2:1: unknown setting "strikt"`},
		{"unknown code", "{\"severity\": {\n  \"bad-escap\": \"off\"}}", `.urlls.json:2:3: unknown code "bad-escap"`},
		{"bad level", "{\"severity\": {\"bad-escape\": \"fatal\"}}", `.urlls.json:1:15: severity of "bad-escape" must be`},
		{"wrong type", "{\"strict\": \"yes\"}", `.urlls.json:1:2: "strict" must be true or false`},
		{"extension without dot", "{\"languages\": {\"md\": \"markdown\"}}", `.urlls.json:1:16: file extension "md" must start with "."`},
		{"include not a list", "{\n  \"include\": \"*.go\"}", `.urlls.json:2:3: "include" must be a list of file patterns`},
		{"include of numbers", "{\"include\": [1]}", `.urlls.json:1:2: "include" must be a list of file patterns`},
		{"include of an object", "{\"include\": {\"*.go\": true}}", `.urlls.json:1:2: "include" must be a list of file patterns`},
		{"empty include pattern", "{\"include\": [\"*.go\", \" \"]}", `.urlls.json:1:22: "include" has an empty pattern`},
		{"include comment", "{\"include\": [\n \"#x.go\"]}", `.urlls.json:2:2: include pattern "#x.go" starts with "#"`},
		// The key an error is about, not the same text elsewhere.
		{"key text in a value before it", "{\n  \"ignore\": [\"strict\"],\n  \"strict\": 1\n}", `.urlls.json:3:3: "strict" must be true or false`},
		{"code as a key elsewhere", "{\"languages\": {\".x\": \"md\"},\n \"severity\": {\n  \"x\": \"off\"}}", `.urlls.json:3:3: unknown code "x"`},
		{"key written with an escape", "{\n \"str\\u0069ct\": 1}", `.urlls.json:2:2: "strict" must be true or false`},
		{"the last of duplicate keys", "{\"strict\": true,\n \"strict\": 1}", `.urlls.json:2:2: "strict" must be true or false`},
		{"the element of a list", "{\"include\": [\n  \"*.go\",\n  \"\"\n]}", `.urlls.json:3:3: "include" has an empty pattern`},
		// Line breaks as editors count them.
		{"CR line breaks", "{\r  \"strict\": 1\r}\r", `.urlls.json:2:3: "strict" must be true or false`},
		{"CRLF line breaks", "{\r\n  \"strict\": 1\r\n}\r\n", `.urlls.json:2:3: "strict" must be true or false`},
		{"syntax error after CR", "{\r  \"strict\": tru\r}", ".urlls.json:2:16: invalid JSON"},
		// A byte order mark is not an error, and not a column.
		{"byte order mark", "\xEF\xBB\xBF{\"strikt\": 1}", `.urlls.json:1:2: unknown setting "strikt"`},
		{"unknown key names include", "{\"includes\": []}", `.urlls.json:1:2: unknown setting "includes" (known: "strict", "severity", "ignore", "languages", "include")`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(".urlls.json", []byte(tc.src))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %v, want prefix %q", err, tc.want)
			}
		})
	}
}

func TestLevelAndStrict(t *testing.T) {
	var c Config
	if got := c.Level("rfc1738-unsafe"); got.Severity != checks.Information {
		t.Errorf("default rfc1738-unsafe = %v", got)
	}
	c.Strict = true
	if got := c.Level("rfc1738-unsafe"); got.Severity != checks.Error {
		t.Errorf("strict rfc1738-unsafe = %v", got)
	}
	if got := c.Level("redundant-escape"); got.Severity != checks.Hint {
		t.Errorf("strict redundant-escape = %v (not an RFC 1738 violation)", got)
	}
	c.Severity = map[string]Level{"rfc1738-unsafe": Off}
	if got := c.Level("rfc1738-unsafe"); !got.Off {
		t.Errorf("configured off = %v", got)
	}
}

func TestParseValueFromClients(t *testing.T) {
	// Neovim sends an empty Lua table as [].
	for _, v := range []any{[]any{}, map[string]any{"severity": []any{}, "languages": []any{}}, nil} {
		if _, err := ParseValue("client", v); err != nil {
			t.Errorf("ParseValue(%v): %v", v, err)
		}
	}
	// Errors in client settings name the setting, not a position in JSON
	// the client never wrote.
	if _, err := ParseValue("workspace/configuration", map[string]any{"activateOn": []any{"rst"}}); err == nil ||
		!strings.HasPrefix(err.Error(), `workspace/configuration: unknown setting "activateOn"`) {
		t.Errorf("unknown client setting: %v", err)
	}
	// "include" means nothing to an editor, which checks every document it
	// opens, but a client that sends the file's settings along must not be
	// refused.
	if c, err := ParseValue("client", map[string]any{"include": []any{"*.go"}}); err != nil || len(c.Include) != 1 {
		t.Errorf("include from a client: %+v, %v", c, err)
	}
	// A client's strict=false overrides a file's strict=true.
	file, _ := Parse("f", []byte(`{"strict": true}`))
	client, err := ParseValue("client", map[string]any{"strict": false})
	if err != nil {
		t.Fatal(err)
	}
	if file.Merge(client).Strict {
		t.Error("strict false from the client did not override the file")
	}
	if !file.Merge(Config{}).Strict {
		t.Error("a client that says nothing about strict turned it off")
	}
}

func TestMerge(t *testing.T) {
	file := Config{Severity: map[string]Level{"bad-escape": Off, "syntax": {Severity: checks.Warning}}, Ignore: []string{"a"}, Include: []string{"*.go"}}
	client := Config{Severity: map[string]Level{"syntax": {Severity: checks.Error}}, Strict: true}
	m := file.Merge(client)
	if !m.Severity["bad-escape"].Off || m.Severity["syntax"].Severity != checks.Error || !m.Strict || m.Ignore[0] != "a" || m.Include[0] != "*.go" {
		t.Errorf("merged %+v", m)
	}
	if file.Severity["syntax"].Severity != checks.Warning {
		t.Error("Merge changed its receiver")
	}
}

func TestApply(t *testing.T) {
	doc := []byte("see http://a/%zz and http://localhost/%zz\n" +
		"<!-- urlls-disable-next-line -->\n" +
		"http://b/%zz\n" +
		"http://c/%zz <!-- urlls-disable-line bad-escape -->\n")
	diags := checks.CheckDocument(doc, "markdown")
	c := Config{Ignore: []string{"http://localhost*"}}
	var got []string
	for _, f := range c.Apply(doc, "markdown", diags) {
		got = append(got, f.URL+" "+f.Code+" "+f.Severity.String())
	}
	want := []string{"http://a/%zz bad-escape error"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestGlobMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, s string
		want       bool
	}{
		{"http://localhost*", "http://localhost:8080/x", true},
		{"http://localhost*", "https://localhost", false},
		{"*example.com*", "https://www.example.com/a", true},
		{"https://*.example.com/*", "https://a.example.com/b", true},
		{"https://*.example.com/*", "https://example.com/b", false},
		{"exact", "exact", true},
		{"exact", "exactly", false},
		{"*", "", true},
		{strings.Repeat("*a", 50), strings.Repeat("a", 49) + "b", false}, // no exponential blow-up
	} {
		if got := globMatch(tc.pattern, tc.s); got != tc.want {
			t.Errorf("globMatch(%q, %q) = %v", tc.pattern, tc.s, got)
		}
	}
}
