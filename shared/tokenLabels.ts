// What the sample view says of a response token (webview/src/sampleMismatch.ts): the chart's tooltip
// title and the line under the worst tokens. Plain strings: the page sets them as text, and the
// chart draws its tooltip on a canvas.
import type { SampleMismatch } from './sampleViewModel';

/** The tooltip's title at position `k`: its token id and, with a tokenizer, its text in quotes (its spaces show). */
export function tokenLabel(m: SampleMismatch, k: number): string {
  const id = m.tokens?.[k];
  const text = m.tokenTexts?.[k];
  if (id === null || id === undefined) return `position ${k}`;
  return `position ${k} · token ${id}${text !== null && text !== undefined ? ` “${text}”` : ''}`;
}

/** The line under the worst tokens: where their text came from, or how to get it. */
export function tokenTextNote(m: SampleMismatch): string {
  if (m.tokenizer)
    return `Token text from ${m.tokenizer.file} (decoder ${m.tokenizer.decoder}); bytes that are not a whole UTF-8 character read \\xNN, control and direction characters as escapes.`;
  const how =
    "set rolloutLens.tokenizer (tokenizer: in rollout-lens.yaml, --tokenizer on the command line) to the run's tokenizer.json or its Hugging Face checkpoint folder to see their text.";
  if (m.tokenizerProblem) return `Tokens by id: ${m.tokenizerProblem}; ${how}`;
  return `Tokens by id: miles' sample holds no text per token; ${how}`;
}
