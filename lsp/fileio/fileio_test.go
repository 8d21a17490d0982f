package fileio

import (
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// withDeadline runs f and fails the test if it has not returned in 10 s:
// reading a FIFO or a device must never block.
func withDeadline(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("blocked")
	}
}

// specialFiles makes a FIFO, a socket and a directory in dir and returns
// them by kind, with /dev/null and /dev/zero.
func specialFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{
		"directory":        dir,
		"character device": "/dev/zero",
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	files["named pipe"] = fifo
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Logf("no unix socket: %v", err)
	} else {
		t.Cleanup(func() { l.Close() })
		files["socket"] = sock
	}
	return files
}

func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	for kind, name := range specialFiles(t, dir) {
		t.Run(kind, func(t *testing.T) {
			withDeadline(t, func() {
				_, _, err := ReadRegular(name, 1<<20)
				var nr *NotRegularError
				if !errors.As(err, &nr) || Kind(nr.Mode) != kind {
					t.Errorf("error %v, want not a regular file (%s)", err, kind)
				}
				if err != nil && !strings.HasSuffix(err.Error(), ": not a regular file ("+kind+")") {
					t.Errorf("message %q", err)
				}
			})
		})
	}
	// A regular file, and a link to one, up to the limit.
	file := filepath.Join(dir, "f")
	os.WriteFile(file, []byte("12345"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(file, link)
	for _, name := range []string{file, link} {
		if data, info, err := ReadRegular(name, 5); err != nil || string(data) != "12345" || info.Size() != 5 {
			t.Errorf("ReadRegular(%s, 5) = %q, %v", name, data, err)
		}
	}
	_, _, err := ReadRegular(file, 4)
	var tl *TooLargeError
	if !errors.As(err, &tl) || err.Error() != file+": larger than 4 bytes" {
		t.Errorf("over the limit: %v", err)
	}
	if _, _, err := ReadRegular(filepath.Join(dir, "missing"), 4); !IsNotExist(err) {
		t.Errorf("missing: %v", err)
	}
	if _, _, err := ReadRegular(filepath.Join(file, "below"), 4); !IsNotExist(err) {
		t.Errorf("below a file (ENOTDIR): %v", err)
	}
}

// endless is a reader that never ends.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	e.n += int64(len(p))
	return len(p), nil
}

func TestReadLimited(t *testing.T) {
	r := &endless{}
	_, err := ReadLimited(r, "<stdin>", 1<<20)
	var tl *TooLargeError
	if !errors.As(err, &tl) || err.Error() != "<stdin>: larger than 1 MiB" {
		t.Errorf("error %v", err)
	}
	if r.n > 2<<20 {
		t.Errorf("read %d bytes of an endless input for a limit of 1 MiB", r.n)
	}
	if data, err := ReadLimited(strings.NewReader("abc"), "x", 3); err != nil || string(data) != "abc" {
		t.Errorf("at the limit: %q, %v", data, err)
	}
	var _ io.Reader = r
}

func TestParseSize(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int64
		err  bool
	}{
		{"4096", 4096, false},
		{"16K", 16 << 10, false},
		{"16k", 16 << 10, false},
		{"16KiB", 16 << 10, false},
		{"64M", 64 << 20, false},
		{"64MB", 64 << 20, false},
		{"64 MiB", 64 << 20, false},
		{"1G", 1 << 30, false},
		{"100B", 100, false},
		{"0", 0, true},
		{"", 0, true},
		{"M", 0, true},
		{"-1", 0, true},
		{"1.5M", 0, true},
		{"12X", 0, true},
		{"99999999999999999999", 0, true},
		{"9999999999G", 0, true},
	} {
		got, err := ParseSize(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParseSize(%q) = %d, %v", tt.in, got, err)
		}
	}
	for n, want := range map[int64]string{1: "1 byte", 1000: "1000 bytes", 1 << 10: "1 KiB", 64 << 20: "64 MiB", 1 << 30: "1 GiB", 1536: "1536 bytes"} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestRepoRootAndWithin(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	os.MkdirAll(filepath.Join(repo, "a", "b"), 0o755)
	if got := RepoRoot(filepath.Join(repo, "a", "b")); got != repo {
		t.Errorf("RepoRoot = %q, want %q", got, repo)
	}
	if got := RepoRoot(dir); got != "" && !Within(dir, got) {
		t.Errorf("RepoRoot(%s) = %q", dir, got)
	}
	for _, tt := range []struct {
		path, dir string
		want      bool
	}{
		{"/a/b", "/a", true},
		{"/a", "/a", true},
		{"/ab", "/a", false},
		{"/a/b", "/", true},
		{"/a", "/a/b", false},
	} {
		if got := Within(tt.path, tt.dir); got != tt.want {
			t.Errorf("Within(%q, %q) = %v", tt.path, tt.dir, got)
		}
	}
}

// TestOpenFound: a file a walk found regular is read whole, and its
// identity is its lstat's; one replaced since by a FIFO, a socket, a
// directory or a device is refused as what it is now, without blocking.
func TestOpenFound(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "doc.md")
	if err := os.WriteFile(doc, []byte("see http://example.org/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	regular, err := os.Lstat(doc)
	if err != nil {
		t.Fatal(err)
	}
	f, opened, err := OpenFound(doc)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(f)
	if err != nil || string(data) != "see http://example.org/\n" || opened.Size != int64(len(data)) {
		t.Errorf("read %q (size %d), %v", data, opened.Size, err)
	}
	// The identity is the lstat's (where the system tells it).
	if id, ok := FileID(regular); ok {
		if links, _ := Links(regular); opened.ID != id || opened.Links != links {
			t.Errorf("opened %+v, want the ID %+v and %d links of the lstat", opened, id, links)
		}
	}
	if err := f.Close(); err != nil {
		t.Error(err)
	}
	for kind, name := range specialFiles(t, t.TempDir()) {
		t.Run(kind, func(t *testing.T) {
			withDeadline(t, func() {
				f, _, err := OpenFound(name)
				var nr *NotRegularError
				if kind == "socket" && err != nil && !errors.As(err, &nr) {
					return // a socket does not open: refused all the same
				}
				if !errors.As(err, &nr) || Kind(nr.Mode) != kind {
					if f != nil {
						f.Close()
					}
					t.Errorf("err = %v, want a NotRegularError for a %s", err, kind)
				}
			})
		})
	}
}
