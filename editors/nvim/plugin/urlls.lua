-- urlls.nvim: defines :UrllsFixAll. Starting the server is up to the user's
-- require('urlls').setup() (or, on Neovim 0.11+, vim.lsp.enable('urlls')).
if vim.g.loaded_urlls then
  return
end
vim.g.loaded_urlls = 1
require('urlls').create_commands()
