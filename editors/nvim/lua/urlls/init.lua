-- urlls.nvim: the Neovim client of the urlls language server.
--
--   require('urlls').setup()                       -- `urlls` from PATH
--   require('urlls').setup({ settings = { ignore = { 'http://localhost*' } } })
--
-- Works on Neovim 0.7 and later: vim.lsp.start (0.8+) where it exists, else
-- vim.lsp.start_client + vim.lsp.buf_attach_client. One client per root
-- directory. See :help urlls.

local M = {}

--- The filetypes urlls attaches to without being told; `filetypes` adds to them.
M.default_filetypes = { 'markdown', 'html', 'text' }

--- Files that mark a project root, nearest first wins.
M.default_root_markers = { '.urlls.json', '.git' }

--- The name of the LSP client; :UrllsFixAll and the commands look for it.
M.name = 'urlls'

local FIX_ALL = 'source.fixAll.urlls'

local known_options = {
  cmd = 'table',
  filetypes = 'table',
  settings = 'table',
  on_attach = 'function',
  capabilities = 'table',
  root_markers = 'table',
  root_dir = 'function',
  handlers = 'table',
  flags = 'table',
}

-- The options of the last setup(); nil before it.
local options

-- root directory -> client id, for the start_client path (Neovim 0.7).
local clients_by_root = {}

local function notify(msg, level)
  vim.notify('urlls: ' .. msg, level or vim.log.levels.ERROR)
end

-- Neovim 0.11 made the client's functions methods (client:request(...));
-- before it they are plain functions (client.request(...)).
local methods = vim.fn.has('nvim-0.11') == 1

local function client_request_sync(client, method, params, timeout_ms, bufnr)
  if methods then
    return client:request_sync(method, params, timeout_ms, bufnr)
  end
  return client.request_sync(method, params, timeout_ms, bufnr)
end

local function client_request(client, method, params, handler, bufnr)
  if methods then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

local function client_notify(client, method, params)
  if methods then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

-- Neovim encodes an empty Lua table as a JSON array, and the server wants
-- objects for the settings and for their "severity" and "languages" maps:
-- mark the empty ones as dictionaries.
local function object(t)
  if t == nil or (type(t) == 'table' and next(t) == nil) then
    return vim.empty_dict()
  end
  return t
end

--- Returns the settings as the server takes them: the keys of .urlls.json
--- (severity, strict, grammar, ignore, languages). A table { urlls = {...} } (the
--- shape of nvim-lspconfig's and vim.lsp.config's `settings`) is unwrapped.
function M.normalize_settings(settings)
  local s = vim.deepcopy(settings or {})
  if type(s.urlls) == 'table' and next(s, next(s)) == nil then
    s = s.urlls
  end
  if s.severity ~= nil then
    s.severity = object(s.severity)
  end
  if s.languages ~= nil then
    s.languages = object(s.languages)
  end
  return object(s)
end

local function list_extend_unique(dst, src)
  local seen = {}
  for _, v in ipairs(dst) do
    seen[v] = true
  end
  for _, v in ipairs(src or {}) do
    if not seen[v] then
      seen[v] = true
      table.insert(dst, v)
    end
  end
  return dst
end

local function exists(path)
  return (vim.uv or vim.loop).fs_stat(path) ~= nil
end

local function dirname(path)
  return vim.fn.fnamemodify(path, ':h')
end

