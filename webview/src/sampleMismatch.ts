// The sample view's train–inference mismatch: the sample's rollout and trainer log-probs along its
// response (a chart: Chart.js draws on a canvas), a table of every position with Δ (positions the
// loss mask leaves out read "masked", not a mismatch), and its worst tokens, with their text when the
// run's tokenizer is set (core/tokenizer/tokenText.ts escapes it to be visible). Token ids and texts,
// numbers and file names reach the page through textContent only, and the chart's tooltip draws text
// on its canvas.
import Chart from 'chart.js/auto';
import type { SampleMismatch } from '../../shared/sampleViewModel';
import { formatOrMissing } from '../../shared/numberFormat';
import { tokenLabel, tokenTextNote } from '../../shared/tokenLabels';
import { el, numCell, section } from './page';

/** Rows of the position table shown (the rest said in a line under it). */
export const MAX_POSITION_ROWS = 2048;

function tokenCell(id: number | null | undefined): HTMLTableCellElement {
  return el('td', id === null || id === undefined ? '–' : String(id), 'num mono');
}

/** A token's text (null: not in the tokenizer); its spaces kept, its edges marked by the cell's style. */
function textCell(m: SampleMismatch, text: string | null | undefined): HTMLTableCellElement {
  if (text === null || text === undefined) return el('td', m.tokenizer ? '(not in the tokenizer)' : '–', 'muted');
  const td = el('td', null, 'token-text');
  td.appendChild(el('span', text, 'mono'));
  return td;
}

export function renderSampleMismatch(app: HTMLElement, m: SampleMismatch): void {
  const s = section(
    app,
    'Train–inference mismatch',
    `From ${m.files.join(', ')}: the rollout engine's log-probs (rollout_log_probs) beside the trainer's (log_probs); Δ = trainer − rollout, only where the loss mask is 1.`,
  );
  s.id = 'train-mismatch';
  if (!m.hasTrainLogProbs) {
    s.appendChild(
      el('p', 'This train_data holds no trainer log_probs (the actor had not computed them at the dump): only the rollout log-probs are shown.', 'muted'),
    );
  }
  s.appendChild(
    el(
      'p',
      `${m.lossTokens} tokens in the loss mask${m.nonFinitePositions.length > 0 ? ` (and ${m.nonFinitePositions.length} whose log-prob is not finite)` : ''}, ${m.outsideMask} masked; mean |Δ| ${formatOrMissing(m.mean)}, max |Δ| ${formatOrMissing(m.max)}` +
        (m.positionsOmitted > 0 ? `; the first ${m.rolloutLogProbs.length} of ${m.responseLength} positions shown` : ''),
      'mismatch-summary',
    ),
  );
  const box = el('div', null, 'chart small');
  const canvas = el('canvas');
  canvas.id = 'chart-sample-mismatch';
  box.appendChild(canvas);
  s.appendChild(box);
  const masked = (series: (number | null)[]) => series.map((v, k) => (m.lossMask[k] === 0 ? null : v));
  new Chart(canvas, {
    type: 'line',
    data: {
      labels: m.rolloutLogProbs.map((_, k) => String(k)),
      datasets: [
        { label: 'rollout log-prob', data: masked(m.rolloutLogProbs), borderColor: '#8c959f', backgroundColor: '#8c959f', pointRadius: 0, spanGaps: false },
        { label: 'trainer log-prob', data: masked(m.trainLogProbs), borderColor: '#0969da', backgroundColor: '#0969da', pointRadius: 0, spanGaps: false },
        { label: 'Δ (trainer − rollout)', data: m.delta, borderColor: '#cf222e', backgroundColor: '#cf222e', pointRadius: 0, spanGaps: false },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'index', intersect: false },
      // The tooltip is drawn on the canvas: a token's text is text there, never markup.
      plugins: { tooltip: { callbacks: { title: (items) => (items.length > 0 ? tokenLabel(m, items[0].dataIndex) : '') } } },
      scales: { x: { title: { display: true, text: 'response token (masked positions left out)' } } },
    },
  });

  if (m.worstTokens.length > 0) {
    s.appendChild(el('h3', 'Worst tokens'));
    const worst = el('table');
    worst.id = 'mismatch-worst';
    const head = el('tr');
    for (const h of ['position', 'token id', 'text', 'rollout', 'trainer', 'Δ'])
      head.appendChild(el('th', h, h === 'position' || h === 'text' ? undefined : 'num'));
    worst.appendChild(head);
    for (const t of m.worstTokens) {
      const tr = el('tr');
      tr.append(el('td', t.position, 'num'), tokenCell(t.token), textCell(m, t.text), numCell(t.rolloutLogProb), numCell(t.trainLogProb), numCell(t.delta));
      worst.appendChild(tr);
    }
    s.appendChild(worst);
    const note = el('p', tokenTextNote(m), 'muted');
    note.id = 'mismatch-token-text';
    s.appendChild(note);
  }

  const details = el('details');
  details.appendChild(el('summary', 'Every position'));
  const table = el('table');
  table.id = 'mismatch-positions';
  const head = el('tr');
  for (const h of ['position', 'token id', 'text', 'loss mask', 'rollout', 'trainer', 'Δ'])
    head.appendChild(el('th', h, h === 'position' || h === 'text' ? undefined : 'num'));
  table.appendChild(head);
  const rows = Math.min(m.rolloutLogProbs.length, MAX_POSITION_ROWS);
  const nonFinite = new Set(m.nonFinitePositions);
  for (let k = 0; k < rows; k++) {
    const isMasked = m.lossMask[k] === 0;
    const tr = el('tr', null, isMasked ? 'masked' : undefined);
    tr.append(
      el('td', k, 'num'),
      tokenCell(m.tokens?.[k]),
      textCell(m, m.tokenTexts?.[k]),
      el('td', m.lossMask[k] === null ? '–' : String(m.lossMask[k]), 'num'),
    );
    tr.append(numCell(m.rolloutLogProbs[k]), numCell(m.trainLogProbs[k]));
    tr.appendChild(isMasked ? el('td', 'masked', 'num muted') : nonFinite.has(k) ? el('td', 'not finite', 'num wrong') : numCell(m.delta[k]));
    table.appendChild(tr);
  }
  details.appendChild(table);
  if (rows < m.rolloutLogProbs.length) details.appendChild(el('p', `… ${m.rolloutLogProbs.length - rows} more positions`, 'muted'));
  s.appendChild(details);
}
