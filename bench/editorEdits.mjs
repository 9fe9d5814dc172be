// The editor bench's edits: one-line incremental changes (what VS Code sends for the server's
// `Incremental` sync), each also applied to a copy of the text so the edited text can be checked.

/** Line starts (UTF-16 offsets) of a text. */
export function lineStarts(text) {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * Edits that change the log's recomputed metrics: one completed sample made truncated each (its
 * `rollout/truncated_ratio` moves; the same length of text, so positions stay as they were).
 */
export function metricEdits(text, count, rand) {
  const starts = lineStarts(text);
  const chosen = new Set();
  const edits = [];
  let current = text;
  while (edits.length < count) {
    const line = Math.floor(rand() * (starts.length - 1));
    const lineText = text.slice(starts[line], starts[line + 1] - 1);
    const c = lineText.indexOf('"status": "completed"') + 11;
    if (c < 11 || chosen.has(line)) continue;
    chosen.add(line);
    edits.push({ range: { start: { line, character: c }, end: { line, character: c + 9 } }, text: 'truncated' });
    const at = starts[line] + c;
    current = current.slice(0, at) + 'truncated' + current.slice(at + 9);
  }
  return { edits, finalText: current };
}

/**
 * Mixed edits: flip a status, change a group key, break a line's JSON and mend it, insert a copied
 * line, delete a line. Returns the changes and the text they leave.
 */
export function makeEdits(text, count, rand) {
  const edits = [];
  let current = text;
  for (let k = 0; k < count; k++) {
    const starts = lineStarts(current);
    const lineCount = starts.length - 1; // the text ends with '\n'
    const line = Math.floor(rand() * lineCount);
    const lineText = current.slice(starts[line], starts[line + 1] - 1);
    const kind = k % 5;
    let change;
    const at = (needle) => lineText.indexOf(needle);
    const pos = (col) => ({ line, character: col });
    if (kind === 0 && at('"status": "') >= 0) {
      const c = at('"status": "') + 11;
      const end = lineText.indexOf('"', c);
      const next = lineText.slice(c, end) === 'aborted' ? 'completed' : 'aborted';
      change = { range: { start: pos(c), end: pos(end) }, text: next };
    } else if (kind === 1) {
      const c = at('"group_index": ') + 15;
      const end = lineText.indexOf(',', c);
      change = { range: { start: pos(c), end: pos(end) }, text: String(Number(lineText.slice(c, end)) + 1) };
    } else if (kind === 2) {
      change = { range: { start: pos(0), end: pos(1) }, text: '[' }; // invalid JSON ...
    } else if (kind === 3) {
      change = { range: { start: { line: line + 1, character: 0 }, end: { line: line + 1, character: 0 } }, text: `${lineText}\n` };
    } else {
      change = { range: { start: { line, character: 0 }, end: { line: line + 1, character: 0 } }, text: '' };
    }
    const s = starts[change.range.start.line] + change.range.start.character;
    const e = starts[change.range.end.line] + change.range.end.character;
    current = current.slice(0, s) + change.text + current.slice(e);
    edits.push(change);
    if (kind === 2) {
      // ... and mended by the next edit
      edits.push({ range: { start: pos(0), end: pos(1) }, text: '{' });
      current = current.slice(0, s) + '{' + current.slice(s + 1);
      k++;
    }
  }
  return { edits, finalText: current };
}
