package lsp

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/urlls/urlls/analysis/config"
	"github.com/urlls/urlls/lsp/fileio"
)

// settings are what the client told the server: its capabilities and its
// configuration. Guarded by Server.mu.
type settings struct {
	markdownHover     bool // hover contents may be Markdown
	codeDescription   bool // publishDiagnostics.codeDescriptionSupport
	tagUnnecessary    bool // publishDiagnostics.tagSupport holds Unnecessary
	configurationPull bool // workspace/configuration
	versionSupport    bool // publishDiagnostics.versionSupport
	folders           []string
	initOptions       config.Config // from initializationOptions
	workspace         config.Config // from workspace/configuration or didChangeConfiguration
}

func (st *settings) capabilities(p *protocol.InitializeParams) {
	td := p.Capabilities.TextDocument
	if td != nil {
		if td.Hover != nil {
			for _, k := range td.Hover.ContentFormat {
				if k == protocol.Markdown {
					st.markdownHover = true
				}
			}
		}
		if pd := td.PublishDiagnostics; pd != nil {
			st.codeDescription = pd.CodeDescriptionSupport
			st.versionSupport = pd.VersionSupport
			if pd.TagSupport != nil {
				for _, t := range pd.TagSupport.ValueSet {
					if t == protocol.DiagnosticTagUnnecessary {
						st.tagUnnecessary = true
					}
				}
			}
		}
	}
	if w := p.Capabilities.Workspace; w != nil {
		st.configurationPull = w.Configuration
	}
}

// workspaceFolders returns the directories of the workspace: outside a
// repository, the lookup of .urlls.json stops at the folder of a document.
func workspaceFolders(p *protocol.InitializeParams) []string {
	var dirs []string
	for _, f := range p.WorkspaceFolders {
		if d, ok := filePath(protocol.DocumentURI(f.URI)); ok {
			dirs = append(dirs, filepath.Clean(d))
		}
	}
	if len(dirs) == 0 && p.RootURI != "" {
		if d, ok := filePath(protocol.DocumentURI(p.RootURI)); ok {
			dirs = append(dirs, filepath.Clean(d))
		}
	}
	return dirs
}

// filePath returns the file system path of a file: URI; other schemes
// (untitled:, …) have none. uri.URI.Filename panics on them, so check first.
func filePath(u protocol.DocumentURI) (string, bool) {
	if !strings.HasPrefix(string(u), "file:") {
		return "", false
	}
	var path string
	ok := func() (ok bool) {
		defer func() {
			if recover() != nil {
				ok = false
			}
		}()
		path = uri.URI(u).Filename()
		return path != ""
	}()
	return path, ok
}

// setClient replaces the client's configuration from initializationOptions
// or workspace/configuration. Keys the client keeps for itself (trace,
// server) are not the server's business and are dropped.
func (st *settings) setClient(source string, v any) error {
	if m, ok := v.(map[string]any); ok {
		clean := map[string]any{}
		for k, val := range m {
			switch k {
			case "trace", "server", "enable", "filetypes":
			default:
				clean[k] = val
			}
		}
		v = clean
	}
	c, err := config.ParseValue(source, v)
	if err != nil {
		return err
	}
	if source == "initializationOptions" {
		st.initOptions = c
	} else {
		st.workspace = c
	}
	return nil
}

// configFor returns the configuration of a document: the nearest
// .urlls.json upward from its directory that urlls trusts (as urlls check
// reads it: up to the repository's root, else up to the workspace folder,
// owned by the user; lsp/fileio), overridden by initializationOptions,
// overridden by workspace/configuration. A broken .urlls.json is reported
// through the error and otherwise ignored, and so, once, is a file ignored
// as untrusted.
//
// changed says that a configuration file it read again (after
// configFresh) is not the one read before (configFiles.find).
func (st *settings) configFor(u protocol.DocumentURI, files *configFiles) (config.Config, bool, error) {
	var file config.Config
	var changed bool
	var ferr error
	if path, ok := filePath(u); ok {
		dir := filepath.Dir(path)
		// The stop (the repository's root, found by looking for .git in
		// every directory upward) only when the cache has no answer: this
		// runs at every keystroke.
		file, changed, ferr = files.find(dir+"\x00"+strings.Join(st.folders, "\x00"), dir, func() string { return fileio.ConfigStop(dir, st.folders...) })
	} else if len(st.folders) > 0 {
		folder := st.folders[0]
		file, changed, ferr = files.find("\x00"+folder, folder, func() string { return folder })
	}
	return file.Merge(st.initOptions).Merge(st.workspace), changed, ferr
}

