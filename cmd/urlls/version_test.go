package main

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionText: what "urlls version" makes of the build information of
// the three kinds of binary.
func TestVersionText(t *testing.T) {
	platform := runtime.GOOS + "/" + runtime.GOARCH
	tests := []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"no build information", nil, "urlls (devel) " + runtime.Version() + " " + platform + "\n"},
		{"go install MODULE@v1.2.3", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/urlls/urlls", Version: "v1.2.3"}},
			"urlls v1.2.3 go1.26.0 " + platform + "\n"},
		{"go build -buildvcs=false", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}},
			"urlls (devel) go1.26.0 " + platform + "\n"},
		{"go build in a clone with changes", &debug.BuildInfo{GoVersion: "go1.26.0",
			Main: debug.Module{Version: "v0.0.0-20260102030405-0123456789ab+dirty"},
			Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
				{Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}},
			"urlls v0.0.0-20260102030405-0123456789ab+dirty go1.26.0 " + platform + "\n" +
				"git commit 0123456789abcdef0123456789abcdef01234567 (2026-01-02T03:04:05Z), with uncommitted changes\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := versionText(tt.info); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// moduleFiles returns the files of the module as git sees them in the work
// tree (tracked and new, not ignored), relative to root; the test is
// skipped outside a git checkout.
func moduleFiles(t *testing.T, root string) []string {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if info, err := os.Lstat(filepath.Join(root, f)); f != "" && err == nil && info.Mode().IsRegular() {
			files = append(files, f)
		}
	}
	return files
}

// goCmd runs the go command in dir with env added, and returns its output.
func goCmd(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func runBinary(t *testing.T, bin string, args ...string) string {
	t.Helper()
	out, err := exec.Command(bin, args...).Output()
	if err != nil {
		t.Fatalf("%s %s: %v", bin, strings.Join(args, " "), err)
	}
	return string(out)
}

// TestVersionBuilt builds urlls as a person would, and runs "urlls
// version": in a git clone (a copy of this work tree, committed), the go
// command stamps a pseudo-version and the commit, and says when the tree
// had changes; without version control information the version is
// "(devel)". --version prints the same.
func TestVersionBuilt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds urlls three times")
	}
	root, _ := filepath.Abs("../..")
	files := moduleFiles(t, root)
	clone := t.TempDir()
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(clone, filepath.Dir(f)), 0o755)
		if err := os.WriteFile(filepath.Join(clone, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", clone, "-c", "user.name=urlls test", "-c", "user.email=test@example.org"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_COMMITTER_DATE=2026-01-02T03:04:05Z", "GIT_AUTHOR_DATE=2026-01-02T03:04:05Z")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "snapshot")
	rev := git("rev-parse", "HEAD")
	bin := filepath.Join(t.TempDir(), "urlls")
	platform := runtime.GOOS + "/" + runtime.GOARCH
	// GOFLAGS in the environment overrides a -buildvcs=false of the user's
	// go env file (this machine has one).
	build := func(buildvcs string) string {
		goCmd(t, clone, []string{"GOFLAGS=-buildvcs=" + buildvcs + " -trimpath"}, "build", "-o", bin, "./cmd/urlls")
		out := runBinary(t, bin, "version")
		if alt := runBinary(t, bin, "--version"); alt != out {
			t.Errorf("--version printed %q, version %q", alt, out)
		}
		return out
	}

	if got, want := build("false"), fmt.Sprintf("urlls (devel) %s %s\n", runtime.Version(), platform); got != want {
		t.Errorf("without VCS information: got %q, want %q", got, want)
	}
	want := regexp.MustCompile(`^urlls v0\.0\.0-20260102030405-` + rev[:12] + ` go\S+ ` + platform + `\ngit commit ` + rev + ` \(2026-01-02T03:04:05Z\)\n$`)
	if got := build("true"); !want.MatchString(got) {
		t.Errorf("in a clean clone: got %q, want %s", got, want)
	}
	os.WriteFile(filepath.Join(clone, "README.md"), []byte("changed\n"), 0o644)
	want = regexp.MustCompile(`^urlls v0\.0\.0-20260102030405-` + rev[:12] + `\+dirty go\S+ ` + platform + `\ngit commit ` + rev + ` \(2026-01-02T03:04:05Z\), with uncommitted changes\n$`)
	if got := build("true"); !want.MatchString(got) {
		t.Errorf("in a clone with changes: got %q, want %s", got, want)
	}
}

// TestVersionGoInstall installs urlls as the README says, "go install
// github.com/urlls/urlls/cmd/urlls@VERSION", from a module proxy on disk
// that serves this work tree as v1.2.3 (and the dependencies from the
// local module cache, so that nothing is downloaded): the binary knows its
// version without -ldflags.
func TestVersionGoInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds urlls from a module proxy")
	}
	root, _ := filepath.Abs("../..")
	files := moduleFiles(t, root)
	const mod, ver = "github.com/urlls/urlls", "v1.2.3"
	proxy := t.TempDir()
	dir := filepath.Join(proxy, mod, "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// The proxy protocol (go help goproxy): list, .info, .mod and .zip,
	// whose files are under "MODULE@VERSION/".
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(mod + "@" + ver + "/" + filepath.ToSlash(f))
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"list":        []byte(ver + "\n"),
		ver + ".info": []byte(`{"Version":"` + ver + `","Time":"2026-01-02T03:04:05Z"}`),
		ver + ".mod":  gomod,
		ver + ".zip":  zbuf.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goenv := strings.Fields(goCmd(t, root, nil, "env", "GOMODCACHE", "GOPROXY"))
	gobin := t.TempDir()
	env := []string{
		// The module from the proxy on disk, the dependencies from the
		// local module cache (or, failing that, from the user's proxy).
		"GOPROXY=" + fileURL(proxy) + "," + fileURL(filepath.Join(goenv[0], "cache", "download")) + "," + goenv[1],
		"GOMODCACHE=" + t.TempDir(), // the fake v1.2.3 stays out of the user's cache
		// The checksum database is not reached: the fake module is in no
		// database, and the dependencies come from a cache they were
		// verified into.
		"GOSUMDB=off", "GOFLAGS=-modcacherw -trimpath", "GOBIN=" + gobin,
	}
	goCmd(t, t.TempDir(), env, "install", mod+"/cmd/urlls@"+ver)
	got := runBinary(t, filepath.Join(gobin, "urlls"), "--version")
	if want := fmt.Sprintf("urlls %s %s %s/%s\n", ver, runtime.Version(), runtime.GOOS, runtime.GOARCH); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// fileURL is a file:// URL of an absolute path, as GOPROXY takes it.
func fileURL(path string) string {
	return "file://" + filepath.ToSlash(path)
}
