#!/usr/bin/env python3
"""Checks the snippets of editors/README.md that the Emacs test does not.

Run from anywhere (Debian's python3 3.11, for tomllib and PyYAML):
    python3 editors/nvim/test/snippets_test.py

Each snippet is read from editors/README.md, from the code block after its
marker line "<!-- snippet: NAME -->", so what is checked is what the README
shows. URLLS_BIN names the urlls binary; without it the script builds one.

- helix, sublime, zed-extension, zed-settings: parsed (TOML, JSON), their
  shape checked, and the urlls settings in them validated by
  `urlls check --config` (the same parser as the server's).
- vim-ale: end to end: Vim with Debian's ALE, the snippet as
  ale_linters/markdown/urlls.vim, lints a Markdown file.
- vim-lsp: sourced by Vim (`vim -Nu NONE -Es`) with a stand-in for vim-lsp's
  lsp#register_server that records what it is given; vim-lsp is not here.
- efm: end to end: Neovim (0.7.2, headless) runs efm-langserver with the
  snippet as its config.yaml on a Markdown, an HTML and a text file; every
  diagnostic must be the one `urlls check` prints, at its line and column,
  with its severity.
- pre-commit: end to end: `pre-commit run --all-files` in a scratch git
  repository with the snippet as .pre-commit-config.yaml.
- pre-commit-hook (README.md): end to end: the repository's own
  .pre-commit-hooks.yaml, from a clone of this work tree, with the README's
  configuration: `pre-commit autoupdate`, `pre-commit install`, and a
  `git commit` refused, then accepted once the files are fixed; pre-commit
  builds urlls with `go install` (language golang).
- github-workflow (README.md) and action.yml: the action's steps run as a
  GitHub runner runs them, outside GitHub, with the README workflow's
  inputs on a scratch checkout: annotations, exit code, outputs, job
  summary, SARIF; and the `version` input through a module proxy on disk.
- git-hook: end to end: `git commit` in a scratch repository with the
  snippet as .git/hooks/pre-commit.
- parallel-json, parallel-sarif (README.md, "Checking a corpus larger than
  one machine"): end to end on this machine, GNU parallel's ssh login ":"
  standing for the hosts: the arrays jq joins are what one `urlls check
  --format json` prints, and the log the SARIF Multitool (pinned in
  .ci/sarif, for the snippet's npx) merges holds its results.

It lives beside the Neovim tests because Neovim drives the efm test. The
tools it needs (vim, vim-ale, nvim, efm-langserver, pre-commit, git, go) must
be installed: a missing one is a failure, not a skip. Arguments, if any, run
only the groups whose names contain one ("action", "pre-commit"). Prints one
line per check and last "snippets: N passed, M failed"; exits 1 if any
failed.
"""

import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
import zipfile

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
README = os.path.join(ROOT, "editors", "README.md")
MAIN_README = os.path.join(ROOT, "README.md")
MODULE = "github.com/urlls/urlls"
# Building urlls (pre-commit's go install, the action's go build) may take
# minutes on a cold build cache.
BUILD_TIMEOUT = 900
TIMEOUT = 60

passed = 0
failed = 0


def out(msg):
    print(msg, flush=True)


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        out("ok   " + name)
    else:
        failed += 1
        out("FAIL: " + name + (": " + str(detail) if detail != "" else ""))
    return cond


def section(name, fn):
    """Runs one group of checks; an exception fails the group, not the run."""
    global failed
    out("== " + name)
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - report and go on to the next group
        failed += 1
        out(f"FAIL: {name}: {type(e).__name__}: {e}")


def snippet(name, readme=None):
    readme = readme or README
    text = open(readme, encoding="utf-8").read()
    m = re.search(r"^<!-- snippet: " + re.escape(name) + r" -->\n```[a-z]*\n(.*?)^```$", text, re.S | re.M)
    if not m:
        raise AssertionError(f"no code block after <!-- snippet: {name} --> in {readme}")
    return m.group(1)


def run(cmd, **kw):
    kw.setdefault("capture_output", True)
    kw.setdefault("text", True)
    kw.setdefault("timeout", TIMEOUT)
    return subprocess.run(cmd, **kw)


def need(tool):
    path = shutil.which(tool, path=ENV["PATH"])
    if not path:
        raise AssertionError(f"{tool} is not installed (CI installs it; see .ci/run)")
    return path


def validate_settings(settings, where):
    """urlls check --config: exit 0 on an empty file, or the config error."""
    d = tempfile.mkdtemp(dir=TMP)
    cfg = os.path.join(d, "settings.json")
    with open(cfg, "w") as f:
        json.dump(settings, f)
    empty = os.path.join(d, "empty.txt")
    open(empty, "w").close()
    r = run([BIN, "check", "--quiet", "--config", cfg, empty])
    return check(f"{where}: urlls accepts the settings {json.dumps(settings)}",
                 r.returncode == 0 and r.stdout == "" and r.stderr == "", (r.returncode, r.stderr.strip()))


def t_validator():
    # The validator itself: it must reject what the server rejects.
    d = tempfile.mkdtemp(dir=TMP)
    cfg = os.path.join(d, "bad.json")
    with open(cfg, "w") as f:
        json.dump({"urlls": {"strict": True}}, f)
    empty = os.path.join(d, "empty.txt")
    open(empty, "w").close()
    r = run([BIN, "check", "--config", cfg, empty])
    check("urlls check --config rejects an unknown key (the validator works)",
          r.returncode == 2 and 'unknown setting "urlls"' in r.stderr, (r.returncode, r.stderr.strip()))