// configFiles remembers the configuration files read for each directory for
// a moment, so that typing does not read them at every keystroke; a
// configuration change or a saved .urlls.json or grammar file (.abnf)
// forgets them at once.
type configFiles struct {
	mu      sync.Mutex
	entries map[string]configEntry
	warned  map[string]bool // the warnings given, each given once
}

type configEntry struct {
	cfg    config.Config
	err    error
	read   time.Time
	digest [sha256.Size]byte // of the bytes read: the .urlls.json and its grammars (fileio.FindConfigDigest)
}

// configFresh is how long a read configuration file is trusted.
const configFresh = 2 * time.Second

// find returns the configuration in force in dir, looking no higher than
// stop(), remembered under key (which must tell apart every dir and stop
// asked for). changed says that it read the files again (after
// configFresh) and they are not those read before (another editor, a git
// checkout): by their digest, since a file copied with its time (cp -p,
// an archive unpacked) or rewritten within the same second at the same
// size looks unchanged to a stat.
func (c *configFiles) find(key, dir string, stop func() string) (cfg config.Config, changed bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	old, had := c.entries[key]
	if had && time.Since(old.read) < configFresh {
		return old.cfg, false, old.err
	}
	cfg, _, warnings, digest, err := fileio.FindConfigDigest(dir, stop())
	if c.entries == nil {
		c.entries = map[string]configEntry{}
	}
	changed = had && digest != old.digest
	c.entries[key] = configEntry{cfg: cfg, err: err, read: time.Now(), digest: digest}
	if err == nil {
		var fresh []string
		for _, w := range warnings {
			if !c.warned[w] {
				if c.warned == nil {
					c.warned = map[string]bool{}
				}
				c.warned[w] = true
				fresh = append(fresh, w)
			}
		}
		if len(fresh) > 0 {
			return cfg, changed, configWarning(strings.Join(fresh, "; "))
		}
	}
	return cfg, changed, err
}

// configWarning is a configuration file ignored, not a broken one: the
// client shows it as a warning.
type configWarning string

func (w configWarning) Error() string { return string(w) }

func (c *configFiles) forget() {
	c.mu.Lock()
	c.entries = nil
	c.mu.Unlock()
}

// DidChangeConfiguration takes new settings, from the notification or by
// asking the client, and re-publishes the diagnostics of every open document.
func (s *Server) DidChangeConfiguration(ctx context.Context, p *protocol.DidChangeConfigurationParams) error {
	s.mu.Lock()
	pull := s.settings.configurationPull
	if !pull && p.Settings != nil {
		v := p.Settings
		if m, ok := v.(map[string]any); ok {
			if inner, ok := m["urlls"]; ok {
				v = inner
			}
		}
		if err := s.settings.setClient("workspace/didChangeConfiguration", v); err != nil {
			s.showMessageLater(protocol.MessageTypeError, "urlls: "+err.Error())
		}
	}
	s.mu.Unlock()
	if pull {
		go s.pullConfiguration(context.Background())
		return nil
	}
	s.republishAll()
	return nil
}

// pullConfiguration asks the client for the "urlls" section and re-publishes.
func (s *Server) pullConfiguration(ctx context.Context) {
	s.mu.Lock()
	pull := s.settings.configurationPull
	s.mu.Unlock()
	if !pull {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	res, err := s.client.Configuration(ctx, &protocol.ConfigurationParams{Items: []protocol.ConfigurationItem{{Section: "urlls"}}})
	if err != nil {
		s.log.Info("workspace/configuration", zap.Error(err))
		return
	}
	if len(res) > 0 {
		// Round-trip through JSON: the client's value arrives as whatever the
		// decoder made of it. null (LSP: the client has no such setting)
		// clears the settings it gave before.
		var v any
		if b, err := json.Marshal(res[0]); err == nil && json.Unmarshal(b, &v) == nil {
			s.mu.Lock()
			err = s.settings.setClient("workspace/configuration", v)
			s.mu.Unlock()
			if err != nil {
				s.showMessageLater(protocol.MessageTypeError, "urlls: "+err.Error())
			}
		}
	}
	s.republishAll()
}
