// The scanner's one rule (formats/rule.ts) is made from the member tables' `build` kinds
// (formats/members/*.ts): it must be the rule the formats' readers rely on, hold every member's
// build, and refuse two tables that build one name differently.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { ALL_TABLES } from '../../../server/src/core/formats/members/all';
import type { Member, MemberTable } from '../../../server/src/core/formats/members/checks';
import { MILES_METADATA, MILES_SAMPLE } from '../../../server/src/core/formats/members/miles';
import { buildRule, MAX_STRING, tablesRule } from '../../../server/src/core/formats/rule';
import type { Child, Rule } from '../../../server/src/core/reader/jsonRule';

function scalars(children?: [string, Child][]): Rule {
  return { scalars: true, maxString: MAX_STRING, children: children ? new Map(children) : null };
}

/** The rule as it was spelt by hand before the tables gave it. */
const EXPECTED = scalars([
  ['prompt', 'hash'],
  ['input', 'hash'],
  ['label', 'hash'],
  ['reward', scalars()],
  ['metadata', scalars([['reward', scalars()]])],
  ['metrics', scalars()],
  ['loss_mask', 'sum'],
  ['weight_versions', 'list'],
  ['prefix_cache_info', scalars()],
  ['response', 'tail'],
]);

/** A rule as plain data, its members sorted (the scanner looks children up by name). */
function plain(child: Child | undefined): unknown {
  if (child === undefined || typeof child === 'string') return child;
  const members = child.children === null ? null : [...child.children].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, c]) => [k, plain(c)]);
  return { scalars: child.scalars, maxString: child.maxString, members };
}

test('rule: the member tables give the rule every format is scanned by', () => {
  assert.deepStrictEqual(plain(buildRule({})), plain(EXPECTED));
});

test("rule: the generic mapping's pointers are added to the tables' rule", () => {
  const rule = buildRule({ groupKey: '/extra/group', prompt: '/question/text', reward: '/metadata/score' });
  const expected = scalars([...(EXPECTED.children ?? [])]);
  expected.children?.set('extra', scalars([['group', scalars()]]));
  expected.children?.set('question', scalars([['text', 'hash']]));
  expected.children?.set(
    'metadata',
    scalars([
      ['reward', scalars()],
      ['score', scalars()],
    ]),
  );
  assert.deepStrictEqual(plain(rule), plain(expected));
});

test("rule: every table member's build is in the rule, at its path", () => {
  const rule = buildRule({});
  const at = (path: string[]): Child | undefined => {
    let child: Child | undefined = rule;
    for (const key of path) child = typeof child === 'object' ? (child.children?.get(key) ?? undefined) : undefined;
    return child;
  };
  let checked = 0;
  for (const table of ALL_TABLES) {
    const path = table === MILES_METADATA ? ['metadata'] : [];
    for (const m of table.members) {
      if (m.build === undefined) continue;
      const child = at([...path, m.name]);
      if (m.build === 'scalars') assert.ok(typeof child === 'object' && child.scalars, `${table.name}.${m.name}`);
      else assert.equal(child, m.build, `${table.name}.${m.name}`);
      checked++;
    }
  }
  assert.ok(checked >= 10, `${checked} builds checked`);
});

test("rule: a table member's build dropped is missing from the rule", () => {
  const members: readonly Member[] = MILES_SAMPLE.members;
  for (const m of members) {
    if (m.build === undefined) continue;
    const dropped: MemberTable = { name: MILES_SAMPLE.name, members: members.map((x): Member => (x === m ? { ...x, build: undefined } : x)) };
    const rule = tablesRule([dropped]);
    assert.equal(rule.children?.has(m.name) ?? false, false, m.name);
    assert.ok(tablesRule([MILES_SAMPLE]).children?.has(m.name), m.name);
  }
});

test('rule: two tables that build one member differently are refused', () => {
  const a: MemberTable = { name: 'a', members: [{ name: 'x', check: null, feeds: [], build: 'hash' }] };
  const b: MemberTable = { name: 'b', members: [{ name: 'x', check: null, feeds: [], build: 'sum' }] };
  assert.throws(() => tablesRule([a, b]), /b\.x builds sum/);
  assert.deepStrictEqual(plain(tablesRule([a, a])), plain(scalars([['x', 'hash']])));
});
