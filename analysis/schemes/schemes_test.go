package schemes

import (
	"strings"
	"testing"
)

// dataLines returns the fields of each line of an embedded list that is not
// blank or a comment, with the line's number.
func dataLines(data string) (lines [][]string, numbers []int) {
	for i, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		lines = append(lines, strings.Fields(line))
		numbers = append(numbers, i+1)
	}
	return lines, numbers
}

// validScheme reports whether name matches RFC 3986 §3.1:
// scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
func validScheme(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return name != ""
}

func TestIANAData(t *testing.T) {
	lines, numbers := dataLines(ianaData)
	seen := make(map[string]int)
	count := make(map[string]int)
	for i, f := range lines {
		n := numbers[i]
		if len(f) != 2 {
			t.Errorf("iana.txt:%d: %q: want \"name status\"", n, strings.Join(f, " "))
			continue
		}
		name, status := f[0], f[1]
		if !validScheme(name) {
			t.Errorf("iana.txt:%d: %q is not a scheme name (RFC 3986 §3.1)", n, name)
		}
		switch status {
		case "permanent", "provisional", "historical":
			count[status]++
		default:
			t.Errorf("iana.txt:%d: %s: status %q, want permanent, provisional or historical", n, name, status)
		}
		key := strings.ToLower(name)
		if prev, ok := seen[key]; ok {
			t.Errorf("iana.txt:%d: %s is also on line %d", n, name, prev)
		}
		seen[key] = n
	}
	// The registry had about 370 entries in 2022 and grows by a few a
	// month; permanent and historical entries change rarely.
	if total := len(lines); total < 350 || total > 700 {
		t.Errorf("iana.txt has %d entries, want 350 to 700", total)
	}
	if c := count["permanent"]; c < 90 || c > 150 {
		t.Errorf("iana.txt has %d permanent entries, want 90 to 150", c)
	}
	if c := count["historical"]; c < 10 || c > 40 {
		t.Errorf("iana.txt has %d historical entries, want 10 to 40", c)
	}
	if c := count["provisional"]; c < 200 {
		t.Errorf("iana.txt has %d provisional entries, want at least 200", c)
	}
	if len(seen) != len(registeredSet()) {
		t.Errorf("Registered knows %d names, iana.txt has %d", len(registeredSet()), len(seen))
	}
}

func TestIANADataHeaderDate(t *testing.T) {
	if !strings.Contains(ianaData, "RegistryDate says "+RegistryDate+".") {
		t.Errorf("the header of iana.txt does not give RegistryDate %q", RegistryDate)
	}
}

func TestUnregisteredData(t *testing.T) {
	lines, numbers := dataLines(unregisteredData)
	seen := make(map[string]int)
	for i, f := range lines {
		n, name := numbers[i], f[0]
		if len(f) < 2 {
			t.Errorf("unregistered.txt:%d: %s: no word on where it is used", n, name)
		}
		if !validScheme(name) {
			t.Errorf("unregistered.txt:%d: %q is not a scheme name (RFC 3986 §3.1)", n, name)
		}
		key := strings.ToLower(name)
		if prev, ok := seen[key]; ok {
			t.Errorf("unregistered.txt:%d: %s is also on line %d", n, name, prev)
		}
		seen[key] = n
		if Registered(name) {
			t.Errorf("unregistered.txt:%d: %s is in the IANA registry (iana.txt)", n, name)
		}
	}
	if len(lines) < 10 || len(lines) > 100 {
		t.Errorf("unregistered.txt has %d entries, want 10 to 100: a short list of widely used schemes", len(lines))
	}
}

func TestRegistered(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"http", true},
		{"HTTPS", true},
		{"Data", true},
		{"urn", true},
		{"mailto", true},
		{"tel", true},
		{"file", true},
		{"ftp", true},
		{"about", true},
		{"ws", true},
		{"wss", true},
		{"ssh", true},
		{"git", true},
		{"magnet", true},
		{"chrome", true},
		{"chrome-extension", true},
		{"vscode", true},
		{"vscode-insiders", true},
		{"redis", true},
		{"mongodb", true},
		{"coap+tcp", true},
		{"iris.beep", true},
		{"z39.50r", true},
		{"shttp", true}, // marked OBSOLETE, still in the registry
		{"fax", true},   // historical
		{"machineprovisioningprogressreporter", true}, // mixed case in the registry
		// not registered
		{"javascript", false},
		{"git+ssh", false},
		{"postgres", false},
		{"ftps", false},
		{"htps", false},
		{"", false},
		{"http:", false},
	}
	for _, tt := range tests {
		if got := Registered(tt.name); got != tt.want {
			t.Errorf("Registered(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestInUse(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"https", true},      // registered
		{"MAILTO", true},     // registered, any case
		{"git+ssh", true},    // unregistered, in wide use
		{"Postgres", true},   // unregistered, any case
		{"javascript", true}, // unregistered, in wide use
		{"s3", true},
		{"hkps", true}, // gpg's keyservers: one edit from https, no typo of it
		{"htps", false},
		{"hhttps", false},
		{"note", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := InUse(tt.name); got != tt.want {
			t.Errorf("InUse(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestInUseCoversBothLists checks every name of both files, in upper case too.
func TestInUseCoversBothLists(t *testing.T) {
	for file, data := range map[string]string{"iana.txt": ianaData, "unregistered.txt": unregisteredData} {
		lines, _ := dataLines(data)
		for _, f := range lines {
			for _, name := range []string{f[0], strings.ToUpper(f[0])} {
				if !InUse(name) {
					t.Errorf("%s: InUse(%q) = false", file, name)
				}
				if _, ok := NearMiss(name); ok {
					t.Errorf("%s: NearMiss(%q) found a typo of a scheme in use", file, name)
				}
			}
		}
	}
}

func registeredSet() map[string]bool {
	load()
	return registered
}
