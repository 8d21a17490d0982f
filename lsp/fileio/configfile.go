package fileio

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"os"
	"path/filepath"

	"github.com/urlls/urlls/analysis/config"
)

// Where urlls looks for .urlls.json, and which ones it reads.
//
// A configuration file can silence every check ({"ignore": ["*"]}), so it
// is read only from where the user's project is and only when the user
// owns it, as git reads a repository's configuration only when the user
// owns the repository (CVE-2022-24765):
//
//   - The lookup goes from a file's directory upward and stops at the
//     repository's root, the nearest directory holding .git (its
//     .urlls.json is read, none above it). Outside a repository it stops
//     where the caller says: at the workspace folder of the language
//     server, at the directory named on the command line of urlls check
//     (or the directory of the file named). A .urlls.json in a shared
//     directory above, such as /tmp, is not looked at.
//   - A .urlls.json owned by another user than the current one and root is
//     ignored with a warning, and the lookup goes on above it.
//   - Only a regular file (or a symbolic link to one) of at most
//     ConfigMaxSize bytes is read. Another kind of file is ignored with a
//     warning: a FIFO would block the reader, a device never end. A
//     larger file is an error.

// ConfigMaxSize is the size of the largest configuration file read: no
// .urlls.json needs more than a few KiB.
const ConfigMaxSize = 1 << 20

// getuid is os.Getuid; tests replace it to play another user.
var getuid = os.Getuid

// ReadConfig reads the configuration file at name, if it is one that urlls
// trusts. found is false when there is none, or when there is one that is
// not trusted: then warning says why it is ignored. err is an error reading
// or parsing a trusted file (a *config.Error for a bad one), or loading the
// grammar files it names (LoadSchemes: then cfg holds the rest of the file,
// and the schemes whose grammars did load).
func ReadConfig(name string) (cfg config.Config, found bool, warning string, err error) {
	return readConfig(name, nil)
}

// readConfig is ReadConfig; it writes the bytes it parses, the file's and
// its grammars', to h when h is not nil (FindConfigDigest).
func readConfig(name string, h hash.Hash) (cfg config.Config, found bool, warning string, err error) {
	f, info, err := OpenRegular(name)
	var nr *NotRegularError
	switch {
	case err == nil:
	case IsNotExist(err):
		return config.Config{}, false, "", nil
	case errors.As(err, &nr):
		return config.Config{}, false, fmt.Sprintf("%s: ignored: not a regular file (%s)", name, Kind(nr.Mode)), nil
	default:
		return config.Config{}, false, "", err
	}
	defer f.Close()
	if uid, ok := Owner(info); ok && uid != getuid() && uid != 0 {
		return config.Config{}, false, fmt.Sprintf("%s: ignored: owned by another user (uid %d); urlls reads only the configuration files of the current user or root (name it with --config to use it anyway)", name, uid), nil
	}
	if info.Size() > ConfigMaxSize {
		return config.Config{}, false, "", &TooLargeError{Path: name, Limit: ConfigMaxSize}
	}
	data, err := ReadLimited(f, name, ConfigMaxSize)
	if err != nil {
		return config.Config{}, false, "", err
	}
	if h != nil {
		digestPart(h, name, data)
	}
	cfg, err = config.Parse(name, data)
	if err == nil {
		err = loadSchemes(&cfg, name, h)
	}
	return cfg, true, "", err
}

// digestPart writes a file's name and bytes to h, each after its length, so
// that no two sequences of files write the same bytes.
func digestPart(h hash.Hash, name string, data []byte) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(name)))
	h.Write(n[:])
	h.Write([]byte(name))
	binary.LittleEndian.PutUint64(n[:], uint64(len(data)))
	h.Write(n[:])
	h.Write(data)
}

// FindConfigDigest returns the configuration in force in dir (absolute and
// clean): that of the nearest .urlls.json that ReadConfig reads, at dir or
// above, looking no higher than stop (dir or a directory above it; any
// other stop means dir only). file is the file read, "" for none; warnings
// are about the files it ignored on the way; digest is that of what it
// read: the name and the bytes of the configuration file and of each
// grammar file it loaded, the very bytes it parsed. A caller that reads the
// configuration again tells by the digest whether it changed, with no
// window between reading a file and looking at it (a language server,
// which cannot watch files).
func FindConfigDigest(dir, stop string) (cfg config.Config, file string, warnings []string, digest [sha256.Size]byte, err error) {
	h := sha256.New()
	cfg, file, warnings, err = findConfig(dir, stop, h)
	h.Sum(digest[:0])
	return cfg, file, warnings, digest, err
}

// findConfig is FindConfigDigest, writing what it reads to h.
func findConfig(dir, stop string, h hash.Hash) (cfg config.Config, file string, warnings []string, err error) {
	for {
		name := filepath.Join(dir, config.FileName)
		c, found, warning, err := readConfig(name, h)
		if warning != "" {
			warnings = append(warnings, warning)
		}
		if err != nil || found {
			return c, name, warnings, err
		}
		parent := filepath.Dir(dir)
		if dir == stop || !Within(dir, stop) || parent == dir {
			return config.Config{}, "", warnings, nil
		}
		dir = parent
	}
}

// ConfigStop returns the directory where the lookup of a configuration for
// a file in dir (absolute and clean) stops: the repository's root when dir
// is in a repository, else the first of dirs (absolute and clean) that
// holds dir, else dir itself.
func ConfigStop(dir string, dirs ...string) string {
	if root := RepoRoot(dir); root != "" {
		return root
	}
	for _, d := range dirs {
		if d != "" && Within(dir, d) {
			return d
		}
	}
	return dir
}