--- The root directory of a file: the nearest directory, from the file's own
--- upwards, that holds one of `markers`; else the current directory when the
--- file is under it; else the file's directory.
function M.find_root(fname, markers)
  fname = vim.fn.fnamemodify(fname, ':p')
  local start = dirname(fname)
  local dir = start
  while true do
    for _, m in ipairs(markers or M.default_root_markers) do
      if exists(dir .. '/' .. m) then
        return dir
      end
    end
    local parent = dirname(dir)
    if parent == dir then
      break
    end
    dir = parent
  end
  local cwd = vim.fn.getcwd()
  if fname:sub(1, #cwd + 1) == cwd .. '/' then
    return cwd
  end
  return start
end

--- The urlls clients attached to a buffer (0: the current one).
function M.buf_clients(bufnr)
  if bufnr == nil or bufnr == 0 then
    bufnr = vim.api.nvim_get_current_buf()
  end
  if vim.lsp.get_clients then -- 0.10+
    return vim.lsp.get_clients({ bufnr = bufnr, name = M.name })
  end
  local out = {}
  for _, c in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if c.name == M.name then
      table.insert(out, c)
    end
  end
  return out
end

--- Every running urlls client.
function M.clients()
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ name = M.name })
  end
  local out = {}
  for _, c in pairs(vim.lsp.get_active_clients()) do
    if c.name == M.name then
      table.insert(out, c)
    end
  end
  return out
end

-- Neovim's client capabilities, with workspace/configuration: 0.7 answers
-- the request but does not say so, and the server only asks a client that
-- does (it then re-reads the "urlls" section on every configuration change).
local function capabilities(user)
  local caps = vim.lsp.protocol.make_client_capabilities()
  caps.workspace = caps.workspace or {}
  caps.workspace.configuration = true
  return vim.tbl_deep_extend('force', caps, user or {})
end

-- The client configuration for a root directory.
local function client_config(root)
  return {
    name = M.name,
    cmd = options.cmd,
    root_dir = root,
    -- initializationOptions: the settings themselves; workspace/configuration
    -- section "urlls": Neovim answers it from settings.urlls.
    init_options = options.settings,
    settings = { urlls = options.settings },
    on_attach = options.on_attach,
    capabilities = capabilities(options.capabilities),
    handlers = options.handlers,
    flags = options.flags,
  }
end

--- Attaches urlls to a buffer (0: the current one), starting a client for
--- its root directory if there is none yet. Returns the client id, or nil
--- for a buffer that is not a file. setup() must have run.
function M.attach(bufnr)
  if not options then
    notify('call require("urlls").setup() first')
    return nil
  end
  if bufnr == nil or bufnr == 0 then
    bufnr = vim.api.nvim_get_current_buf()
  end
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= '' then
    return nil
  end
  local fname = vim.api.nvim_buf_get_name(bufnr)
  if fname == '' then
    return nil
  end
  local attached = M.buf_clients(bufnr)
  if #attached > 0 then
    return attached[1].id
  end
  local root
  if options.root_dir then
    root = options.root_dir(fname, bufnr)
    if not root then
      return nil
    end
  else
    root = M.find_root(fname, options.root_markers)
  end

  if vim.lsp.start then -- 0.8+: reuses the client of the same name and root
    return vim.lsp.start(client_config(root), { bufnr = bufnr })
  end

  local id = clients_by_root[root]
  if id and not vim.lsp.get_client_by_id(id) then
    id = nil -- it exited
  end
  if not id then
    id = vim.lsp.start_client(client_config(root))
    if not id then
      notify('could not start ' .. table.concat(options.cmd, ' '))
      return nil
    end
    clients_by_root[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

--- Sets up urlls: for every buffer of the filetypes (the defaults and
--- `opts.filetypes`), now and from now on, attach() it. Options:
---   cmd          the server command, default { 'urlls' }
---   filetypes    filetypes added to markdown, html and text
---   settings     severity, strict, grammar, ignore, languages (as in .urlls.json)
---   on_attach    function(client, bufnr)
---   capabilities client capabilities, merged into Neovim's
---   root_markers default { '.urlls.json', '.git' }
---   root_dir     function(fname, bufnr) -> directory or nil (not attached)
---   handlers, flags: passed to the client
function M.setup(opts)
  opts = opts or {}
  if type(opts) ~= 'table' then
    error('urlls.setup: expected a table of options, got ' .. type(opts), 2)
  end
  for k, v in pairs(opts) do
    local want = known_options[k]
    if not want then
      notify('unknown option "' .. tostring(k) .. '" (known: cmd, filetypes, settings, on_attach, '
        .. 'capabilities, root_markers, root_dir, handlers, flags)', vim.log.levels.WARN)
    elseif type(v) ~= want then
      error(string.format('urlls.setup: option %s must be a %s, got %s', k, want, type(v)), 2)
    end
  end
  options = {
    cmd = vim.deepcopy(opts.cmd or { 'urlls' }),
    filetypes = list_extend_unique(vim.deepcopy(M.default_filetypes), opts.filetypes),
    settings = M.normalize_settings(opts.settings),
    on_attach = opts.on_attach,
    capabilities = opts.capabilities,
    root_markers = opts.root_markers or M.default_root_markers,
    root_dir = opts.root_dir,
    handlers = opts.handlers,
    flags = opts.flags,
  }
  M.create_commands()

  local group = vim.api.nvim_create_augroup('urlls', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = options.filetypes,
    callback = function(args)
      M.attach(args.buf)
    end,
    desc = 'urlls: attach the language server',
  })
  -- Buffers already open (setup() after the files, or a lazy-loaded plugin).
  local wanted = {}
  for _, ft in ipairs(options.filetypes) do
    wanted[ft] = true
  end
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and wanted[vim.bo[b].filetype] then
      M.attach(b)
    end
  end
