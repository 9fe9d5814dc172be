// The prompt and response excerpts of the run view's listed samples, read back from their lines on
// disk once the model is built (core/views/runView.ts lists the samples and remembers where each is).
import type { RunView, SampleRef } from '../../../../shared/runViewModel';
import type { FileAccess } from '../seams/fileAccess';
import { readSampleLines, type SamplePlace } from '../scan/sampleLine';

/** Where each listed sample's line is, for `attachExcerpts` (kept out of the model itself). */
const places = new WeakMap<SampleRef, SamplePlace>();

/** Remembers where `ref`'s sample is, so that `attachExcerpts` can read its line. */
export function rememberPlace(ref: SampleRef, sample: SamplePlace): void {
  places.set(ref, { offset: sample.offset, byteLength: sample.byteLength });
}

/** A copy of a listed sample for one model, with its place (a file's part keeps its own refs for the next model). */
export function copyRef(ref: SampleRef): SampleRef {
  const copy = { ...ref };
  const place = places.get(ref);
  if (place) places.set(copy, place);
  return copy;
}

/** Characters of prompt and response kept per listed sample. */
export const EXCERPT_CHARS = 240;
/** Lines longer than this are not parsed for an excerpt (the list stays cheap on huge samples). */
export const EXCERPT_MAX_LINE_BYTES = 8 * 1024 * 1024;

/**
 * Fills `prompt`/`response` of the listed samples from their lines on disk (a bounded number of
 * samples: at most `samplesPerReason` per reason), file by file: a `.pt` dump's samples are all
 * read in one pass over it. The text is the log's: hostile, shown as text only.
 */
export async function attachExcerpts(view: RunView, access: FileAccess): Promise<void> {
  const bySource = new Map<string, { refs: SampleRef[]; places: SamplePlace[] }>();
  for (const refs of Object.values(view.samples)) {
    for (const ref of refs) {
      const place = places.get(ref);
      if (!place) continue;
      let file = bySource.get(ref.source);
      if (!file) bySource.set(ref.source, (file = { refs: [], places: [] }));
      file.refs.push(ref);
      file.places.push(place);
    }
  }
  for (const [source, file] of bySource) {
    const lines = await readSampleLines(access, source, file.places, EXCERPT_MAX_LINE_BYTES);
    file.refs.forEach((ref, k) => {
      const bytes = lines[k].bytes;
      if (bytes === null) return; // too long, changed or unreadable: no excerpt
      let record: unknown;
      try {
        record = JSON.parse(new TextDecoder().decode(bytes));
      } catch {
        return;
      }
      const { prompt, response } = excerptsOf(record);
      if (prompt !== null) ref.prompt = prompt;
      if (response !== null) ref.response = response;
    });
  }
}

function clip(text: string): string {
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

/** Text of a message's content: a string, or the text parts of a list. */
function contentText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const parts = content.map((p) =>
      typeof p === 'string' ? p : p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '',
    );
    return parts.join('');
  }
  return null;
}

/** The prompt (its last user message when it is a conversation) and the response of a record. */
export function excerptsOf(record: unknown): { prompt: string | null; response: string | null } {
  if (!record || typeof record !== 'object' || Array.isArray(record)) return { prompt: null, response: null };
  const r = record as Record<string, unknown>;
  let prompt: string | null = null;
  for (const key of ['prompt', 'messages', 'input', 'question']) {
    const v = r[key];
    if (typeof v === 'string') prompt = v;
    else if (Array.isArray(v)) {
      const users = v.filter((m) => m && typeof m === 'object' && (m as { role?: unknown }).role === 'user');
      const last = users[users.length - 1] ?? v[v.length - 1];
      prompt = last && typeof last === 'object' ? contentText((last as { content?: unknown }).content) : null;
    }
    if (prompt !== null) break;
  }
  let response: string | null = null;
  for (const key of ['response', 'output', 'completion']) {
    const v = r[key];
    if (typeof v === 'string') {
      response = v;
      break;
    }
  }
  return { prompt: prompt === null ? null : clip(prompt), response: response === null ? null : clip(response) };
}
