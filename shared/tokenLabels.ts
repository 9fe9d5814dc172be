// What the views say of a response token (webview/src/sampleMismatch.ts, runExtraCharts.ts): the
// chart's tooltip title and the line under the worst tokens. Plain strings: the pages set them as
// text, and the chart draws its tooltip on a canvas.
import type { TokenizerNote } from './runViewModel';
import type { SampleMismatch } from './sampleViewModel';

/** The tooltip's title at position `k`: its token id and, with a tokenizer, its text in quotes (its spaces show). */
export function tokenLabel(m: SampleMismatch, k: number): string {
  const id = m.tokens?.[k];
  const text = m.tokenTexts?.[k];
  if (id === null || id === undefined) return `position ${k}`;
  return `position ${k} · token ${id}${text !== null && text !== undefined ? ` “${text}”` : ''}`;
}

/** Where the tokenizer came from, in words (core/tokenizer/runTokenizer.ts). */
export function tokenizerSource(t: TokenizerNote): string {
  if (t.from === 'dump') return `${t.file}, the tokenizer miles saved in the dump folder`;
  if (t.from === 'hf_checkpoint') return `${t.file}, in the hf_checkpoint ${t.namedBy ?? 'the dashboard'} names`;
  return `${t.file} (the tokenizer setting)`;
}

/** The line under a list of worst tokens: where their text came from, or how to get it. */
export function tokenTextNote(m: { tokenizer: TokenizerNote | null; tokenizerProblem: string | null }): string {
  if (m.tokenizer)
    return `Token text from ${tokenizerSource(m.tokenizer)} (decoder ${m.tokenizer.decoder}); bytes that are not a whole UTF-8 character read \\xNN, control and direction characters as escapes.`;
  const how =
    "set rolloutLens.tokenizer (tokenizer: in rollout-lens.yaml, --tokenizer on the command line) to the run's tokenizer.json or its Hugging Face checkpoint folder to see their text.";
  if (m.tokenizerProblem) return `Tokens by id: ${m.tokenizerProblem}; ${how}`;
  return `Tokens by id: miles' sample holds no text per token, and the dump folder holds no tokenizer (miles saves one in tokenizer/ when it loads its global dataset); ${how}`;
}