end

--- Defines :UrllsFixAll (plugin/urlls.lua and setup() call it, so that a
--- plugin manager that puts the plugin on 'runtimepath' after startup gets
--- it too).
function M.create_commands()
  vim.api.nvim_create_user_command('UrllsFixAll', function()
    local n, err = M.fix_all(0)
    if not n then
      notify(err)
    elseif n == 0 then
      notify('nothing to fix', vim.log.levels.INFO)
    end
  end, { desc = 'urlls: apply every fix of the buffer (source.fixAll.urlls)' })
end

--- The options in force (after setup()), or nil.
function M.options()
  return options
end

--- Replaces the settings of every running urlls client and of those to
--- come, and tells the servers (workspace/didChangeConfiguration: they ask
--- for the "urlls" section again and re-check every open document).
function M.set_settings(settings)
  local s = M.normalize_settings(settings)
  if options then
    options.settings = s
  end
  for _, client in ipairs(M.clients()) do
    client.config.settings = { urlls = s }
    if client.settings ~= nil then -- 0.11+ answers from client.settings
      client.settings = { urlls = s }
    end
    client_notify(client, 'workspace/didChangeConfiguration', { settings = { urlls = s } })
  end
end

--- Applies every preferred fix of a buffer (0: the current one): the
--- source.fixAll.urlls code action. Waits up to timeout_ms (default 3000).
--- Returns the number of actions applied, or nil and an error message.
function M.fix_all(bufnr, timeout_ms)
  if bufnr == nil or bufnr == 0 then
    bufnr = vim.api.nvim_get_current_buf()
  end
  local clients = M.buf_clients(bufnr)
  if #clients == 0 then
    return nil, 'no urlls client is attached to this buffer'
  end
  local applied = 0
  for _, client in ipairs(clients) do
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(bufnr) },
      range = {
        start = { line = 0, character = 0 },
        ['end'] = { line = vim.api.nvim_buf_line_count(bufnr), character = 0 },
      },
      context = { diagnostics = {}, only = { FIX_ALL } },
    }
    local resp, err = client_request_sync(client, 'textDocument/codeAction', params, timeout_ms or 3000, bufnr)
    if not resp then
      return nil, 'textDocument/codeAction: ' .. tostring(err or 'no answer')
    end
    if resp.err then
      return nil, 'textDocument/codeAction: ' .. tostring(resp.err.message or vim.inspect(resp.err))
    end
    for _, action in ipairs(resp.result or {}) do
      if action.kind == FIX_ALL then
        if action.edit then
          vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding or 'utf-16')
        end
        if type(action.command) == 'table' then
          client_request(client, 'workspace/executeCommand', action.command, function() end, bufnr)
        end
        applied = applied + 1
      end
    end
  end
  return applied
end

return M