def t_helix():
    d = tomllib.loads(snippet("helix"))
    check("helix: parses as TOML", True)
    ls = d["language-server"]["urlls"]
    check("helix: [language-server.urlls] runs urlls", ls.get("command") == "urlls", ls)
    langs = {l["name"]: l for l in d["language"]}
    check("helix: markdown and html use urlls",
          all("urlls" in langs[n]["language-servers"] for n in ("markdown", "html")), langs)
    validate_settings(ls["config"], "helix config")


def t_vim_lsp():
    vim = need("vim")
    d = tempfile.mkdtemp(dir=TMP)
    snip = os.path.join(d, "snippet.vim")
    with open(snip, "w") as f:
        f.write(snippet("vim-lsp"))
    result = os.path.join(d, "result.json")
    # The stand-in for vim-lsp: its autoload/lsp.vim, on 'runtimepath'.
    os.makedirs(os.path.join(d, "stub", "autoload"))
    with open(os.path.join(d, "stub", "autoload", "lsp.vim"), "w") as f:
        f.write("function! lsp#register_server(info) abort\n  call add(g:registered, a:info)\nendfunction\n")
    script = os.path.join(d, "test.vim")
    with open(script, "w") as f:
        f.write(f"""
let g:registered = []
set runtimepath^={os.path.join(d, "stub")}
try
  source {snip}
  doautocmd User lsp_setup
  let s:r = {{'n': len(g:registered)}}
  if len(g:registered) > 0
    let s:i = g:registered[0]
    let s:r.name = s:i.name
    let s:r.cmd = s:i.cmd({{}})
    let s:r.allowlist = s:i.allowlist
    let s:r.workspace_config = s:i.workspace_config
  endif
catch
  let s:r = {{'error': v:exception . ' at ' . v:throwpoint}}
endtry
call writefile([json_encode(s:r)], '{result}')
qall!
""")
    r = run([vim, "-Nu", "NONE", "-i", "NONE", "-Es", "-S", script], env=ENV, stdin=subprocess.DEVNULL)
    if not check("vim-lsp: Vim sources the snippet", os.path.exists(result), (r.returncode, r.stdout, r.stderr)):
        return
    res = json.load(open(result))
    check("vim-lsp: no error", "error" not in res, res.get("error"))
    check("vim-lsp: User lsp_setup registers one server", res.get("n") == 1, res)
    check("vim-lsp: named urlls, its cmd function returns ['urlls']",
          res.get("name") == "urlls" and res.get("cmd") == ["urlls"], res)
    check("vim-lsp: for markdown, html and text", res.get("allowlist") == ["markdown", "html", "text"], res)
    validate_settings(res["workspace_config"]["urlls"], "vim-lsp workspace_config.urlls")
    # Without urlls on PATH it registers nothing.
    os.remove(result)
    env = dict(ENV, PATH="/usr/bin:/bin")
    run([vim, "-Nu", "NONE", "-i", "NONE", "-Es", "-S", script], env=env, stdin=subprocess.DEVNULL)
    res = json.load(open(result))
    check("vim-lsp: without urlls on PATH it registers nothing", res.get("n") == 0, res)


ALE_DIR = "/usr/share/vim-ale"  # Debian's vim-ale


def run_ale(snip_text, doc_text, d):
    """Vim with ALE and the snippet as ale_linters/markdown/urlls.vim: the loclist of a Markdown file."""
    vim = need("vim")
    if not os.path.exists(os.path.join(ALE_DIR, "autoload", "ale.vim")):
        raise AssertionError(f"ALE is not installed in {ALE_DIR} (Debian's vim-ale; CI installs it)")
    os.makedirs(os.path.join(d, "rtp", "ale_linters", "markdown"))
    with open(os.path.join(d, "rtp", "ale_linters", "markdown", "urlls.vim"), "w") as f:
        f.write(snip_text)
    doc = os.path.join(d, "doc.md")
    with open(doc, "w") as f:
        f.write(doc_text)
    result = os.path.join(d, "result.json")
    script = os.path.join(d, "test.vim")
    with open(script, "w") as f:
        f.write(f"""
set nocompatible
set runtimepath^={ALE_DIR}
set runtimepath^={os.path.join(d, "rtp")}
filetype plugin on
runtime plugin/ale.vim
edit {doc}
ALELint
let s:n = 0
while s:n < {TIMEOUT * 10} && empty(ale#engine#GetLoclist(bufnr('')))
  sleep 100m
  let s:n += 1
endwhile
sleep 300m
call writefile([json_encode({{'filetype': &filetype, 'loclist': ale#engine#GetLoclist(bufnr(''))}})], '{result}')
qall!
""")
    r = run([vim, "-Nu", "NONE", "-i", "NONE", "-Es", "-S", script], env=ENV, stdin=subprocess.DEVNULL,
            timeout=TIMEOUT * 2)
    if not os.path.exists(result):
        raise AssertionError(f"Vim wrote no result: {r.returncode} {r.stdout} {r.stderr}")
    return json.load(open(result))


