// A run's rollout prompts across its steps (the engine's `PromptLearning`, core/compare/promptHistory.ts):
// prompts never learned, prompts solved and still sampled, and the tokens of groups that gave no
// gradient, each with its examples. Prompt ids and paths are log text: textContent only.
import type { PromptExample, RunSection } from '../../shared/runViewModel';
import { formatForPeople } from '../../shared/numberFormat';
import { el, section, vscode } from './page';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function examples(parent: HTMLElement, title: string, tokensTitle: string, list: PromptExample[], id: string): void {
  if (list.length === 0) return;
  parent.appendChild(el('h3', title));
  const table = el('table');
  table.id = id;
  const head = el('tr');
  for (const [h, cls] of [
    ['prompt', ''],
    ['groups', 'num'],
    [tokensTitle, 'num'],
    ['step', 'num'],
    ['example sample', ''],
  ])
    head.appendChild(el('th', h, cls || undefined));
  table.appendChild(head);
  for (const e of list) {
    const tr = el('tr', null, 'prompt-example');
    tr.appendChild(el('td', e.id, 'mono text'));
    tr.appendChild(el('td', e.groups, 'num'));
    tr.appendChild(el('td', e.tokens, 'num'));
    tr.appendChild(el('td', e.step ?? '', 'num'));
    const at = el('td', `${e.file}:${e.line}`, 'mono');
    const api = vscode;
    if (api) {
      at.className = 'mono reveal';
      at.title = 'Open the sample view of this line';
      at.addEventListener('click', () => api.postMessage({ type: 'sample', source: e.source, line: e.line }));
    }
    tr.appendChild(at);
    table.appendChild(tr);
  }
  parent.appendChild(table);
}

function share(part: number, whole: number): string {
  return whole > 0 ? ` (${formatForPeople((100 * part) / whole)}%)` : '';
}

/** The section of one run; nothing when the run has no rollout prompt. `id` suffixes the tables' ids. */
export function renderPrompts(app: HTMLElement, run: RunSection, id = ''): void {
  if (run.promptGroupsOmitted > 0) {
    section(
      app,
      'Prompts across steps',
      `Not followed here: the run has ${plural(run.promptGroupsOmitted, 'group')}, more than the run view follows. rollout-lens prompts follows them all.`,
    ).id = `prompts${id}`;
    return;
  }
  const learning = run.prompts;
  if (learning === null) return;
  const s = section(
    app,
    'Prompts across steps',
    `${plural(learning.prompts, 'prompt')} in ${plural(learning.groups, 'group')}. A prompt is solved in a step when one of its samples has reward 1; a group gives no gradient when it is dropped (zero_std_<r> included).`,
  );
  s.id = `prompts${id}`;
  const n = learning.neverLearned;
  const still = learning.solvedStillSampled;
  const w = learning.waste;
  const list = el('ul', null, 'prompt-counts');
  list.appendChild(el('li', `Never learned: ${plural(n.count, 'prompt')}${share(n.count, learning.prompts)}, ${n.tokens} response tokens spent on them.`));
  list.appendChild(
    el(
      'li',
      `Solved and still sampled: ${plural(still.count, 'prompt')}, ${plural(still.groups, 'later group')}, ${still.tokens} response tokens after they were solved.`,
    ),
  );
  list.appendChild(
    el('li', `Waste: ${w.tokens} of ${w.totalTokens} response tokens${share(w.tokens, w.totalTokens)} in ${plural(w.groups, 'group')} that gave no gradient.`),
  );
  s.appendChild(list);
  examples(s, 'Never learned', 'tokens', n.examples, `prompts-never${id}`);
  examples(s, 'Solved and still sampled', 'tokens after solved', still.examples, `prompts-still${id}`);
  examples(s, 'Most tokens without gradient', 'tokens without gradient', w.examples, `prompts-waste${id}`);
}
