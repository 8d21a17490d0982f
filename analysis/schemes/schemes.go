// Package schemes knows which URI scheme names are in use: the IANA "Uniform
// Resource Identifier (URI) Schemes" registry (RFC 7595; permanent,
// provisional and historical entries), embedded as data (iana.txt, whose
// header names the copy it was taken from and how old it is; see
// RegistryDate), and a short list of schemes in wide use in technical writing
// that are not registered (unregistered.txt, each with where it is used). It
// also recognises the near-misses of the common schemes that are typos
// ("htps", "hhttps", "mailt").
//
// The package is pure: the data is embedded, nothing is fetched.
package schemes

import (
	"bufio"
	_ "embed"
	"strings"
	"sync"
)

// RegistryDate is when the embedded copy of the IANA registry was taken, as
// precisely as is known. The copy in iana.txt, a conversion of the registry's
// XML found in a public repository, carries no date, so only the year is
// given, and it is inferred: the copy is newer than every dated copy found
// (the list of mvdan.cc/xurls/v2 v2.6.0, released 2025-01-02, is a strict
// subset of it) and sits among files of 2026 in its repository.
const RegistryDate = "2026"

//go:embed iana.txt
var ianaData string

//go:embed unregistered.txt
var unregisteredData string

var (
	loadOnce     sync.Once
	registered   map[string]bool
	unregistered map[string]bool
)

// parseList reads one scheme name per line, the first field of the line;
// blank lines and lines starting with "#" are comments.
func parseList(data string) map[string]bool {
	m := make(map[string]bool)
	sc := bufio.NewScanner(strings.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		name, _, _ := strings.Cut(line, " ")
		m[strings.ToLower(name)] = true
	}
	return m
}

func load() {
	loadOnce.Do(func() {
		registered = parseList(ianaData)
		unregistered = parseList(unregisteredData)
	})
}

// Registered reports whether name, in any case, is in the IANA registry.
func Registered(name string) bool {
	load()
	return registered[strings.ToLower(name)]
}

// InUse reports whether name, in any case, is a scheme in use: registered
// with IANA or in the list of widely used unregistered schemes.
func InUse(name string) bool {
	load()
	name = strings.ToLower(name)
	return registered[name] || unregistered[name]
}