def t_vim_ale():
    # Line 1: "See http://example.org:8080/a" is 29 bytes: "%zz" at columns 30-32
    # (1-based, as ALE has them); "%41" is a redundant escape (a hint).
    text = "See http://example.org:8080/a%zz here and http://example.org/%41BC.\n"
    snip = snippet("vim-ale")
    res = run_ale(snip, text, tempfile.mkdtemp(dir=TMP))
    for e in res["loclist"]:
        out(f"  loclist: {e.get('type')} {e.get('lnum')}:{e.get('col')}-{e.get('end_col')} "
            f"{e.get('linter_name')} [{e.get('code')}] {e.get('text')}")
    check("vim-ale: the buffer is markdown", res["filetype"] == "markdown", res["filetype"])
    got = [(e.get("linter_name"), e.get("code"), e.get("type"), e.get("lnum"), e.get("col"), e.get("end_col"))
           for e in res["loclist"]]
    check("vim-ale: the bad-escape error at 1:30-32, and no redundant-escape (the snippet's settings)",
          got == [("urlls", "bad-escape", "E", 1, 30, 32)], got)
    # The same without the settings: the hint is there, so the settings did it.
    bare = re.sub(r"^.*'initialization_options'.*\n", "", snip, flags=re.M)
    check("vim-ale: (control) the snippet less its settings line", bare != snip and "initialization_options" not in bare)
    res = run_ale(bare, text, tempfile.mkdtemp(dir=TMP))
    codes = sorted(e.get("code") for e in res["loclist"])
    check("vim-ale: (control) without the settings the redundant-escape hint shows",
          codes == ["bad-escape", "redundant-escape"], codes)


def t_sublime():
    d = json.loads(snippet("sublime"))
    check("sublime: parses as JSON", True)
    c = d["clients"]["urlls"]
    check("sublime: the client runs urlls, enabled, for Markdown, HTML and text",
          c["command"] == ["urlls"] and c["enabled"] is True
          and all(s in c["selector"] for s in ("text.html.markdown", "text.html.basic", "text.plain")), c)
    validate_settings(c["settings"]["urlls"], "sublime settings.urlls")


def t_zed():
    ext = tomllib.loads(snippet("zed-extension"))
    check("zed: extension.toml parses as TOML", True)
    ls = ext["language_servers"]["urlls"]
    check("zed: extension.toml registers urlls for Markdown, HTML and Plain Text",
          ls["languages"] == ["Markdown", "HTML", "Plain Text"] and ext["schema_version"] == 1, ext)
    s = json.loads(snippet("zed-settings"))
    check("zed: settings.json parses as JSON", True)
    check("zed: lsp.urlls.binary runs serve, Markdown lists urlls",
          s["lsp"]["urlls"]["binary"]["arguments"] == ["serve"]
          and "urlls" in s["languages"]["Markdown"]["language_servers"], s)


EFM_FILES = {
    "doc.md": "# efm\n\nSee http://example.org:8080/a%zz and HTTP://example.org/ and http://example.org/~u here.\n",
    "page.html": '<p><a href="http://example.org/b%zz">b</a> <a href="HTTP://example.org/">c</a></p>\n',
    "notes.txt": "Visit <URL:xyz://irc.example.org/x> and http://example.org/c%zz today, as ftp://u:hunter2@ftp.corp.internal/.\n",
}
EFM_LANG = {"doc.md": "markdown", "page.html": "html", "notes.txt": "plaintext"}
SEVERITY = {"error": 1, "warning": 2, "information": 3, "hint": 4}


