-- The harness of the headless Neovim tests (server_test.lua, plugin_test.lua):
-- counted checks written to stdout (print goes to stderr in Neovim 0.7), the
-- first failure aborts the test (every step needs the one before), a
-- watchdog that ends Neovim even if a request hangs, and a last line
-- "NAME: N passed, M failed" followed by `cquit 1` on any failure.
--
--   local T = dofile(<dir> .. '/harness.lua').new('nvim', TIMEOUT, 6)
--   T.check('name', cond, detail); T.wait('what', cond); T.run(main)

local M = {}

-- new returns a test named name (the summary's first word) whose waits
-- last timeout_ms and whose watchdog fires after watchdog_factor of them.
function M.new(name, timeout_ms, watchdog_factor)
  local t = { passed = 0, failed = 0, Abort = {} }

  function t.out(...)
    io.stdout:write(table.concat({ ... }, ' '), '\n')
    io.stdout:flush()
  end

  local function summary(failed)
    return string.format('%s: %d passed, %d failed', name, t.passed, failed)
  end

  function t.abort(msg)
    t.failed = t.failed + 1
    t.out('FAIL: ' .. msg)
    error(t.Abort)
  end

  function t.check(check_name, cond, detail)
    if cond then
      t.passed = t.passed + 1
      t.out('ok   ' .. check_name)
    else
      t.abort(check_name .. (detail and (': ' .. tostring(detail)) or ''))
    end
  end

  function t.wait(what, cond, ms)
    if not vim.wait(ms or timeout_ms, cond, 10) then
      t.abort('timed out after ' .. (ms or timeout_ms) .. ' ms waiting for ' .. what)
    end
  end

  -- run runs main under the watchdog (vim.wait and buf_request_sync keep the
  -- event loop running, so it fires even in a hung request), prints the
  -- summary and quits Neovim.
  function t.run(main)
    local limit = watchdog_factor * timeout_ms
    local watchdog = vim.loop.new_timer()
    watchdog:start(limit, 0, vim.schedule_wrap(function()
      t.out('FAIL: watchdog: the test did not finish within ' .. limit .. ' ms')
      t.out(summary(t.failed + 1))
      vim.cmd('cquit 1')
    end))
    local ok, err = pcall(main)
    if not ok and err ~= t.Abort then
      t.failed = t.failed + 1
      t.out('FAIL: lua error: ' .. tostring(err))
    end
    watchdog:stop()
    t.out(summary(t.failed))
    if t.failed > 0 then
      vim.cmd('cquit 1')
    end
    vim.cmd('qall!')
  end

  return t
end

return M
