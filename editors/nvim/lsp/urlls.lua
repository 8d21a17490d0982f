-- urlls for Neovim 0.11+'s native configuration:
--
--   vim.lsp.config('urlls', { settings = { urlls = { ignore = { 'http://localhost*' } } } })
--   vim.lsp.enable('urlls')
--
-- Neovim answers the server's workspace/configuration request for the
-- "urlls" section from settings.urlls. Keys: severity, strict, ignore,
-- languages (as in .urlls.json). An empty table is sent as a JSON array,
-- which the server rejects: write vim.empty_dict() for an empty map.
return {
  cmd = { 'urlls' },
  filetypes = { 'markdown', 'html', 'text' },
  root_markers = { '.urlls.json', '.git' },
  settings = { urlls = vim.empty_dict() },
}