def t_efm():
    efm = need("efm-langserver")
    nvim = need("nvim")
    conf = yaml.safe_load(snippet("efm"))
    check("efm: parses as YAML", True)
    for ft in ("markdown", "html", "text"):
        tools = conf["languages"][ft]
        check(f"efm: {ft} runs urlls check", len(tools) == 1 and tools[0]["lint-command"].startswith("urlls check"),
              tools)
    d = tempfile.mkdtemp(dir=TMP)
    cfg = os.path.join(d, "config.yaml")
    with open(cfg, "w") as f:
        f.write(snippet("efm"))
    proj = os.path.join(d, "proj")
    os.makedirs(proj)
    want = {}
    for name, text in EFM_FILES.items():
        with open(os.path.join(proj, name), "w") as f:
            f.write(text)
        # What urlls check says, as the LSP diagnostics efm should make of it.
        r = run([BIN, "check", "--lang", EFM_LANG[name], "-"], input=text)
        diags = []
        for line in r.stdout.splitlines():
            m = re.match(r"^<stdin>:(\d+):(\d+): (\w+): (.*)$", line)
            diags.append((int(m.group(1)) - 1, int(m.group(2)) - 1, SEVERITY[m.group(3)], m.group(4)))
        want[name] = sorted(diags)
    sevs = {s for ds in want.values() for (_, _, s, _) in ds}
    check("efm: the files have errors, warnings, information and hints", sevs == {1, 2, 3, 4}, want)

    result = os.path.join(d, "result.json")
    log = os.path.join(d, "efm.log")
    script = os.path.join(d, "efm_test.lua")
    with open(script, "w") as f:
        f.write(f"""
local got, out = {{}}, {{}}
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(_, r) got[r.uri] = r.diagnostics end
vim.cmd('filetype on')
-- One efm-langserver per file: 0.0.44 now and then skips the lint of a file
-- opened soon after another one (seen here about one run in four).
for _, name in ipairs({{ 'doc.md', 'page.html', 'notes.txt' }}) do
  local id = vim.lsp.start_client({{ name = 'efm', root_dir = {json.dumps(proj)},
    cmd = {{ {json.dumps(efm)}, '-c', {json.dumps(cfg)}, '-logfile', {json.dumps(log)}, '-loglevel', '1' }} }})
  vim.cmd('edit ' .. vim.fn.fnameescape({json.dumps(proj)} .. '/' .. name))
  vim.lsp.buf_attach_client(0, id)
  local uri = vim.uri_from_bufnr(0)
  vim.wait({TIMEOUT * 1000 // 4}, function() return got[uri] ~= nil and #got[uri] > 0 end, 10)
  out[name] = {{ filetype = vim.bo.filetype, diagnostics = got[uri] or {{}} }}
  vim.lsp.stop_client(id)
  vim.wait(2000, function() return vim.lsp.get_client_by_id(id) == nil end, 10)
end
vim.fn.writefile({{ vim.json.encode(out) }}, {json.dumps(result)})
vim.cmd('qall!')
""")
    start = time.monotonic()
    r = run([nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile " + script],
            env=ENV, stdin=subprocess.DEVNULL)
    if not check("efm: Neovim ran efm-langserver", os.path.exists(result), (r.returncode, r.stdout, r.stderr)):
        return
    out(f"  ({time.monotonic() - start:.1f} s)")
    res = json.load(open(result))
    for name in EFM_FILES:
        got = sorted((x["range"]["start"]["line"], x["range"]["start"]["character"], x["severity"], x["message"])
                     for x in res[name]["diagnostics"])
        for g in got:
            out(f"  {name}: {g}")
        check(f"efm: {name} ({res[name]['filetype']}): the diagnostics of urlls check, at their columns, "
              f"with their severities", got == want[name] and len(got) > 0, f"got {got}, want {want[name]}")


def fix_escapes(path):
    """Fixes the bad escapes of the test files: %zz becomes %25zz."""
    with open(path) as f:
        text = f.read()
    if "%zz" not in text:
        raise AssertionError(f"{path} has no %zz to fix")
    with open(path, "w") as f:
        f.write(text.replace("%zz", "%25zz"))


def git_repo():
    d = tempfile.mkdtemp(dir=TMP)
    run(["git", "init", "-q", "-b", "main", d], env=ENV, check=True)
    return d


def git(repo, *args):
    return run(["git", "-C", repo, *args], env=ENV)


def t_pre_commit():
    pc = need("pre-commit")
    conf = yaml.safe_load(snippet("pre-commit"))
    hook = conf["repos"][0]["hooks"][0]
    check("pre-commit: parses as YAML: a local hook running urlls check",
          conf["repos"][0]["repo"] == "local" and hook["entry"] == "urlls check", conf)
    repo = git_repo()
    with open(os.path.join(repo, ".pre-commit-config.yaml"), "w") as f:
        f.write(snippet("pre-commit"))
    r = run([pc, "validate-config", ".pre-commit-config.yaml"], cwd=repo, env=ENV)
    check("pre-commit: validate-config accepts it", r.returncode == 0, r.stdout + r.stderr)
    files = {
        "doc.md": "See http://example.org/a%zz.\n",
        "page.html": '<a href="http://example.org/b%zz">b</a>\n',
        "notes.txt": "http://example.org/c%zz\n",
        "main.c": "/* http://example.org/d%zz is not checked by the hook */\n",
    }
    for name, text in files.items():
        with open(os.path.join(repo, name), "w") as f:
            f.write(text)
    git(repo, "add", "-A")
    r = run([pc, "run", "--all-files"], cwd=repo, env=ENV)
    text = r.stdout + r.stderr
    out("  " + text.strip().replace("\n", "\n  "))
    check("pre-commit: the hook fails on the bad escapes", r.returncode == 1, r.returncode)
    check("pre-commit: it checked the Markdown, HTML and text files and not the C one",
          all(f"{n}:1:" in text for n in ("doc.md", "page.html", "notes.txt")) and "main.c" not in text
          and text.count("[bad-escape]") == 3, text)
    for name in ("doc.md", "page.html", "notes.txt"):
        p = os.path.join(repo, name)
        fix_escapes(p)
    git(repo, "add", "-A")
    r = run([pc, "run", "--all-files"], cwd=repo, env=ENV)
    check("pre-commit: it passes once the files are fixed", r.returncode == 0, r.stdout + r.stderr)


_module_repo = None


def module_repo():
    """This work tree as a git repository of one commit on branch main: what
    pre-commit clones for `repo: https://github.com/urlls/urlls` and what a
    runner downloads for `uses: urlls/urlls@REF`. It is made of the files of
    the work tree (tracked, and new ones git does not ignore), so that what
    is tested is what is here, committed or not. Returns (path, commit,
    files)."""
    global _module_repo
    if _module_repo:
        return _module_repo
    listed = subprocess.run(["git", "-C", ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, check=True).stdout.decode().split("\0")
    d = os.path.join(TMP, "urlls-repo")
    files = []
    for f in listed:
        src = os.path.join(ROOT, f)
        if f and os.path.isfile(src) and not os.path.islink(src):
            os.makedirs(os.path.dirname(os.path.join(d, f)), exist_ok=True)
            shutil.copy2(src, os.path.join(d, f))
            files.append(f)
    run(["git", "init", "-q", "-b", "main", d], env=ENV, check=True)
    git(d, "add", "-A")
    git(d, "commit", "-q", "-m", "urlls work tree")
    _module_repo = (d, git(d, "rev-parse", "HEAD").stdout.strip(), files)
    return _module_repo


def module_proxy(version):
    """A Go module proxy on disk (go help goproxy) that serves the module
    repository as VERSION, and the dependencies from the local module
    cache: `go install github.com/urlls/urlls/cmd/urlls@VERSION` as it is
    done from the real proxy, without the network. Returns the environment
    for the go command."""
    d, _, files = module_repo()
    proxy = tempfile.mkdtemp(dir=TMP)
    vdir = os.path.join(proxy, MODULE, "@v")
    os.makedirs(vdir)
    with zipfile.ZipFile(os.path.join(vdir, version + ".zip"), "w") as z:
        for f in files:
            z.write(os.path.join(d, f), f"{MODULE}@{version}/{f}")
    shutil.copy(os.path.join(d, "go.mod"), os.path.join(vdir, version + ".mod"))
    with open(os.path.join(vdir, version + ".info"), "w") as f:
        json.dump({"Version": version, "Time": "2026-01-02T03:04:05Z"}, f)
    with open(os.path.join(vdir, "list"), "w") as f:
        f.write(version + "\n")
    cache = os.path.join(ENV["GOMODCACHE"], "cache", "download")
    # The dependencies come from the local module cache, or failing that
    # from the user's proxy; the fake version stays out of the real module
    # cache, and no checksum database knows it.
    return {"GOPROXY": f"file://{proxy},file://{cache},{ENV['GOPROXY']}", "GOSUMDB": "off", "GOFLAGS": "-modcacherw",
            "GOMODCACHE": tempfile.mkdtemp(dir=TMP)}


HOOK_FILES = {
    "doc.md": "See http://example.org/a%zz.\n",
    "notes.mdx": "<Note>http://example.org/b%zz</Note>\n",
    "page.html": '<a href="http://example.org/c%zz">c</a>\n',
    "notes.txt": "http://example.org/d%zz\n",
    "README": "Home: http://example.org/e%zz\n",
    "guide.rst": "See `the guide <http://example.org/f%zz>`_.\n",
    "guide.adoc": "See https://example.org/g%zz[the guide].\n",
    "main.c": "/* http://example.org/h%zz is code: not the hook's */\n",
    "hint.md": "HTTP://example.org/ is only a hint.\n",
}


def t_pre_commit_hook():
    pc = need("pre-commit")
    manifest_path = os.path.join(ROOT, ".pre-commit-hooks.yaml")
    manifest = yaml.safe_load(open(manifest_path))
    hook = {h["id"]: h for h in manifest}.get("urlls", {})
    check("pre-commit hook: .pre-commit-hooks.yaml has the hook urlls, language golang, entry urlls check",
          hook.get("language") == "golang" and hook.get("entry") == "urlls check", manifest)
    check("pre-commit hook: for Markdown, MDX, HTML, text, reStructuredText and AsciiDoc files",
          sorted(hook.get("types_or", [])) == ["asciidoc", "html", "markdown", "mdx", "plain-text", "rst"], hook)
    r = run([pc, "validate-manifest", manifest_path], env=ENV)
    check("pre-commit hook: validate-manifest accepts it", r.returncode == 0, r.stdout + r.stderr)

    conf = yaml.safe_load(snippet("pre-commit-hook", MAIN_README))
    check("pre-commit hook: the README's configuration uses the hook urlls of github.com/urlls/urlls",
          conf == {"repos": [{"repo": "https://github.com/urlls/urlls", "rev": "main", "hooks": [{"id": "urlls"}]}]},
          conf)
    # The README's configuration as written, but with this repository (a
    # clone of the work tree) in place of GitHub's, which is not reachable.
    hooks_repo, sha, _ = module_repo()
    repo = git_repo()
    cfg = os.path.join(repo, ".pre-commit-config.yaml")
    with open(cfg, "w") as f:
        f.write(snippet("pre-commit-hook", MAIN_README).replace("https://github.com/urlls/urlls", hooks_repo))
    r = run([pc, "autoupdate"], cwd=repo, env=ENV, timeout=BUILD_TIMEOUT)
    rev = yaml.safe_load(open(cfg))["repos"][0]["rev"]
    check("pre-commit hook: pre-commit autoupdate pins rev to the commit (the README's next step)",
          r.returncode == 0 and rev == sha, (rev, sha, r.stdout + r.stderr))
    r = run([pc, "install"], cwd=repo, env=ENV)
    check("pre-commit hook: pre-commit install", r.returncode == 0, r.stdout + r.stderr)
    for name, text in HOOK_FILES.items():
        with open(os.path.join(repo, name), "w") as f:
            f.write(text)
    git(repo, "add", "-A")
    start = time.monotonic()
    r = run(["git", "-C", repo, "commit", "-q", "-m", "bad"], env=ENV, timeout=BUILD_TIMEOUT)
    text = r.stdout + r.stderr
    out(f"  ({time.monotonic() - start:.1f} s, pre-commit built urlls)")
    out("  " + text.strip().replace("\n", "\n  "))
    checked = ("doc.md", "notes.mdx", "page.html", "notes.txt", "README", "guide.rst", "guide.adoc")
    check("pre-commit hook: git commit is refused: the staged files have bad escapes", r.returncode != 0, r.returncode)
    check("pre-commit hook: it checked the Markdown, MDX, HTML, text, README, reST and AsciiDoc files, not the C one",
          all(f"{n}:1:" in text for n in checked) and "main.c" not in text and text.count("[bad-escape]") == 7
          and "hint.md:1:1: hint:" in text, text)
    check("pre-commit hook: one run, one summary",
          text.count("7 errors, 1 hint in 8 files; 8 URLs in 8 files checked") == 1, text)
    check("pre-commit hook: nothing was committed", git(repo, "rev-parse", "-q", "--verify", "HEAD").returncode != 0)
    # pre-commit built the hook's urlls with go install from its clone: the
    # binary knows the commit it was built from.
    bins = glob.glob(os.path.join(ENV["PRE_COMMIT_HOME"], "repo*", "golangenv-*", "bin", "urlls"))
    version = run([bins[0], "version"]).stdout if bins else ""
    out("  " + version.strip().replace("\n", "\n  "))
    check("pre-commit hook: its urlls says the version and commit it was built from",
          version.startswith("urlls v0.0.0-") and sha[:12] in version.split("\n")[0]
          and f"git commit {sha}" in version, (bins, version))
    for name in checked:
        p = os.path.join(repo, name)
        fix_escapes(p)
    git(repo, "add", "-A")
    r = run(["git", "-C", repo, "commit", "-q", "-m", "fixed"], env=ENV, timeout=BUILD_TIMEOUT)
    text = r.stdout + r.stderr
    check("pre-commit hook: the commit goes through once the files are fixed (the hint passes)",
          r.returncode == 0 and "hint.md:1:1: hint:" not in text, (r.returncode, text))
    check("pre-commit hook: committed", git(repo, "rev-list", "--count", "HEAD").stdout.strip() == "1")


def run_action(workspace, inputs, extra_env=None):
    """Runs the action of action.yml as a GitHub runner would: the steps in
    order, each `run` written to a file and run with `bash --noprofile
    --norc -eo pipefail FILE` in the workspace, with the step's `env`
    (its ${{ inputs.* }} replaced by the inputs or their defaults) and the
    variables a runner sets: GITHUB_ACTION_PATH (the action's checkout, here
    the module repository), GITHUB_WORKSPACE, RUNNER_TEMP, and the files
    GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_PATH and GITHUB_ENV. The
    actions/setup-go step is skipped: it downloads Go, and Go is here.
    Returns the result of the last step run, the action's outputs, the job
    summary and GITHUB_PATH's lines."""
    action_dir = module_repo()[0]
    action = yaml.safe_load(open(os.path.join(action_dir, "action.yml")))
    values = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
    for k, v in inputs.items():
        if k not in values:
            raise AssertionError(f"the action has no input {k}")
        values[k] = str(v)
    runner = tempfile.mkdtemp(dir=TMP)
    files = {k: os.path.join(runner, k.lower()) for k in ("GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY", "GITHUB_PATH", "GITHUB_ENV")}
    for p in files.values():
        open(p, "w").close()
    temp = os.path.join(runner, "temp")
    os.makedirs(temp)

    def expr(text, ctx):
        def sub(m):
            e = m.group(1).strip()
            if e not in ctx:
                raise AssertionError(f"an expression the test does not evaluate: {e}")
            return ctx[e]
        return re.sub(r"\$\{\{(.*?)\}\}", sub, text)

    ctx = {f"inputs.{k}": v for k, v in values.items()}
    ctx["github.action_path"] = action_dir
    step_outputs = {}
    r = None
    for i, step in enumerate(action["runs"]["steps"]):
        if "uses" in step:
            if not (step["uses"].startswith("actions/setup-go@") and step.get("if") == "inputs.setup-go == 'true'"):
                raise AssertionError(f"a step the test does not run: {step}")
            continue
        if step.get("shell") != "bash" or "if" in step:
            raise AssertionError(f"a step the test does not run: {step}")
        env = dict(ENV, **(extra_env or {}), **files, GITHUB_ACTION_PATH=action_dir, GITHUB_WORKSPACE=workspace,
                   RUNNER_TEMP=temp, CI="true", GITHUB_ACTIONS="true")
        for k, v in step.get("env", {}).items():
            env[k] = expr(str(v), ctx)
        script = os.path.join(runner, f"step{i}.sh")
        with open(script, "w") as f:
            f.write(expr(step["run"], ctx))
        open(files["GITHUB_OUTPUT"], "w").close()
        r = run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], cwd=workspace, env=env,
                timeout=BUILD_TIMEOUT)
        outs = {}
        for line in open(files["GITHUB_OUTPUT"]).read().splitlines():
            k, _, v = line.partition("=")
            outs[k] = v
        if "id" in step:
            for k, v in outs.items():
                ctx[f"steps.{step['id']}.outputs.{k}"] = v
        if r.returncode != 0:
            break
    outputs = {}
    for k, v in action.get("outputs", {}).items():
        m = re.fullmatch(r"\$\{\{\s*(steps\.[\w-]+\.outputs\.[\w-]+)\s*\}\}", v["value"])
        if not m:
            raise AssertionError(f"output {k}: {v['value']}")
        outputs[k] = ctx.get(m.group(1), "")
    return r, outputs, open(files["GITHUB_STEP_SUMMARY"]).read(), open(files["GITHUB_PATH"]).read().splitlines()


