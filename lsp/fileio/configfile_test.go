package fileio

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/urlls/urlls/analysis/config"
)

// write creates the files (name -> content) under dir.
func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// ignoreOf tells which configuration FindConfigDigest found: each test file
// ignores a pattern named after its directory.
func ignoreOf(c config.Config) string { return strings.Join(c.Ignore, " ") }

func TestFindConfigStops(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		".urlls.json":                     `{"ignore": ["*"]}`, // a shared directory's: never read
		"repo/.git/":                      "",
		"repo/.urlls.json":                `{"ignore": ["root"]}`,
		"repo/docs/deep/x":                "",
		"repo/sub/.urlls.json":            `{"ignore": ["sub"]}`,
		"repo/sub/x/y":                    "",
		"repo/nested/.git":                "gitdir: ../.git/modules/nested", // a submodule
		"repo/nested/docs/x":              "",
		"plain/ws/docs/x":                 "",
		"plain/ws/.urlls.json":            `{"ignore": ["ws"]}`,
		"plain/.urlls.json":               `{"ignore": ["plain"]}`,
		"plain/ws/docs/.urlls.json/":      "", // a directory: ignored with a warning
		"plain/ws/docs/inner/.urlls.json": `{"ignore": ["inner"]}`,
	})
	d := func(p string) string { return filepath.Join(dir, p) }
	for _, tt := range []struct {
		name      string
		dir, stop string
		want      string
		warn      string
	}{
		{"the repository's root", d("repo/docs/deep"), ConfigStop(d("repo/docs/deep")), "root", ""},
		{"the nearest", d("repo/sub/x"), ConfigStop(d("repo/sub/x")), "sub", ""},
		{"a submodule is a repository of its own", d("repo/nested/docs"), ConfigStop(d("repo/nested/docs")), "", ""},
		{"outside a repository, up to the stop", d("plain/ws/docs"), ConfigStop(d("plain/ws/docs"), d("plain/ws")), "ws", "not a regular file (directory)"},
		{"outside a repository and any folder, the directory only", d("plain/ws/docs"), ConfigStop(d("plain/ws/docs"), d("elsewhere")), "", "not a regular file (directory)"},
		{"found in the directory itself", d("plain/ws/docs/inner"), d("plain/ws/docs/inner"), "inner", ""},
		{"a stop that is not above is the directory only", d("plain/ws/docs"), d("repo"), "", "not a regular file (directory)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg, _, warnings, _, err := FindConfigDigest(tt.dir, tt.stop)
			if err != nil || ignoreOf(cfg) != tt.want {
				t.Errorf("FindConfigDigest(%s, %s) = %q, %v; want %q", tt.dir, tt.stop, ignoreOf(cfg), err, tt.want)
			}
			if w := strings.Join(warnings, "\n"); (tt.warn == "") != (w == "") || !strings.Contains(w, tt.warn) {
				t.Errorf("warnings %q, want %q", w, tt.warn)
			}
		})
	}
	if got := ConfigStop(d("repo/docs/deep"), d("repo/docs")); got != d("repo") {
		t.Errorf("in a repository the root is the stop whatever the folder: %s", got)
	}
}

func TestReadConfigTrust(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"mine/.urlls.json":  `{"ignore": ["mine"]}`,
		"big/.urlls.json":   `{"ignore": ["` + strings.Repeat("x", ConfigMaxSize) + `"]}`,
		"bad/.urlls.json":   "{\n  \"strict\": 1\n}",
		"fifo/x":            "",
		"empty/.urlls.json": "",
	})
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo/.urlls.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	name := func(d string) string { return filepath.Join(dir, d, config.FileName) }

	cfg, found, warning, err := ReadConfig(name("mine"))
	if !found || warning != "" || err != nil || ignoreOf(cfg) != "mine" {
		t.Errorf("own file: %v %q %v", found, warning, err)
	}
	// Another user's file is ignored, with a warning that says how to use
	// it anyway; root's is read.
	info, _ := os.Stat(name("mine"))
	uid, ok := Owner(info)
	if !ok {
		t.Skip("no owners here")
	}
	if uid == 0 {
		// Root's files are trusted by everyone: give it to another user.
		if err := os.Chown(name("mine"), 12345, 12345); err != nil {
			t.Fatal(err)
		}
	} else {
		getuid = func() int { return uid + 1 }
		t.Cleanup(func() { getuid = os.Getuid })
	}
	_, found, warning, err = ReadConfig(name("mine"))
	if found || err != nil || !strings.Contains(warning, ": ignored: owned by another user (uid ") || !strings.Contains(warning, "--config") {
		t.Errorf("another user's file: %v %q %v", found, warning, err)
	}
	getuid = os.Getuid
	withDeadline(t, func() {
		_, found, warning, err = ReadConfig(name("fifo"))
	})
	if found || err != nil || warning != name("fifo")+": ignored: not a regular file (named pipe)" {
		t.Errorf("FIFO: %v %q %v", found, warning, err)
	}
	_, _, _, err = ReadConfig(name("big"))
	var tl *TooLargeError
	if !errors.As(err, &tl) {
		t.Errorf("too large: %v", err)
	}
	_, found, _, err = ReadConfig(name("bad"))
	var ce *config.Error
	if !found || !errors.As(err, &ce) || ce.Line != 2 {
		t.Errorf("bad file: %v %v", found, err)
	}
	if _, found, _, err = ReadConfig(name("empty")); !found || err != nil {
		t.Errorf("empty file: %v %v", found, err)
	}
	if _, found, _, err = ReadConfig(name("missing")); found || err != nil {
		t.Errorf("missing: %v %v", found, err)
	}
}

// TestReadConfigOwners: as root, with real owners: a file of root is read
// by any user, a file of another user is not.
func TestReadConfigOwners(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("changing owners needs root")
	}
	dir := t.TempDir()
	write(t, dir, map[string]string{"other/.urlls.json": `{"ignore": ["other"]}`, "root/.urlls.json": `{"ignore": ["root"]}`})
	if err := os.Chown(filepath.Join(dir, "other", config.FileName), 12345, 12345); err != nil {
		t.Fatal(err)
	}
	if _, found, warning, _ := ReadConfig(filepath.Join(dir, "other", config.FileName)); found || !strings.Contains(warning, "(uid 12345)") {
		t.Errorf("another user's file: %v %q", found, warning)
	}
	getuid = func() int { return 4242 }
	t.Cleanup(func() { getuid = os.Getuid })
	if _, found, warning, _ := ReadConfig(filepath.Join(dir, "root", config.FileName)); !found || warning != "" {
		t.Errorf("root's file read by another user: %v %q", found, warning)
	}
}

// TestFindConfigGoesPastIgnored: a file ignored is as good as absent: the
// lookup goes on above it, up to the stop.
func TestFindConfigGoesPastIgnored(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{".git/": "", ".urlls.json": `{"ignore": ["root"]}`, "a/x": ""})
	if err := syscall.Mkfifo(filepath.Join(dir, "a", config.FileName), 0o644); err != nil {
		t.Fatal(err)
	}
	var cfg config.Config
	var warnings []string
	var err error
	withDeadline(t, func() { cfg, _, warnings, _, err = FindConfigDigest(filepath.Join(dir, "a"), dir) })
	if err != nil || ignoreOf(cfg) != "root" || len(warnings) != 1 {
		t.Errorf("%q %v %v", ignoreOf(cfg), warnings, err)
	}
}
