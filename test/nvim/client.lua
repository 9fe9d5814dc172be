-- Neovim 0.7.2 as an independent LSP client of the Rollout Lens server (push diagnostics only).
-- Driven headless by nvim.test.ts; everything comes in through environment variables:
--   RL_SERVER   path of dist/server.js      RL_LOG    log file to open
--   RL_OUT      file to write results to    RL_ROOT   workspace root
--   RL_WAIT_MS  bound on every wait
-- Writes a JSON object {diagnostics, hover, client} to RL_OUT and exits 0, or exits 1 (cquit);
-- the start, result and failure parts are driver.lua's.
local driver = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/driver.lua')
local log = os.getenv('RL_LOG')
local wait_ms = driver.wait_ms

driver.run(function()
  local client_id = driver.start({
    -- Neovim 0.7 does not announce workspace/configuration, so settings go in with initialize.
    init_options = { settings = { rolloutLens = { nSamplesPerPrompt = 4, dynamicFilter = 'check_reward_nonzero_std' } } },
  })
  local bufnr = driver.open(log, client_id)

  local got = vim.wait(wait_ms, function() return #vim.diagnostic.get(bufnr) > 0 end, 20)
  if not got then driver.fail('no diagnostics within ' .. wait_ms .. ' ms') end

  local diags = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = (d.user_data or {}).lsp or {}
    table.insert(diags, {
      lnum = d.lnum, col = d.col, severity = d.severity, source = d.source,
      message = d.message, code = lsp.code or d.code,
    })
  end

  -- A hover request on the first group-dropped line, through the same client.
  local first
  for _, d in ipairs(diags) do
    if d.code == 'group-dropped' and (first == nil or d.lnum < first) then first = d.lnum end
  end
  local hover = vim.NIL
  if first ~= nil then
    local client = vim.lsp.get_client_by_id(client_id)
    local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = first, character = 0 } }
    local resp = client.request_sync('textDocument/hover', params, wait_ms, bufnr)
    if resp and resp.result then hover = resp.result.contents.value end
  end

  driver.write({ diagnostics = diags, hover = hover, client = vim.version() })
  driver.stop(client_id)
end)
