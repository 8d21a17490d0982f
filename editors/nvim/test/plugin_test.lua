-- Headless test of the urlls Neovim plugin (editors/nvim) in a real Neovim
-- (Debian's 0.7.2) against a real `urlls serve`.
--
-- Run through editors/nvim/test/run_plugin.sh, which copies the plugin to a
-- temporary directory, puts the copy on 'runtimepath' before startup (so
-- plugin/urlls.lua loads as it would for a user) and runs:
--   URLLS_BIN=... URLLS_PLUGIN=<copy> nvim --headless -u NORC -i NONE -n \
--     --cmd 'set rtp^=<copy>' -c 'luafile editors/nvim/test/plugin_test.lua'
--
-- It checks :help urlls (helptags on the copy's doc/, every |link| of the
-- help file opens), then calls require('urlls').setup{cmd, filetypes,
-- settings, on_attach}, opens Markdown files in two project roots and
-- checks: one client per root, the settings reach the server (as
-- initializationOptions, and through workspace/configuration after
-- set_settings), the bad-escape diagnostic, :UrllsFixAll applying
-- source.fixAll.urlls and the diagnostics going, an added filetype, a
-- filetype left alone, the vim.lsp.start call of Neovim 0.8+ (through a
-- stand-in, 0.7 has none), setup() with no options running `urlls` from
-- PATH, and lsp/urlls.lua. Output goes to stdout; the last line is
-- "plugin: N passed, M failed". A failure or the watchdog ends Neovim with
-- `cquit 1`.

local BIN = os.getenv('URLLS_BIN')
local PLUGIN = os.getenv('URLLS_PLUGIN')
local LOG = os.getenv('URLLS_LOG') or (vim.fn.tempname() .. '-urlls.log')
local TIMEOUT = tonumber(os.getenv('URLLS_TIMEOUT_MS') or '10000')

-- The harness: checks on stdout, abort at the first failure, the watchdog.
local T = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/harness.lua')
  .new('plugin', TIMEOUT, 8)
local out, check, abort, wait = T.out, T.check, T.abort, T.wait

local function json(v)
  return vim.fn.json_encode(v)
end

-- vim.json.encode is what the LSP client sends (empty_dict -> {}).
local function wire(v)
  return vim.json.encode(v)
end

-- Equal as JSON values, whatever the order of the keys.
local function same(a, b)
  return vim.deep_equal(vim.json.decode(wire(a)), vim.json.decode(wire(b)))
end

local function write(path, lines)
  vim.fn.mkdir(vim.fn.fnamemodify(path, ':h'), 'p')
  vim.fn.writefile(lines, path)
end

local function range_str(r)
  return string.format('%d:%d-%d:%d', r.start.line, r.start.character, r['end'].line, r['end'].character)
end

-- Every publishDiagnostics and every showMessage the servers send, before
-- Neovim's own handlers (which the plugin uses) see them.
local published = {} -- uri -> list of params
local messages = {}
-- Every workspace/configuration request, with Neovim's answer.
local config_requests = {}
local answer_configuration = vim.lsp.handlers['workspace/configuration']
vim.lsp.handlers['workspace/configuration'] = function(err, result, ctx, config)
  local answer = answer_configuration(err, result, ctx, config)
  table.insert(config_requests, { client_id = ctx.client_id, items = result.items, answer = vim.deepcopy(answer) })
  return answer
end
do
  local orig_publish = vim.lsp.handlers['textDocument/publishDiagnostics']
  vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
    published[result.uri] = published[result.uri] or {}
    table.insert(published[result.uri], vim.deepcopy(result))
    return orig_publish(err, result, ctx, config)
  end
  vim.lsp.handlers['window/showMessage'] = function(_, result)
    table.insert(messages, result)
    out('  showMessage: ' .. json(result))
  end
end

-- Waits for a workspace/configuration request of a client, after `after`
-- requests, whose answer for "urlls" is `want`.
local function wait_config_request(what, client_id, after, want)
  wait(what, function()
    for i = after + 1, #config_requests do
      local r = config_requests[i]
      if r.client_id == client_id and #r.items == 1 and r.items[1].section == 'urlls'
        and type(r.answer) == 'table' and same(r.answer[1], want) then
        return true
      end
    end
    return false
  end)
end

-- The first publication for uri after `after` publications that satisfies pred.
local function wait_publish(what, uri, after, pred)
  local found
  wait(what, function()
    local list = published[uri] or {}
    for i = after + 1, #list do
      if pred(list[i]) then
        found = list[i]
        return true
      end
    end
    return false
  end)
  return found
end

local function count(uri)
  return #(published[uri] or {})
end

local function codes(diags)
  local t = {}
  for _, d in ipairs(diags) do
    table.insert(t, d.code .. '@' .. range_str(d.range) .. '/' .. d.severity)
  end
  table.sort(t)
  return table.concat(t, ' ')
end

local function by_code(diags, code)
  for _, d in ipairs(diags) do
    if d.code == code then
      return d
    end
  end
end

local function edit(path)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  return vim.api.nvim_get_current_buf()
end

local function wait_client(bufnr)
  local client
  wait('a urlls client attached to ' .. vim.api.nvim_buf_get_name(bufnr) .. ' and initialized', function()
    local cs = require('urlls').buf_clients(bufnr)
    client = cs[1]
    return client ~= nil and client.initialized
  end)
  return client
end

-- What Neovim answers to workspace/configuration "urlls" for a client.
local function config_answer(client_id)
  return answer_configuration(nil, { items = { { section = 'urlls' } } },
    { client_id = client_id, method = 'workspace/configuration' })
end

local function run()
  if not BIN or vim.fn.executable(BIN) ~= 1 then
    abort('set URLLS_BIN to the urlls binary (got ' .. tostring(BIN) .. ')')
  end
  if not PLUGIN or vim.fn.isdirectory(PLUGIN) ~= 1 then
    abort('set URLLS_PLUGIN to the plugin directory on runtimepath (got ' .. tostring(PLUGIN) .. ')')
  end
  local v = vim.version()
  out(string.format('nvim %d.%d.%d, server %s, plugin %s, log %s', v.major, v.minor, v.patch, BIN, PLUGIN, LOG))

  -- 1. Startup loaded plugin/urlls.lua from 'runtimepath'.
  check('plugin/urlls.lua loaded at startup: :UrllsFixAll exists',
    vim.g.loaded_urlls == 1 and vim.fn.exists(':UrllsFixAll') == 2)
  check('no urlls client before setup()', #require('urlls').clients() == 0)

  -- 2. :help urlls
  local doc = PLUGIN .. '/doc'
  local ok, err = pcall(vim.cmd, 'helptags ' .. vim.fn.fnameescape(doc))
  check(':helptags ' .. doc .. ' succeeds', ok, err)
  local tags = vim.fn.readfile(doc .. '/tags')
  check('doc/tags has the tags', #tags >= 30, #tags .. ' tags')
  ok, err = pcall(vim.cmd, 'help urlls')
  check(':help urlls opens', ok, err)
  local hbuf = vim.api.nvim_get_current_buf()
  check(':help urlls shows doc/urlls.txt at *urlls*',
    vim.bo[hbuf].buftype == 'help' and vim.api.nvim_buf_get_name(hbuf):find('doc/urlls.txt', 1, true) ~= nil
      and vim.api.nvim_get_current_line():find('*urlls*', 1, true) ~= nil,
    vim.api.nvim_buf_get_name(hbuf) .. ': ' .. vim.api.nvim_get_current_line())
  local links, broken = {}, {}
  for _, line in ipairs(vim.fn.readfile(doc .. '/urlls.txt')) do
    for link in line:gmatch('|([^|%s]+)|') do
      links[link] = true
    end
  end
  local nlinks = 0
  for link in pairs(links) do
    nlinks = nlinks + 1
    if not pcall(vim.cmd, 'help ' .. link) then
      table.insert(broken, link)
    end
  end
  check('every |link| of the help (' .. nlinks .. ') opens', #broken == 0 and nlinks >= 10,
    table.concat(broken, ' '))
  vim.cmd('helpclose')

  -- 3. Projects: a and c are git roots, b has a .urlls.json.
  local base = vim.fn.resolve(vim.fn.tempname())
  local rootA, rootB, rootC = base .. '/a', base .. '/b', base .. '/c'
  vim.fn.mkdir(rootA .. '/.git', 'p')
  vim.fn.mkdir(rootC .. '/.git', 'p')
  write(rootB .. '/.urlls.json', { '{"severity": {"bad-escape": "warning"}}' })
  vim.cmd('cd ' .. vim.fn.fnameescape(base))
  local urlls = require('urlls')
  check('find_root: the nearest marker', urlls.find_root(rootA .. '/sub/x.md') == rootA
    and urlls.find_root(rootB .. '/x.md') == rootB, urlls.find_root(rootA .. '/sub/x.md'))
  check('find_root: no marker, under the cwd: the cwd', urlls.find_root(base .. '/loose/x.md') == base,
    urlls.find_root(base .. '/loose/x.md'))
  check('find_root: no marker, outside the cwd: the file\'s directory',
    urlls.find_root('/nonexistent-urlls/dir/x.md') == '/nonexistent-urlls/dir',
    urlls.find_root('/nonexistent-urlls/dir/x.md'))
  check('normalize_settings sends empty maps as objects',
    wire(urlls.normalize_settings(nil)) == '{}' and wire(urlls.normalize_settings({ severity = {} })) == '{"severity":{}}'
      and wire(urlls.normalize_settings({ urlls = { strict = true } })) == '{"strict":true}',
    wire(urlls.normalize_settings({ severity = {} })))

  -- 4. setup{}
  -- A plugin manager that puts the plugin on 'runtimepath' late (lazy.nvim's
  -- config = function(p) vim.opt.rtp:append(...) end) skips plugin/: setup()
  -- defines the command itself.
  vim.api.nvim_del_user_command('UrllsFixAll')
  local attached = {}
  local settings = {
    severity = { ['scheme-case'] = 'warning' },
    ignore = { 'http://ignored.example/*' },
  }
  urlls.setup({
    cmd = { BIN, 'serve', '--log-file', LOG, '--log-level', 'debug' },
    filetypes = { 'rst' },
    settings = settings,
    on_attach = function(client, bufnr)
      table.insert(attached, { id = client.id, name = client.name, bufnr = bufnr })
    end,
  })
  check('setup() defines :UrllsFixAll', vim.fn.exists(':UrllsFixAll') == 2)
  check('setup: filetypes are the defaults and the added one',
    table.concat(urlls.options().filetypes, ',') == 'markdown,html,text,rst', table.concat(urlls.options().filetypes, ','))

  -- Line 2: "See http://example.org:8080/a" is 29 bytes: "%zz" at 29-32.
  -- Line 4: "Upper case: " is 12 bytes: the scheme HTTP at 12-16.
  -- Line 5: ignored by the settings.
  local fileA = rootA .. '/doc.md'
  write(fileA, {
    '# urlls plugin test',
    '',
    'See http://example.org:8080/a%zz for details.',
    '',
    'Upper case: HTTP://example.org/upper',
    'Ignored: http://ignored.example/100%zz',
  })
  local bufA = edit(fileA)
  local uriA = vim.uri_from_bufnr(bufA)
  check('doc.md has filetype markdown', vim.bo[bufA].filetype == 'markdown', vim.bo[bufA].filetype)
  local clientA = wait_client(bufA)
  check('the client is named urlls and runs the cmd of setup()',
    clientA.name == 'urlls' and clientA.config.cmd[1] == BIN, json(clientA.config.cmd))
  check('its root is the git root ' .. rootA, clientA.config.root_dir == rootA, clientA.config.root_dir)
  check('on_attach(client, bufnr) was called for doc.md',
    #attached == 1 and attached[1].id == clientA.id and attached[1].bufnr == bufA, json(attached))
  check('initializationOptions are the settings',
    same(clientA.config.init_options, settings), wire(clientA.config.init_options))
  check('the client says it answers workspace/configuration (0.7 does not by itself)',
    clientA.config.capabilities.workspace.configuration == true)
  wait_config_request('the server to ask workspace/configuration "urlls" and get the settings', clientA.id, 0, settings)
  check('the server asked workspace/configuration "urlls" and got the settings', true)

  local first = wait_publish('diagnostics of doc.md', uriA, 0, function(p) return #p.diagnostics > 0 end)
  out('  publishDiagnostics: ' .. json(first))
  local want = 'bad-escape@2:29-2:32/1 scheme-case@4:12-4:16/2'
  check('diagnostics: bad-escape error, scheme-case a warning (settings), nothing on the ignored URL',
    codes(first.diagnostics) == want, codes(first.diagnostics))
  local vd
  wait('vim.diagnostic.get(doc.md)', function()
    vd = vim.diagnostic.get(bufA)
    return #vd == 2
  end)
  local be
  for _, d in ipairs(vd) do
    if d.code == 'bad-escape' then
      be = d
    end
  end
  check('vim.diagnostic.get: the bad-escape error at 2:29-2:32',
    be and be.severity == vim.diagnostic.severity.ERROR and be.lnum == 2 and be.col == 29 and be.end_col == 32
      and be.source == 'urlls', vim.inspect(vd))

  -- 5. set_settings: workspace/didChangeConfiguration, the server pulls the
  -- "urlls" section and re-publishes.
  local settings2 = { severity = { ['scheme-case'] = 'error' }, ignore = { 'http://ignored.example/*' } }
  local n = count(uriA)
  local nreq = #config_requests
  urlls.set_settings(settings2)
  local answer = config_answer(clientA.id)
  check('set_settings: workspace/configuration now answers the new settings',
    same(answer[1], settings2), wire(answer))
  wait_config_request('the server to ask workspace/configuration again', clientA.id, nreq, settings2)
  check('the server asked workspace/configuration again and got the new settings', true)
  local again = wait_publish('diagnostics with scheme-case an error', uriA, n, function(p)
    local d = by_code(p.diagnostics, 'scheme-case')
    return d ~= nil and d.severity == 1
  end)
  check('the server re-published: scheme-case is an error now',
    codes(again.diagnostics) == 'bad-escape@2:29-2:32/1 scheme-case@4:12-4:16/1', codes(again.diagnostics))

  -- 6. :UrllsFixAll
  local before = vim.lsp.util.buf_versions[bufA]
  n = count(uriA)
  ok, err = pcall(vim.cmd, 'UrllsFixAll')
  check(':UrllsFixAll runs', ok, err)
  local lines = vim.api.nvim_buf_get_lines(bufA, 0, -1, true)
  check(':UrllsFixAll encoded the bad "%"', lines[3] == 'See http://example.org:8080/a%25zz for details.', lines[3])
  check(':UrllsFixAll lower-cased the scheme', lines[5] == 'Upper case: http://example.org/upper', lines[5])
  check(':UrllsFixAll left the ignored URL alone', lines[6] == 'Ignored: http://ignored.example/100%zz', lines[6])
  local version = vim.lsp.util.buf_versions[bufA]
  check('the buffer version advanced', version ~= before, tostring(before) .. ' -> ' .. tostring(version))
  local after = wait_publish('diagnostics of version ' .. tostring(version), uriA, n, function(p)
    return p.version == version
  end)
  check('no diagnostics left after :UrllsFixAll', #after.diagnostics == 0, json(after.diagnostics))
  wait('vim.diagnostic.get(doc.md) to empty', function() return #vim.diagnostic.get(bufA) == 0 end)
  check('vim.diagnostic.get(doc.md) is empty', true)
  local nfix = urlls.fix_all(bufA)
  check('fix_all again: nothing to fix', nfix == 0, tostring(nfix))

  -- 7. Another file of the same root: the same client.
  local fileA2 = rootA .. '/sub/more.md'
  write(fileA2, { '[more](http://example.org/b%zz)' })
  local bufA2 = edit(fileA2)
  local c2 = wait_client(bufA2)
  check('sub/more.md reuses the client of its root', c2.id == clientA.id, c2.id .. ' ~= ' .. clientA.id)
  local p2 = wait_publish('diagnostics of sub/more.md', vim.uri_from_bufnr(bufA2), 0,
    function(p) return #p.diagnostics > 0 end)
  check('sub/more.md: bad-escape', codes(p2.diagnostics) == 'bad-escape@0:27-0:30/1', codes(p2.diagnostics))

  -- 8. The added filetype, and one that is not urlls'.
  local fileRst = rootA .. '/notes.rst'
  write(fileRst, { 'Notes', '=====', '', 'See http://example.org/c%zz here.' })
  local bufRst = edit(fileRst)
  check('notes.rst has filetype rst', vim.bo[bufRst].filetype == 'rst', vim.bo[bufRst].filetype)
  local c3 = wait_client(bufRst)
  check('the added filetype rst is attached, to the same client', c3.id == clientA.id)
  local p3 = wait_publish('diagnostics of notes.rst', vim.uri_from_bufnr(bufRst), 0,
    function(p) return #p.diagnostics > 0 end)
  check('notes.rst: bad-escape', codes(p3.diagnostics) == 'bad-escape@3:24-3:27/1', codes(p3.diagnostics))
  local fileLua = rootA .. '/script.lua'
  write(fileLua, { '-- see http://example.org/d%zz' })
  local bufLua = edit(fileLua)
  vim.wait(300)
  check('a lua buffer is left alone', vim.bo[bufLua].filetype == 'lua' and #urlls.buf_clients(bufLua) == 0)

  -- 9. Another root: another client, and its .urlls.json is read.
  local fileB = rootB .. '/page.md'
  write(fileB, { 'http://example.org/e%zz' })
  local bufB = edit(fileB)
  local clientB = wait_client(bufB)
  check('b/page.md gets a second client, rooted at ' .. rootB,
    clientB.id ~= clientA.id and clientB.config.root_dir == rootB, clientB.config.root_dir)
  local pB = wait_publish('diagnostics of b/page.md', vim.uri_from_bufnr(bufB), 0,
    function(p) return #p.diagnostics > 0 end)
  check('b/page.md: bad-escape is a warning there (b/.urlls.json)',
    codes(pB.diagnostics) == 'bad-escape@0:20-0:23/2', codes(pB.diagnostics))
  check('two urlls clients run', #urlls.clients() == 2, #urlls.clients())

  -- 10. Neovim 0.8+ starts clients with vim.lsp.start(config, {bufnr}). 0.7
  -- has none: a stand-in records the call and does what 0.7 can.
  check('Neovim 0.7 has no vim.lsp.start', vim.lsp.start == nil)
  local calls = {}
  vim.lsp.start = function(config, opts)
    table.insert(calls, { config = config, opts = opts })
    local id = vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(opts.bufnr, id)
    return id
  end
  local fileC = rootC .. '/x.md'
  write(fileC, { 'http://example.org/f%zz' })
  local okC, bufC = pcall(edit, fileC)
  vim.lsp.start = nil
  check('edit c/x.md', okC, bufC)
  check('vim.lsp.start was called once', #calls == 1, #calls)
  local cc = calls[1]
  check('vim.lsp.start(config, {bufnr}): name, cmd, root_dir, settings, init_options',
    cc.opts.bufnr == bufC and cc.config.name == 'urlls' and cc.config.cmd[1] == BIN
      and cc.config.root_dir == rootC and same(cc.config.settings, { urlls = settings2 })
      and same(cc.config.init_options, settings2) and type(cc.config.on_attach) == 'function',
    vim.inspect(cc))
  wait_client(bufC)
  wait_publish('diagnostics of c/x.md', vim.uri_from_bufnr(bufC), 0, function(p) return #p.diagnostics > 0 end)
  check('c/x.md: diagnostics through the vim.lsp.start path', true)

  -- 11. Stop them all.
  for _, c in ipairs(urlls.clients()) do
    vim.lsp.stop_client(c.id)
  end
  wait('every urlls client to stop', function() return #urlls.clients() == 0 end)
  check('every urlls client stopped', true)

  -- 12. setup() with no options: `urlls` from PATH, no settings.
  vim.env.PATH = vim.fn.fnamemodify(BIN, ':h') .. ':' .. vim.env.PATH
  check('`urlls` is on PATH', vim.fn.exepath('urlls') == BIN, vim.fn.exepath('urlls'))
  vim.cmd('silent %bwipeout!')
  urlls.setup()
  local fileT = base .. '/loose/notes.txt'
  write(fileT, { 'Plain text: http://example.org/g%zz and HTTP://example.org/' })
  local nmessages = #messages
  local bufT = edit(fileT)
  check('notes.txt has filetype text', vim.bo[bufT].filetype == 'text', vim.bo[bufT].filetype)
  local clientT = wait_client(bufT)
  check('setup(): cmd is { "urlls" }, root the cwd', wire(clientT.config.cmd) == '["urlls"]'
    and clientT.config.root_dir == base, json(clientT.config.cmd) .. ' ' .. clientT.config.root_dir)
  check('setup(): the settings go as {} (not [])', wire(clientT.config.init_options) == '{}'
    and wire(config_answer(clientT.id)[1]) == '{}', wire(clientT.config.init_options))
  local pT = wait_publish('diagnostics of notes.txt', vim.uri_from_bufnr(bufT), 0,
    function(p) return #p.diagnostics > 0 end)
  check('notes.txt: bad-escape error, scheme-case hint (defaults)',
    codes(pT.diagnostics) == 'bad-escape@0:32-0:35/1 scheme-case@0:40-0:44/4', codes(pT.diagnostics))
  vim.wait(200)
  check('the server showed no message (the settings were accepted)', #messages == nmessages and #messages == 0,
    json(messages))
  vim.lsp.stop_client(clientT.id)
  wait('the client to stop', function() return #urlls.clients() == 0 end)

  -- 13. lsp/urlls.lua, for Neovim 0.11's vim.lsp.config (not run here: 0.7).
  local cfg = dofile(PLUGIN .. '/lsp/urlls.lua')
  check('lsp/urlls.lua returns cmd, filetypes, root_markers, settings',
    wire(cfg.cmd) == '["urlls"]' and wire(cfg.filetypes) == '["markdown","html","text"]'
      and wire(cfg.root_markers) == '[".urlls.json",".git"]' and wire(cfg.settings) == '{"urlls":{}}',
    vim.inspect(cfg))

  -- 14. The servers' log.
  local log = vim.fn.filereadable(LOG) == 1 and vim.fn.readfile(LOG) or {}
  local bad = {}
  for _, l in ipairs(log) do
    if l:find('\tWARN\t', 1, true) or l:find('\tERROR\t', 1, true) or l:find('panic', 1, true) then
      table.insert(bad, l)
    end
  end
  check('the servers\' log has lines and no warnings or errors', #log > 0 and #bad == 0,
    #log == 0 and 'empty log' or table.concat(bad, '\n'))
end

T.run(run)
