-- Neovim 0.7.2 as an LSP client of Rollout Lens on a run folder: the metrics log's run-level
-- findings, before and after an unsaved edit of the eval dump. Driven headless by nvim.test.ts;
-- everything comes in through environment variables:
--   RL_SERVER    path of dist/server.js           RL_ROOT     the run folder (client root)
--   RL_METRICS   the metrics log to open           RL_DUMP     the eval dump to edit
--   RL_EDIT_LINE 1-based line of the dump to edit  RL_EDIT_FROM / RL_EDIT_TO  text replaced there
--   RL_EXPECTED / RL_AFTER  JSON lists of sorted "code<TAB>line0<TAB>severity<TAB>message" lines
--   RL_OUT       file to write results to          RL_WAIT_MS  bound on every wait
-- Writes a JSON object {before, after} to RL_OUT and exits 0, or exits 1 (cquit); the start,
-- result and failure parts are driver.lua's.
local driver = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/driver.lua')
local wait_ms = driver.wait_ms

local function lines_of(bufnr)
  local lines = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = (d.user_data or {}).lsp or {}
    table.insert(lines, string.format('%s\t%d\t%d\t%s', lsp.code or d.code, d.lnum, d.severity, d.message))
  end
  table.sort(lines)
  return lines
end

local function equal(a, b)
  if #a ~= #b then return false end
  for i = 1, #a do
    if a[i] ~= b[i] then return false end
  end
  return true
end

driver.run(function()
  local expected = vim.fn.json_decode(os.getenv('RL_EXPECTED'))
  local after = vim.fn.json_decode(os.getenv('RL_AFTER'))
  local client_id = driver.start()

  local metrics = driver.open(os.getenv('RL_METRICS'), client_id)
  vim.wait(wait_ms, function() return equal(lines_of(metrics), expected) end, 20)
  local before = lines_of(metrics)

  local dump = driver.open(os.getenv('RL_DUMP'), client_id)
  if not vim.wait(wait_ms, function() return #vim.diagnostic.get(dump) > 0 end, 20) then
    driver.fail('no diagnostics on the eval dump within ' .. wait_ms .. ' ms')
  end
  -- The edit a user makes in the buffer (not saved): one reward changed.
  local n = tonumber(os.getenv('RL_EDIT_LINE'))
  local line = vim.api.nvim_buf_get_lines(dump, n - 1, n, true)[1]
  local from, to = os.getenv('RL_EDIT_FROM'), os.getenv('RL_EDIT_TO')
  local s, e = string.find(line, from, 1, true)
  if not s then driver.fail('line ' .. n .. ' has no ' .. from) end
  vim.api.nvim_buf_set_lines(dump, n - 1, n, true, { line:sub(1, s - 1) .. to .. line:sub(e + 1) })
  vim.wait(wait_ms, function() return equal(lines_of(metrics), after) end, 20)

  driver.write({ before = before, after = lines_of(metrics) })
  driver.stop(client_id)
end)
