package config

import (
	"testing"
)

func TestParseSchemes(t *testing.T) {
	c, err := Parse(".urlls.json", []byte(`{
  "schemes": {
    "Geo": { "grammar": "grammars/geo.abnf", "rule": "geo-URI" },
    "web+ticket": { "rule": "ticket-URI", "grammar": "./ticket.abnf" }
  }
}`))
	if err != nil {
		t.Fatal(err)
	}
	geo, ok := c.Schemes["geo"]
	if !ok || geo.Grammar != "grammars/geo.abnf" || geo.Rule != "geo-URI" || geo.Start != nil {
		t.Fatalf("schemes %+v", c.Schemes)
	}
	// Errors found when loading are located at the value they are about.
	if got, want := geo.GrammarError("no such file").Error(), ".urlls.json:3:14: no such file"; got != want {
		t.Errorf("GrammarError = %s, want %s", got, want)
	}
	if got, want := c.Schemes["web+ticket"].RuleError("no rule").Error(), ".urlls.json:4:21: no rule"; got != want {
		t.Errorf("RuleError = %s, want %s", got, want)
	}
	// Nothing loaded, nothing for the checks.
	if opts := c.CheckOptions(); opts.Schemes != nil {
		t.Errorf("CheckOptions = %+v before loading", opts)
	}
	// A client's settings override the file's, but cannot name grammars.
	merged := c.Merge(Config{Strict: true})
	if len(merged.Schemes) != 2 {
		t.Errorf("Merge lost the schemes: %+v", merged)
	}
	_, err = ParseValue("initializationOptions", map[string]any{"schemes": map[string]any{"geo": map[string]any{"grammar": "geo.abnf", "rule": "geo-URI"}}})
	if want := `initializationOptions: "schemes" is a setting of .urlls.json only: its grammar files are named relative to it`; err == nil || err.Error() != want {
		t.Errorf("schemes in a client's settings: %v, want %s", err, want)
	}
}

func TestParseSchemesErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"not an object", `{"schemes": ["geo"]}`, `.urlls.json:1:2: "schemes" must map schemes to {"grammar": "FILE.abnf", "rule": "START-RULE"}`},
		{"null", `{"schemes": null}`, `.urlls.json:1:2: "schemes" must map schemes to`},
		{"bad scheme name", "{\"schemes\": {\n  \"geo:\": {\"grammar\": \"g.abnf\", \"rule\": \"r\"}}}", `.urlls.json:2:3: "geo:" is not a scheme name (RFC 3986 §3.1: a letter, then letters, digits, "+", "-" and "."; no ":")`},
		{"scheme starting with a digit", `{"schemes": {"9p": {"grammar": "g.abnf", "rule": "r"}}}`, `.urlls.json:1:14: "9p" is not a scheme name`},
		{"empty scheme", `{"schemes": {"": {"grammar": "g.abnf", "rule": "r"}}}`, `.urlls.json:1:14: "" is not a scheme name`},
		{"a scheme urlls has a grammar for", `{"schemes": {"HTTPS": {"grammar": "g.abnf", "rule": "r"}}}`, `.urlls.json:1:14: scheme "https" has its grammar in urlls (RFC 1738 §5); "schemes" gives a grammar to the schemes urlls has none for`},
		{"twice", `{"schemes": {"geo": {"grammar": "g.abnf", "rule": "r"}, "GEO": {"grammar": "g.abnf", "rule": "r"}}}`, `.urlls.json:1:14: scheme "geo" is given twice ("GEO" and "geo": schemes are case-insensitive)`},
		{"entry not an object", `{"schemes": {"geo": "geo.abnf"}}`, `.urlls.json:1:14: scheme "geo" must be an object {"grammar": "FILE.abnf", "rule": "START-RULE"}`},
		{"no grammar", "{\"schemes\": {\n \"geo\": {\"rule\": \"geo-URI\"}}}", `.urlls.json:2:2: scheme "geo" lacks "grammar"`},
		{"no rule", `{"schemes": {"geo": {"grammar": "geo.abnf"}}}`, `.urlls.json:1:14: scheme "geo" lacks "rule"`},
		{"unknown key", "{\"schemes\": {\"geo\": {\"grammar\": \"geo.abnf\",\n  \"start\": \"geo-URI\"}}}", `.urlls.json:2:3: unknown key "start" in scheme "geo" (known: "grammar", "rule")`},
		{"rule not a string", `{"schemes": {"geo": {"grammar": "geo.abnf", "rule": 1}}}`, `.urlls.json:1:45: "rule" of scheme "geo" must be a non-empty string`},
		{"empty grammar", `{"schemes": {"geo": {"grammar": " ", "rule": "r"}}}`, `.urlls.json:1:22: "grammar" of scheme "geo" must be a non-empty string`},
		{"absolute grammar", `{"schemes": {"geo": {"grammar": "/etc/geo.abnf", "rule": "r"}}}`, `.urlls.json:1:22: grammar file "/etc/geo.abnf" of scheme "geo" must be relative to the directory of the configuration file`},
		{"drive letter", `{"schemes": {"geo": {"grammar": "C:/geo.abnf", "rule": "r"}}}`, `.urlls.json:1:22: grammar file "C:/geo.abnf" of scheme "geo" must be relative`},
		{"outside", `{"schemes": {"geo": {"grammar": "docs/../../geo.abnf", "rule": "r"}}}`, `.urlls.json:1:22: grammar file "docs/../../geo.abnf" of scheme "geo" must be in the directory of the configuration file or below it, without ".."`},
		{"backslash", `{"schemes": {"geo": {"grammar": "g\\geo.abnf", "rule": "r"}}}`, `.urlls.json:1:22: grammar file "g\\geo.abnf" of scheme "geo" must use "/" between names`},
		{"directory", `{"schemes": {"geo": {"grammar": "./", "rule": "r"}}}`, `.urlls.json:1:22: grammar file "./" of scheme "geo" names a directory`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(".urlls.json", []byte(tc.src))
			if err == nil || len(err.Error()) < len(tc.want) || err.Error()[:len(tc.want)] != tc.want {
				t.Errorf("error %v, want prefix %s", err, tc.want)
			}
		})
	}
}
