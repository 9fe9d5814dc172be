// The source of fastChecks.ts, written from the member tables: one function per table whose member
// checks are spelt out, so each is a named property load and a direct call (a loop over the table
// at run time was 10–15× slower a record). Not part of the engine's bundle: `node
// scripts/gen-fast-checks.mjs` writes the file after `tsc` (then prettier formats it), and
// test/unit/formats/memberTables.test.ts fails while the file is not what the tables give.
import type { Check, Member, MemberTable } from '../members/checks';

/** The tables whose fast checks are generated, in file order. */
export function fastChecksSource(tables: readonly MemberTable[]): string {
  const nested: MemberTable[] = [];
  const body: string[] = [];
  const camel = (t: MemberTable) => t.name.replace(/(^|[^a-zA-Z0-9])([a-zA-Z0-9])/g, (_, _s, c: string) => c.toUpperCase());
  const fnName = (t: MemberTable) => `is${camel(t)}Object`;
  const topName = (t: MemberTable) => `fast${camel(t)}`;
  const access = (holder: string, name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? `${holder}.${name}` : `${holder}[${JSON.stringify(name)}]`);
  const call = (m: Member, holder: string): string => {
    const v = access(holder, m.name);
    const c = m.check as Exclude<Check, null>;
    const req = m.required === true;
    if (typeof c === 'object') {
      if (!nested.includes(c)) nested.push(c);
      return req ? `${fnName(c)}(${v})` : `(none(${v}) || ${fnName(c)}(${v}))`;
    }
    const base = {
      integer: 'Integer',
      number: 'AnyNumber',
      text: 'Text',
      anyString: 'AnyString',
      id: 'Id',
      status: 'Status',
      reward: 'Reward',
      object: 'Object',
      present: 'Present',
    }[c];
    if (c === 'object' && req) return `isPlainObject(${v})`;
    if (c === 'present') return `isPresent(${v})`;
    return `${req ? 'is' : 'opt'}${base}(${v})`;
  };
  const fn = (t: MemberTable, isNested: boolean): string => {
    const checks = t.members.filter((m) => m.check !== null).map((m) => call(m, 'o'));
    if (isNested) checks.unshift('isPlainObject(o)');
    const doc = isNested ? `/** A \`${t.name}\` object: a plain object whose members pass. */` : `/** The members of a \`${t.name}\` record. */`;
    return `${doc}\nfunction ${isNested ? fnName(t) : topName(t)}(o: ${isNested ? 'unknown' : 'Obj'}): boolean {\n  return (\n    ${checks.join(' &&\n    ')}\n  );\n}\n`;
  };
  for (const t of tables) body.push(fn(t, false));
  for (let k = 0; k < nested.length; k++) body.push(fn(nested[k], true));
  const used = new Set<string>();
  const text = body.join('\n');
  for (const m of text.matchAll(/\b(none|is[A-Z]\w*|opt[A-Z]\w*)\(/g)) used.add(m[1]);
  for (const t of nested) used.delete(fnName(t));
  const fromChecks = used.delete('isPlainObject');
  const imports = [...used].sort((a, b) => a.localeCompare(b));
  // Not at the start of a line here: the engine's one-definition test reads exports by their lines.
  const exportLine = 'export const FAST_CHECKS: Readonly<Record<string, (o: Obj) => boolean>> = {';
  const entries = tables.map((t) => `  ${/^[A-Za-z_$][\w$]*$/.test(t.name) ? t.name : `'${t.name}'`}: ${topName(t)},`).join('\n');
  return `// Generated from the member tables (formats/members/) by fastSource.ts: do not edit; after a change
// to a table, \`npx tsc -p tsconfig.json && node scripts/gen-fast-checks.mjs\` writes it again.
${fromChecks ? "import { isPlainObject } from '../members/checks';\n" : ''}import { ${imports.join(', ')} } from './primitives';

type Obj = Record<string, unknown>;

${text}
/** The fast check of each table, by its name. */
${exportLine}
${entries}
};
`;
}