def t_action():
    action = yaml.safe_load(open(os.path.join(ROOT, "action.yml")))
    check("action: action.yml is a composite action with the inputs paths, args, sarif-file, version, setup-go",
          action["runs"]["using"] == "composite"
          and sorted(action["inputs"]) == ["args", "paths", "sarif-file", "setup-go", "version"], action["inputs"])
    wf = yaml.safe_load(snippet("github-workflow", MAIN_README))
    steps = wf["jobs"]["urlls"]["steps"]
    uses = [s for s in steps if s.get("uses", "").startswith("urlls/urlls@")]
    upload = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
    check("action: the README's workflow checks out, runs urlls/urlls and uploads its SARIF",
          steps[0]["uses"].startswith("actions/checkout@") and len(uses) == 1 and len(upload) == 1
          and upload[0]["with"]["sarif_file"] == uses[0]["with"]["sarif-file"], steps)
    check("action: the upload runs when the check failed too, with security-events: write",
          "failure()" in upload[0].get("if", "") and wf["permissions"].get("security-events") == "write", wf)
    inputs = uses[0]["with"]

    # A checkout with documents in the workflow's paths (docs, README.md)
    # and one outside them.
    ws = git_repo()
    docs = {
        "docs/guide.md": "See http://example.org/a%zz and HTTP://example.org/.\n",
        "docs/page.html": '<a href="http://example.org/b%zz">b</a>\n',
        "docs/notes.txt": "Fine: http://example.org/c\n",
        "README.md": "Home: http://example.org/d%zz\n",
        "other/x.md": "http://example.org/e%zz is not in the paths\n",
    }
    for name, text in docs.items():
        os.makedirs(os.path.dirname(os.path.join(ws, name)), exist_ok=True)
        with open(os.path.join(ws, name), "w") as f:
            f.write(text)
    start = time.monotonic()
    r, outputs, summary, path = run_action(ws, inputs)
    out(f"  ({time.monotonic() - start:.1f} s)")
    out("  " + (r.stdout + r.stderr).strip().replace("\n", "\n  "))
    check("action: fails on the bad escapes (exit 1)", r.returncode == 1, r.returncode)
    annotated = sorted(re.findall(r"^::error file=([^,]+),line=1,col=\d+,endLine=1,endColumn=\d+,title=urlls bad-escape::",
                                  r.stdout, re.M))
    check("action: an error annotation per bad escape in docs and README.md, none for other/",
          annotated == ["README.md", "docs/guide.md", "docs/page.html"], annotated)
    check("action: args --min-severity warning hides the scheme-case hint (no notice)",
          "::notice" not in r.stdout and "scheme-case" not in r.stdout, r.stdout)
    want = "3 errors in 3 files (1 hint below --min-severity not shown); 5 URLs in 4 files checked"
    check("action: the summary is the step's output and in the job summary",
          outputs.get("summary") == want and summary == f"### urlls\n\n{want}\n", (outputs, summary))
    check("action: urlls is on PATH for the later steps (GITHUB_PATH)",
          len(path) == 1 and os.access(os.path.join(path[0], "urlls"), os.X_OK), path)
    sarif_path = os.path.join(ws, inputs["sarif-file"])
    try:
        sarif = json.load(open(sarif_path))
    except (OSError, ValueError) as e:
        sarif = {"error": str(e)}
    results = [(x["ruleId"], x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
               for run_ in sarif.get("runs", []) for x in run_.get("results", [])]
    check("action: the SARIF file is SARIF 2.1.0 JSON with the three findings, and the sarif-file output",
          sarif.get("version") == "2.1.0" and sorted(results) == [("bad-escape", "README.md"),
                                                                  ("bad-escape", "docs/guide.md"),
                                                                  ("bad-escape", "docs/page.html")]
          and outputs.get("sarif-file") == inputs["sarif-file"], (results, outputs))

    for name in ("docs/guide.md", "docs/page.html", "README.md"):
        p = os.path.join(ws, name)
        fix_escapes(p)
    r, outputs, summary, _ = run_action(ws, inputs)
    check("action: passes once the files are fixed, with no error annotation and an empty SARIF",
          r.returncode == 0 and "::error" not in r.stdout
          and outputs.get("summary") == "no findings (1 hint below --min-severity not shown); 5 URLs in 4 files checked"
          and json.load(open(sarif_path))["runs"][0].get("results", []) == [], (r.returncode, r.stdout, r.stderr))

    # The version input: go install of a version, from a module proxy.
    r, outputs, _, _ = run_action(ws, {"paths": "docs", "version": "v1.2.3", "setup-go": "false"},
                                  extra_env=module_proxy("v1.2.3"))
    check("action: version v1.2.3 is go installed, and says so",
          r.returncode == 0 and "go install github.com/urlls/urlls/cmd/urlls@v1.2.3" in r.stdout
          and re.search(r"^urlls v1\.2\.3 go", r.stdout, re.M)
          and outputs.get("summary") == "1 hint in 1 file; 4 URLs in 3 files checked",
          (r.returncode, r.stdout, r.stderr, outputs))


def t_git_hook():
    repo = git_repo()
    hook = os.path.join(repo, ".git", "hooks", "pre-commit")
    with open(hook, "w") as f:
        f.write(snippet("git-hook"))
    os.chmod(hook, 0o755)
    r = run(["sh", "-n", hook])
    check("git hook: sh -n parses it", r.returncode == 0, r.stderr)
    with open(os.path.join(repo, "main.go"), "w") as f:
        f.write("package main\n")
    git(repo, "add", "main.go")
    r = git(repo, "commit", "-q", "-m", "no document")
    check("git hook: a commit without documents passes", r.returncode == 0, r.stdout + r.stderr)
    doc = os.path.join(repo, "my notes.md")
    with open(doc, "w") as f:
        f.write("See http://example.org/a%zz.\n")
    git(repo, "add", "my notes.md")
    r = git(repo, "commit", "-q", "-m", "bad")
    text = r.stdout + r.stderr
    out("  " + text.strip().replace("\n", "\n  "))
    check("git hook: refuses the commit of a file with a bad escape", r.returncode != 0, r.returncode)
    check("git hook: shows the bad-escape line of 'my notes.md'",
          "my notes.md:1:" in text and "[bad-escape]" in text, text)
    check("git hook: nothing was committed", git(repo, "rev-list", "--count", "HEAD").stdout.strip() == "1")
    with open(doc, "w") as f:
        f.write("See http://example.org/a%25zz.\n")
    git(repo, "add", "my notes.md")
    r = git(repo, "commit", "-q", "-m", "fixed")
    check("git hook: accepts it once fixed", r.returncode == 0, r.stdout + r.stderr)


def sarif_multitool():
    """The SARIF Multitool pinned in .ci/sarif, installed from its lockfile when missing (as .ci/validate-sarif does)."""
    here = os.path.join(ROOT, ".ci", "sarif")
    tool = os.path.join(here, "node_modules", "@microsoft", "sarif-multitool-linux", "Sarif.Multitool")
    if not os.path.exists(tool):
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=here, check=True,
                       capture_output=True, timeout=BUILD_TIMEOUT)
    os.chmod(tool, 0o755)
    return tool


