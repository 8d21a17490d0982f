-- End-to-end test of `urlls serve` in a real Neovim (Debian's 0.7.2, headless).
--
-- Run through editors/nvim/test/run.sh, or by hand from the repository root:
--   URLLS_BIN=/path/to/urlls nvim --headless -u NONE -i NONE -n \
--     -c 'luafile editors/nvim/test/server_test.lua'
--
-- It opens a Markdown file with a bad escape, checks the diagnostic Neovim
-- gets, hovers the port, applies the bad-escape quick fix through Neovim's
-- own workspace-edit code (incremental didChange), checks that the
-- diagnostic goes, checks that a comment at a line's end silences a plain
-- text file's line, and shuts the server down. Output goes to stdout (print
-- goes to stderr in 0.7); the last line is "nvim: N passed, M failed".
-- Any failure, or the watchdog, ends Neovim with `cquit 1`.
--
-- Neovim 0.7 has no vim.lsp.start and no `nvim -l`: the client is started
-- with vim.lsp.start_client and attached with vim.lsp.buf_attach_client.
-- This file is ASCII-only; the hover's chain separator U+203A is written as
-- its UTF-8 bytes.

local BIN = os.getenv('URLLS_BIN')
local LOG = os.getenv('URLLS_LOG') or (vim.fn.tempname() .. '-urlls.log')
local TIMEOUT = tonumber(os.getenv('URLLS_TIMEOUT_MS') or '10000')
local SEP = ' \226\128\186 ' -- " > " as the server writes it: U+203A SINGLE RIGHT-POINTING ANGLE QUOTATION MARK

-- The harness: checks on stdout, abort at the first failure, the watchdog.
local T = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/harness.lua')
  .new('nvim', TIMEOUT, 6)
local out, check, abort, wait = T.out, T.check, T.abort, T.wait

local function json(v)
  return vim.fn.json_encode(v)
end

local function range_str(r)
  return string.format('%d:%d-%d:%d', r.start.line, r.start.character, r['end'].line, r['end'].character)
end

