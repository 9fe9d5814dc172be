-- Neovim 0.7.2 as an independent LSP client of the Rollout Lens server (push diagnostics only).
-- Driven headless by nvim.test.ts; everything comes in through environment variables:
--   RL_SERVER   path of dist/server.js      RL_LOG    log file to open
--   RL_OUT      file to write results to    RL_ROOT   workspace root
--   RL_WAIT_MS  bound on every wait
-- Writes a JSON object {diagnostics, hover, client} to RL_OUT and exits 0, or exits 1 (cquit).
local server = os.getenv('RL_SERVER')
local log = os.getenv('RL_LOG')
local out = os.getenv('RL_OUT')
local root = os.getenv('RL_ROOT')
local wait_ms = tonumber(os.getenv('RL_WAIT_MS') or '20000')

local function fail(msg)
  local f = io.open(out, 'w')
  f:write(vim.fn.json_encode({ error = msg }))
  f:close()
  vim.cmd('cquit 1')
end

local ok, err = pcall(function()
  local client_id = vim.lsp.start_client({
    name = 'rollout-lens',
    cmd = { 'node', server, '--stdio' },
    root_dir = root,
    -- Neovim 0.7 does not announce workspace/configuration, so settings go in with initialize.
    init_options = { settings = { rolloutLens = { nSamplesPerPrompt = 4, dynamicFilter = 'check_reward_nonzero_std' } } },
  })
  if not client_id then fail('start_client failed') end

  vim.cmd('edit ' .. vim.fn.fnameescape(log))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(bufnr, client_id)

  local got = vim.wait(wait_ms, function() return #vim.diagnostic.get(bufnr) > 0 end, 20)
  if not got then fail('no diagnostics within ' .. wait_ms .. ' ms') end

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

  local f = io.open(out, 'w')
  f:write(vim.fn.json_encode({ diagnostics = diags, hover = hover, client = vim.version() }))
  f:close()
  vim.lsp.stop_client(client_id)
  vim.wait(wait_ms, function() return vim.lsp.get_client_by_id(client_id) == nil end, 20)
end)
if not ok then fail(tostring(err)) end
vim.cmd('qall!')
