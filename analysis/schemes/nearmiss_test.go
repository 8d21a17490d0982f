package schemes

import "testing"

func TestNearMiss(t *testing.T) {
	tests := []struct {
		name, want string
	}{
		{"htps", "https"}, // two edits from http
		{"hhttps", "https"},
		{"htttp", "http"},
		{"htpts", "https"},
		{"HTPS", "https"},
		{"mailt", "mailto"},
		{"mialto", "mailto"},
		{"mail", "mailto"},
		{"fiel", "file"},
		{"fttp", "ftp"},
		{"htttps", "https"},
		// not misspellings
		{"http", ""},
		{"https", ""},
		{"hxxp", ""},
		{"hxxps", ""},
		{"tcp", ""},
		{"tcps", ""}, // Oracle Net's TCP with TLS, two edits from https
		{"udp", ""},
		{"ws", ""},
		{"note", ""},
		{"todo", ""},
		{"redis", ""},
	}
	for _, tt := range tests {
		got, ok := NearMiss(tt.name)
		if tt.want == "" {
			if ok {
				t.Errorf("NearMiss(%q) = %q, want none", tt.name, got)
			}
			continue
		}
		if !ok || got != tt.want {
			t.Errorf("NearMiss(%q) = %q, %v, want %q", tt.name, got, ok, tt.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b  string
		limit int
		want  int
	}{
		{"http", "http", 2, 0},
		{"htp", "http", 2, 1},
		{"htpt", "http", 2, 1}, // transposition
		{"hxxp", "http", 2, 2},
		{"tcp", "http", 1, 2}, // above the limit: limit+1
		{"", "ab", 2, 2},
		{"abcdef", "a", 2, 3},
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b, tt.limit); got != tt.want {
			t.Errorf("editDistance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.want)
		}
	}
}
