// What the scanner builds from a line (everything else is validated and skipped). One rule serves
// every format, so detection can look at any line before the format is known:
// - top level: scalars (short strings), and what each member table's members `build` (members/*.ts:
//   the `prompt`/`input` value as a hash, miles' `loss_mask` sum, `weight_versions` list,
//   `response` tail, the named scalars of an object `reward`, `metadata` and `metrics`);
// - a member whose check is a table (`metadata`): its scalars, and what that table's members build;
// - the `generic` format's mapped JSON pointers (settings `fields.*`).
import type { GenericFieldMap } from '../vocabulary/settings';
import type { Child, Rule } from '../reader/jsonRule';

import type { BuildKind, MemberTable } from './members/checks';
import { ALL_TABLES } from './members/all';
import { parsePointer } from './pointer';

/** Longest string built as text; longer ones (responses, long labels) stay `Skipped`. */
export const MAX_STRING = 1024;

function scalars(children?: [string, Child][]): Rule {
  return { scalars: true, maxString: MAX_STRING, children: children ? new Map(children) : null };
}

/** The rule for every format, extended with the generic mapping's paths. */
export function buildRule(fields: GenericFieldMap): Rule {
  const root = tablesRule(ALL_TABLES);
  for (const [name, pointer] of Object.entries(fields)) {
    if (typeof pointer !== 'string') continue;
    let path: string[];
    try {
      path = parsePointer(pointer);
    } catch {
      continue; // reported by the settings validation
    }
    addPath(root, path, name === 'prompt' ? 'hash' : scalars());
  }
  return root;
}

/**
 * The rule `tables` give: a line's members are those of every table not reached through another's
 * member (a nested table, such as miles' `metadata`, gives its member's children). Two tables that
 * build a member of the same name differently are a mistake in the tables: refused here.
 */
export function tablesRule(tables: readonly MemberTable[]): Rule {
  const nested = new Set<MemberTable>();
  for (const t of tables) for (const m of t.members) if (isTable(m.check)) nested.add(m.check);
  const children: [string, Child][] = [];
  for (const t of tables) if (!nested.has(t)) addMembers(children, t);
  return scalars(children);
}

function isTable(check: unknown): check is MemberTable {
  return check !== null && typeof check === 'object';
}

/** The children `table`'s members build, added to `into` (each name once). */
function addMembers(into: [string, Child][], table: MemberTable): void {
  for (const m of table.members) {
    if (m.build === undefined) continue;
    const child = childOf(m.build, m.check);
    const at = into.findIndex(([name]) => name === m.name);
    if (at < 0) into.push([m.name, child]);
    else if (JSON.stringify(ruleShape(into[at][1])) !== JSON.stringify(ruleShape(child))) {
      throw new Error(`${table.name}.${m.name} builds ${m.build}, another table's ${m.name} builds otherwise`);
    }
  }
}

function childOf(build: BuildKind, check: unknown): Child {
  if (build !== 'scalars') return build;
  if (!isTable(check)) return scalars();
  const children: [string, Child][] = [];
  addMembers(children, check);
  return scalars(children.length > 0 ? children : undefined);
}

/** A child as plain data, to compare two tables' builds of one name. */
function ruleShape(child: Child): unknown {
  return typeof child === 'string' ? child : [...(child.children ?? [])].map(([k, c]) => [k, ruleShape(c)]);
}

function addPath(root: Rule, path: string[], leaf: Rule | 'hash'): void {
  let at = root;
  path.forEach((key, k) => {
    const last = k === path.length - 1;
    at.children ??= new Map();
    const existing = at.children.get(key);
    if (last) {
      // A prompt pointer hashes; any other leaf needs its scalars (or an existing, larger rule).
      if (existing === undefined || leaf === 'hash') at.children.set(key, leaf);
      return;
    }
    if (existing === undefined || typeof existing === 'string') {
      const next = scalars();
      at.children.set(key, next);
      at = next;
    } else {
      at = existing;
    }
  });
}
