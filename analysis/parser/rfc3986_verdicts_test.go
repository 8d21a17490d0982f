package parser

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// verdictsFile is the RFC 3986 verdict table (see its header).
const verdictsFile = "../../testdata/rfc3986/verdicts.tsv"

// verdict is one row of the table.
type verdict struct {
	line     int
	accept   bool
	relative bool // kind "ref": a URI-reference; "uri": a URI
	input    string
}

func readVerdicts(t testing.TB) []verdict {
	t.Helper()
	f, err := os.Open(verdictsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []verdict
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.SplitN(line, "\t", 3)
		if len(fields) != 3 || (fields[0] != "accept" && fields[0] != "reject") || (fields[1] != "uri" && fields[1] != "ref") {
			t.Fatalf("%s:%d: want verdict, kind and input: %q", verdictsFile, n, line)
		}
		v := verdict{line: n, accept: fields[0] == "accept", relative: fields[1] == "ref"}
		if err := json.Unmarshal([]byte(fields[2]), &v.input); err != nil {
			t.Fatalf("%s:%d: %v", verdictsFile, n, err)
		}
		out = append(out, v)
	}
	if len(out) < 150 {
		t.Fatalf("%s has %d rows", verdictsFile, len(out))
	}
	return out
}

func (v verdict) String() string {
	kind := "uri"
	if v.relative {
		kind = "ref"
	}
	return fmt.Sprintf("%s:%d %s %q", verdictsFile, v.line, kind, v.input)
}

// TestRFC3986Verdicts: the rfc3986 profile (the general matcher over
// rfc3986.abnf) and the hand-written reference give every row's verdict.
func TestRFC3986Verdicts(t *testing.T) {
	accepts := 0
	for _, v := range readVerdicts(t) {
		ref := refURI(v.input)
		if v.relative {
			ref = refURIReference(v.input)
		}
		if ref != v.accept {
			t.Errorf("%s: the reference validator says accept=%v, the table %v", v, ref, v.accept)
		}
		_, err := RFC3986.Parse(v.input, v.relative)
		if (err == nil) != v.accept {
			t.Errorf("%s: the rfc3986 profile says %v, the table accept=%v", v, err, v.accept)
		}
		if v.accept {
			accepts++
		}
	}
	t.Logf("%d accepted", accepts)
}

// TestRFC3986VerdictsPython checks the table against the rfc3987 Python
// package, an implementation of RFC 3986's ABNF by regular expressions
// (Debian: python3-rfc3987), where it is installed. It disagrees with RFC
// 3986 on the two rows the table's header names.
func TestRFC3986VerdictsPython(t *testing.T) {
	py := ""
	for _, p := range []string{"python3", "/usr/bin/python3"} { // Debian's, if another comes first
		if path, err := exec.LookPath(p); err == nil && exec.Command(path, "-c", "import rfc3987").Run() == nil {
			py = path
			break
		}
	}
	if py == "" {
		t.Skip("python3 with the rfc3987 package (Debian: python3-rfc3987) is not installed")
	}
	known := map[string]bool{"http://[V1.x]/": true, "http://[::ffff:01.2.3.4]/": true}
	rows := readVerdicts(t)
	var in strings.Builder
	for _, v := range rows {
		rule := "URI"
		if v.relative {
			rule = "URI_reference"
		}
		b, _ := json.Marshal([]string{rule, v.input})
		in.Write(b)
		in.WriteByte('\n')
	}
	cmd := exec.Command(py, "-c", `import json, sys, rfc3987
for line in sys.stdin:
    rule, s = json.loads(line)
    print("accept" if rfc3987.match(s, rule=rule) else "reject")`)
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Fields(string(out))
	if len(got) != len(rows) {
		t.Fatalf("%d answers for %d rows", len(got), len(rows))
	}
	for i, v := range rows {
		if (got[i] == "accept") != v.accept && !known[v.input] {
			t.Errorf("%s: rfc3987 says %s, the table accept=%v", v, got[i], v.accept)
		}
	}
}
