-- What the Neovim drivers (client.lua, runLevel.lua) share: where the result goes (RL_OUT), the
-- bound on every wait (RL_WAIT_MS), failing with a message, and starting, attaching and stopping
-- the Rollout Lens client. Loaded with dofile from the driver's own folder.
local M = {}

M.out = os.getenv('RL_OUT')
M.wait_ms = tonumber(os.getenv('RL_WAIT_MS') or '20000')

--- Writes `result` as JSON to RL_OUT.
function M.write(result)
  local f = io.open(M.out, 'w')
  f:write(vim.fn.json_encode(result))
  f:close()
end

--- Writes {error = msg} and exits 1.
function M.fail(msg)
  M.write({ error = msg })
  vim.cmd('cquit 1')
end

--- Starts the server `node <RL_SERVER> --stdio` as client 'rollout-lens' with `extra` start options.
function M.start(extra)
  local config = { name = 'rollout-lens', cmd = { 'node', os.getenv('RL_SERVER'), '--stdio' }, root_dir = os.getenv('RL_ROOT') }
  for k, v in pairs(extra or {}) do config[k] = v end
  local client_id = vim.lsp.start_client(config)
  if not client_id then M.fail('start_client failed') end
  return client_id
end

--- Edits `path` in a buffer attached to the client; returns the buffer.
function M.open(path, client_id)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(bufnr, client_id)
  return bufnr
end

--- Stops the client and waits until it is gone.
function M.stop(client_id)
  vim.lsp.stop_client(client_id)
  vim.wait(M.wait_ms, function() return vim.lsp.get_client_by_id(client_id) == nil end, 20)
end

--- Runs the driver's body; an error in it fails the run, else Neovim quits.
function M.run(body)
  local ok, err = pcall(body)
  if not ok then M.fail(tostring(err)) end
  vim.cmd('qall!')
end

return M