local function run()
  if not BIN or BIN == '' then
    abort('set URLLS_BIN to the urlls binary')
  end
  if vim.fn.executable(BIN) ~= 1 then
    abort('URLLS_BIN is not executable: ' .. BIN)
  end
  out('nvim ' .. tostring(vim.version().major) .. '.' .. vim.version().minor .. '.' .. vim.version().patch
    .. ', server ' .. BIN .. ', log ' .. LOG)

  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, 'p')
  local file = dir .. '/sample.md'
  -- Line 2 (0-based): "See " is 4 bytes, "http://example.org:" 19 more, so the
  -- port 8080 is at 23-27, "a" at 28 and the bad escape "%zz" at 29-32.
  -- ASCII only, so UTF-16 columns are byte columns.
  local url_line = 'See http://example.org:8080/a%zz for details.'
  vim.fn.writefile({
    '# urlls Neovim test',
    '',
    url_line,
    '',
    '- a good one: <https://example.com/docs/index.html>',
    '- plain text after it',
  }, file)

  -- Every publishDiagnostics, as the server sent it, before Neovim's own
  -- handler turns it into vim.diagnostic entries.
  local published = {}
  -- wait_published waits for a publication that match accepts (the
  -- latest one first) and returns it.
  local function wait_published(what, match)
    local found
    wait('publishDiagnostics for ' .. what, function()
      for i = #published, 1, -1 do
        if match(published[i]) then
          found = published[i]
          return true
        end
      end
      return false
    end)
    return found
  end
  local exit_code, exit_signal
  vim.cmd('filetype on') -- so didOpen carries languageId "markdown"
  local client_id = vim.lsp.start_client({
    name = 'urlls',
    cmd = { BIN, 'serve', '--log-file', LOG, '--log-level', 'debug' },
    root_dir = dir,
    handlers = {
      ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
        table.insert(published, vim.deepcopy(result))
        return vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
      end,
    },
    on_exit = function(code, signal)
      exit_code, exit_signal = code, signal
    end,
  })
  check('start_client', client_id ~= nil)

  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(bufnr)
  check('filetype is markdown', vim.bo[bufnr].filetype == 'markdown', vim.bo[bufnr].filetype)
  check('buf_attach_client', vim.lsp.buf_attach_client(bufnr, client_id))

  local client
  wait('initialize (server died or hung?)', function()
    client = vim.lsp.get_client_by_id(client_id)
    return client ~= nil and client.initialized
  end)
  local caps = client.server_capabilities or {}
  check('initialized: hover and code actions offered',
    caps.hoverProvider == true and type(caps.codeActionProvider) == 'table', json(caps))
  local enc = client.offset_encoding or 'utf-16'
  check('offset encoding is utf-16', enc == 'utf-16', enc)

  -- 1. Diagnostics of the opened file.
  wait('the first publishDiagnostics', function() return #published > 0 end)
  local first = published[1]
  out('  publishDiagnostics: ' .. json(first))
  check('diagnostics are for the buffer', first.uri == uri, first.uri .. ' ~= ' .. uri)
  check('exactly one diagnostic', #first.diagnostics == 1, json(first.diagnostics))
  local d = first.diagnostics[1]
  check('code bad-escape', d.code == 'bad-escape', tostring(d.code))
  check('source urlls', d.source == 'urlls', tostring(d.source))
  check('severity error (1)', d.severity == 1, tostring(d.severity))
  check('range 2:29-2:32 (the "%zz")', range_str(d.range) == '2:29-2:32', range_str(d.range))
  check('message names "%zz"', d.message:find('"%zz"', 1, true) ~= nil, d.message)

  local vd
  wait('vim.diagnostic.get to show it', function()
    vd = vim.diagnostic.get(bufnr)
    return #vd > 0
  end)
  local v = vd[1]
  check('vim.diagnostic.get: one error at 2:29-2:32',
    #vd == 1 and v.code == 'bad-escape' and v.source == 'urlls' and v.severity == vim.diagnostic.severity.ERROR
      and v.lnum == 2 and v.col == 29 and v.end_lnum == 2 and v.end_col == 32,
    vim.inspect(vd))

  -- 2. Hover on the port.
  local hover_params = { textDocument = { uri = uri }, position = { line = 2, character = 24 } }
  local results, herr = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', hover_params, TIMEOUT)
  check('hover answered', results ~= nil and results[client_id] ~= nil, tostring(herr))
  local hr = results[client_id]
  check('hover without error', hr.err == nil and hr.result ~= nil, vim.inspect(hr))
  out('  hover: ' .. json(hr.result))
  local contents = hr.result.contents
  local value = type(contents) == 'table' and (contents.value or '') or tostring(contents)
  check('hover names the production port', value:find('**port**', 1, true) ~= nil, value)
  local chain = 'httpurl' .. SEP .. 'hostport' .. SEP .. 'port'
  check('hover shows the chain httpurl > hostport > port', value:find(chain, 1, true) ~= nil, value)
  check('hover matched 8080', value:find('`8080`', 1, true) ~= nil, value)
  check('hover range is the port 2:23-2:27', hr.result.range and range_str(hr.result.range) == '2:23-2:27',
    hr.result.range and range_str(hr.result.range) or 'no range')

  -- 3. The quick fix, applied by Neovim.
  local ca_params = {
    textDocument = { uri = uri },
    range = d.range,
    context = { diagnostics = { d }, only = { 'quickfix' } },
  }
  results, herr = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', ca_params, TIMEOUT)
  check('codeAction answered', results ~= nil and results[client_id] ~= nil, tostring(herr))
  local cr = results[client_id]
  check('codeAction without error', cr.err == nil and type(cr.result) == 'table', vim.inspect(cr))
  out('  codeAction: ' .. json(cr.result))
  local action
  for _, a in ipairs(cr.result) do
    if a.title == 'encode % as %25' then
      action = a
    end
  end
  check('action "encode % as %25" offered', action ~= nil)
  check('it is a preferred quickfix for the diagnostic',
    action.kind == 'quickfix' and action.isPreferred == true and type(action.diagnostics) == 'table'
      and #action.diagnostics == 1 and action.diagnostics[1].code == 'bad-escape',
    json(action))
  check('it carries an edit', type(action.edit) == 'table', json(action))

  local version_before = vim.lsp.util.buf_versions[bufnr]
  vim.lsp.util.apply_workspace_edit(action.edit, enc)
  local line = vim.api.nvim_buf_get_lines(bufnr, 2, 3, true)[1]
  check('buffer line now has %25zz', line == 'See http://example.org:8080/a%25zz for details.', line)
  local version = vim.lsp.util.buf_versions[bufnr]
  check('buffer version advanced', version ~= nil and version ~= version_before,
    tostring(version_before) .. ' -> ' .. tostring(version))

  local after = wait_published('version ' .. tostring(version), function(p) return p.version == version end)
  out('  publishDiagnostics: ' .. json(after))
  local left = {}
  for _, x in ipairs(after.diagnostics) do
    if x.code == 'bad-escape' then
      table.insert(left, x)
    end
  end
  check('bad-escape gone from version ' .. version, #left == 0, json(after.diagnostics))
  check('no diagnostics left', #after.diagnostics == 0, json(after.diagnostics))
  local versions = {}
  for _, p in ipairs(published) do
    table.insert(versions, tostring(p.version))
  end
  check('publication versions never go backwards', (function()
    local last = -1
    for _, p in ipairs(published) do
      local pv = p.version or 0
      if pv < last then return false end
      last = pv
    end
    return true
  end)(), table.concat(versions, ','))
  wait('vim.diagnostic.get to empty', function() return #vim.diagnostic.get(bufnr) == 0 end)
  check('vim.diagnostic.get is empty', true)

  -- 4. A plain-text file: a comment at a line's end silences its line.
  local txt = dir .. '/notes.txt'
  vim.fn.writefile({
    'silenced: http://example.org/a%zz <!-- urlls-disable-line -->',
    'reported: http://example.org/b%zz',
  }, txt)
  vim.cmd('edit ' .. vim.fn.fnameescape(txt))
  local tbuf = vim.api.nvim_get_current_buf()
  local turi = vim.uri_from_bufnr(tbuf)
  check('buf_attach_client (notes.txt)', vim.lsp.buf_attach_client(tbuf, client_id))
  local tpub = wait_published('notes.txt', function(p) return p.uri == turi end)
  out('  publishDiagnostics: ' .. json(tpub))
  check('notes.txt: one diagnostic, the line not silenced (1:30-1:33)',
    #tpub.diagnostics == 1 and tpub.diagnostics[1].code == 'bad-escape' and range_str(tpub.diagnostics[1].range) == '1:30-1:33',
    json(tpub.diagnostics))

  -- 5. Shutdown and exit.
  vim.lsp.stop_client(client_id)
  wait('the server to exit', function() return exit_code ~= nil end)
  check('server exited with code 0 after shutdown', exit_code == 0 and exit_signal == 0,
    'code ' .. tostring(exit_code) .. ', signal ' .. tostring(exit_signal))

  local log = vim.fn.filereadable(LOG) == 1 and vim.fn.readfile(LOG) or {}
  local bad = {}
  for _, l in ipairs(log) do
    if l:find('\tWARN\t', 1, true) or l:find('\tERROR\t', 1, true) or l:find('panic', 1, true) then
      table.insert(bad, l)
    end
  end
  check('server log has lines and no warnings or errors', #log > 0 and #bad == 0,
    #log == 0 and 'empty log' or table.concat(bad, '\n'))
end

T.run(run)
