// The editor bench's baseline for didOpen: what any JSON-RPC client and server spend on the
// notification's bytes alone, before the server's handler runs.

const didOpen = (uri, text) => ({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'jsonl', version: 1, text } } });

/** What the client itself spends turning the didOpen into bytes (VS Code's client does the same). */
export function clientSerializationMs(uri, text) {
  const t0 = performance.now();
  const json = JSON.stringify(didOpen(uri, text));
  Buffer.from(json, 'utf8');
  return performance.now() - t0;
}

/** What any JSON-RPC server does with those bytes before its handler runs: join the chunks, decode, parse. */
export function messageReceiveMs(uri, text) {
  const bytes = Buffer.from(JSON.stringify(didOpen(uri, text)), 'utf8');
  const chunks = [];
  for (let i = 0; i < bytes.length; i += 65536) chunks.push(Buffer.from(bytes.subarray(i, i + 65536)));
  const t0 = performance.now();
  JSON.parse(Buffer.concat(chunks).toString('utf8'));
  return performance.now() - t0;
}