def sarif_results(log):
    """The results of a SARIF log as (rule, file, line, column), sorted."""
    found = []
    for sarif_run in log["runs"]:
        for r in sarif_run.get("results", []):
            loc = r["locations"][0]["physicalLocation"]
            region = loc["region"]
            found.append((r["ruleId"], loc["artifactLocation"]["uri"], region["startLine"], region["startColumn"]))
    return sorted(found)


def t_parallel():
    need("parallel")
    need("jq")
    d = tempfile.mkdtemp(dir=TMP)
    # Four top-level directories, one without findings.
    for name in ["alpha", "beta", "delta", "gamma"]:
        sub = os.path.join(d, "corpus", name, "docs")
        os.makedirs(sub)
        for j in range(3):
            with open(os.path.join(sub, f"page{j}.md"), "w") as f:
                f.write(f"# {name} {j}\n\nSee http://example.org/{name}/{j} for more.\n")
                if name != "delta":
                    f.write(f"A broken one: http://example.org/a%zz/{j} and <http://example.org/~{name}>.\n")
    with open(os.path.join(d, "hosts"), "w") as f:
        f.write(":\n")  # this machine, without ssh
    # The jobs run "urlls" from the PATH, whatever the binary tested is named.
    bindir = os.path.join(d, "bin")
    os.makedirs(bindir)
    os.symlink(BIN, os.path.join(bindir, "urlls"))
    env = dict(ENV, PATH=bindir + os.pathsep + ENV["PATH"])

    r = run(["bash", "-euo", "pipefail", "-c", snippet("parallel-json", MAIN_README)], cwd=d, env=env)
    check("parallel-json: the map step and jq's join run", r.returncode == 0, (r.returncode, r.stderr))
    whole = run([BIN, "check", "--quiet", "--format", "json", "corpus"], cwd=d, env=ENV)
    with open(os.path.join(d, "findings.json")) as f:
        merged = json.load(f)
    check("parallel-json: findings.json is what one urlls check prints",
          whole.returncode == 1 and len(merged) == 18 and merged == json.loads(whole.stdout),
          (len(merged), len(json.loads(whole.stdout))))

    script = snippet("parallel-sarif", MAIN_README)
    local = script.replace("npx @microsoft/sarif-multitool", shlex.quote(sarif_multitool()))
    check("parallel-sarif: the snippet merges with the SARIF Multitool (npx)", local != script, script)
    r = run(["bash", "-euo", "pipefail", "-c", local], cwd=d, env=env, timeout=BUILD_TIMEOUT)
    check("parallel-sarif: the map step and the merge run", r.returncode == 0, (r.returncode, r.stdout, r.stderr))
    whole = run([BIN, "check", "--quiet", "--format", "sarif", "corpus"], cwd=d, env=ENV)
    with open(os.path.join(d, "merged.sarif")) as f:
        log = json.load(f)
    want = sarif_results(json.loads(whole.stdout))
    check("parallel-sarif: merged.sarif is one run with the results of one urlls check",
          len(log["runs"]) == 1 and len(want) == 18 and sarif_results(log) == want, (len(sarif_results(log)), len(want)))


def main():
    global BIN, TMP, ENV
    TMP = tempfile.mkdtemp(prefix="urlls-snippets-")
    try:
        BIN = os.environ.get("URLLS_BIN")
        if not BIN:
            BIN = os.path.join(TMP, "bin", "urlls")
            subprocess.run(["go", "build", "-o", BIN, "./cmd/urlls"], cwd=ROOT, check=True)
        BIN = os.path.abspath(BIN)
        # The go command's caches, as the user has them: the builds of
        # pre-commit and of the action reuse them, and need no download.
        gocache = subprocess.run(["go", "env", "GOCACHE", "GOMODCACHE", "GOPROXY"], capture_output=True, text=True,
                                 check=True).stdout.split()
        home = os.path.join(TMP, "home")
        os.makedirs(home)
        ENV = dict(os.environ,
                   PATH=os.path.dirname(BIN) + os.pathsep + os.environ.get("PATH", ""),
                   HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
                   XDG_CACHE_HOME=os.path.join(home, ".cache"), XDG_STATE_HOME=os.path.join(home, ".state"),
                   XDG_DATA_HOME=os.path.join(home, ".data"),
                   PRE_COMMIT_HOME=os.path.join(home, "pre-commit"),
                   GOCACHE=gocache[0], GOMODCACHE=gocache[1], GOPROXY=gocache[2],
                   GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="urlls test", GIT_AUTHOR_EMAIL="test@example.org",
                   GIT_COMMITTER_NAME="urlls test", GIT_COMMITTER_EMAIL="test@example.org")
        out(f"urlls {BIN}; editors/README.md {README}")
        for name, fn in [("validator", t_validator), ("helix", t_helix), ("vim-ale", t_vim_ale), ("vim-lsp", t_vim_lsp),
                         ("sublime", t_sublime), ("zed", t_zed), ("efm-langserver", t_efm),
                         ("pre-commit", t_pre_commit), ("pre-commit hook (.pre-commit-hooks.yaml)", t_pre_commit_hook),
                         ("GitHub Action (action.yml)", t_action), ("git hook", t_git_hook),
                         ("parallel (README.md)", t_parallel)]:
            # Arguments, if any, pick the groups whose names contain one.
            if len(sys.argv) < 2 or any(a in name for a in sys.argv[1:]):
                section(name, fn)
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
    out(f"snippets: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
