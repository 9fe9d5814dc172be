// The sources of store/fieldRows.ts, fieldColumns.ts and fieldRowView.ts, written from the record
// columns (store/recordColumns.ts):
// each kind of column (store/columnKinds.ts) spelt out for each field of that kind, so a row's write is the same straight
// code a hand-written writer would be (a loop over the table per row would be a megamorphic call and
// a keyed load per field, for every sample of a million-sample file). Not part of the engine's
// bundle: `node scripts/gen-store-columns.mjs` writes the files after `tsc` (then prettier formats
// them), and test/unit/reader/recordColumns.test.ts fails while one is not what the table gives.
import { cap, KINDS, MILES_KINDS } from './columnKinds';
import type { Column, MilesColumn } from './recordColumns';

type Columns = Readonly<Record<string, Column>>;

/** What each file says of itself after the generated-file line. */
const HEADER = `// after a change to the table, \`npx tsc -p tsconfig.json && node scripts/gen-store-columns.mjs\`
// writes it again.`;

/**
 * The texts of the generated files for `columns` (store/recordColumns.ts RECORD_COLUMNS), by file
 * name in store/: the row and chunk types (fieldRows.ts), the columns' writer and readers
 * (fieldColumns.ts), a row read as a record (fieldRowView.ts).
 */
export function storeColumnSources(columns: Columns): Record<string, string> {
  const fields = Object.entries(columns);
  const of = (kind: Column['kind']) => fields.filter(([, col]) => col.kind === kind);
  const lines = (part: (f: string, col: Column) => string) =>
    fields
      .map(([f, col]) => part(f, col))
      .filter((s) => s !== '')
      .join('\n');
  const extras = of('extra').map(([f]) => f);
  const miles = of('miles').map(([f]) => f);
  const memoed = [...of('key'), ...of('label')].map(([f]) => f);

  const rowFields = fields.flatMap(([f, col]) => {
    const r = KINDS[col.kind].row(f, col);
    return r === null ? [] : [[...r, KINDS[col.kind].empty]];
  });
  const storeRow = rowFields.map(([name, type]) => `  ${name}: ${type};`).join('\n');
  const emptyRow = rowFields.map(([name, , empty]) => `    ${name}: ${empty},`).join('\n');

  const extrasOf = (from: string, to: string) => extras.map((f) => `if (${from}.${f} !== undefined) ${to}.${f} = ${from}.${f};`).join('\n');
  const pushExtras =
    extras.length === 0
      ? ''
      : `if (${extras.map((f) => `s.${f} !== undefined`).join(' || ')}) {
  const extras: Extras = {};
  ${extrasOf('s', 'extras')}
  this.keepExtras(row, extras);
}`;
  const flagParts = fields.flatMap(([f, col]) => {
    const part = KINDS[col.kind].flag;
    return part === undefined ? [] : [part(f, col)];
  });
  const milesWrite = miles.map((f) => `const m = r.${f};\nif (m !== undefined) flags |= this.putMiles(c, j, row, m, r);`).join('\n');
  if (miles.length !== 1) throw new Error('one miles column: its readers and writer are named for it');
  const milesField = miles[0];
  const milesColumns = Object.entries((columns[milesField] as { columns: Record<string, MilesColumn> }).columns);
  const milesParts = (part: (f: string, mc: MilesColumn) => string, join = '\n') => milesColumns.map(([f, mc]) => part(f, mc)).join(join);
  const sameRead = (mc: MilesColumn): string => {
    const same = (mc as { same?: string }).same;
    return same === undefined ? '' : KINDS[columns[same].kind].read(same, columns[same], 'flags');
  };
  const verdicts = milesColumns.filter(([, mc]) => mc.kind === 'verdict').map(([f]) => f);

  const readers = fields
    .filter(([, col]) => KINDS[col.kind].type !== null)
    .map(
      ([f, col]) => `  /** Row \`i\`'s \`${f}\`. */
  ${f}At(i: number): ${KINDS[col.kind].type} {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    return ${KINDS[col.kind].read(f, col, 'c.flags[j]')};
  }`,
    )
    .join('\n\n');
  const atRequired = fields
    .filter(([, col]) => !KINDS[col.kind].optional(col))
    .map(([f, col]) => `      ${f}: ${KINDS[col.kind].read(f, col, 'flags')},`)
    .join('\n');
  const atOptional = fields
    .filter(([, col]) => KINDS[col.kind].optional(col))
    .map(([f, col]) => {
      if (col.kind === 'extra') {
        return f !== extras[0]
          ? ''
          : `const extras = this.vars.get(i);
if (extras !== undefined) {
  ${extrasOf('extras', 'out')}
}`;
      }
      if (col.kind === 'miles') return `if ((flags & Flag.MILES) !== 0) out.${f} = this.milesFieldsAt(i);`;
      if (col.kind === 'flag') return `if (${KINDS.flag.read(f, col, 'flags')}) out.${f} = true;`;
      return `const ${f} = ${KINDS[col.kind].read(f, col, 'flags')};\nif (${f} !== null) out.${f} = ${f};`;
    })
    .filter((s) => s !== '')
    .join('\n');

  const offsetPutters = of('offset')
    .map(
      ([f]) => `  private put${cap(f)}(c: Chunk, j: number, v: number): void {
    if (j === 0) {
      c.${f}Base = v;
      c.wide${cap(f)} = null;
    }
    if (c.wide${cap(f)} !== null) {
      c.wide${cap(f)}[j] = v;
      return;
    }
    const d = v - c.${f}Base;
    if (d >= 0 && d <= 0xffffffff && Number.isInteger(d) && !Object.is(v, -0)) {
      if (c.${f}Delta !== null) c.${f}Delta[j] = d;
      else if (d !== j) c.${f}Delta = brokenCount(Uint32Array, 0, j, d);
      return;
    }
    const wide = new Float64Array(CHUNK);
    const delta = c.${f}Delta;
    for (let k = 0; k < j; k++) wide[k] = c.${f}Base + (delta === null ? k : delta[k]);
    wide[j] = v;
    c.wide${cap(f)} = wide;
  }`,
    )
    .join('\n\n');
  const hasReaders = of('optionalInt')
    .map(
      ([f]) => `  /** Whether any row has a \`${f}\`. */
  get has${cap(f)}s(): boolean {
    return this.chunks.some((c) => c.has${cap(f)});
  }`,
    )
    .join('\n\n');
  const viewGetters = fields
    .map(([f, col]) => {
      const read =
        col.kind === 'extra'
          ? `this.store.extrasAt(this.row)?.${f}`
          : col.kind === 'miles'
            ? `this.store.milesFieldsAt(this.row)`
            : `this.store.${f}At(this.row)`;
      const value = col.kind === 'flag' && KINDS.flag.optional(col) ? `${read} ? true : undefined` : read;
      const doc = col.kind === 'miles' ? `  /** A fresh object on each read (as \`at\` builds one): read it once where it is used. */\n` : '';
      return `${doc}  get ${f}(): SampleRecord['${f}'] {\n    return ${value};\n  }`;
    })
    .join('\n');

  // Not at the start of a line here: the engine's one-definition test reads exports by their lines.
  const exp = 'export';
  const generated = (what: string) => `// Generated from the record columns (store/recordColumns.ts) by store/columnSource.ts: do not edit;
${HEADER}
${what}`;
  return {
    'fieldRows.ts': `${generated(`// The row \`pushRow\` takes and the chunk's arrays, one or a few a record field
// (store/fieldColumns.ts writes and reads them).`)}
import type { MilesSampleFields, SampleRecord } from '../vocabulary/types';
import { CHUNK } from './chunk';

/** A row as \`pushRow\` takes it: a record's fields with its keys as table ids (\`-1\`: none), its status as its code. */
${exp} interface StoreRow {
${storeRow}
}

/** Creates an empty row for \`pushRow\` (callers reuse one). */
${exp} function emptyRow(): StoreRow {
  return {
${emptyRow}
  };
}

/** One row's miles fields as the sample metrics read them (\`FieldColumns.milesAt\` fills it): a list as its id (-1: null). */
${exp} interface MilesRow {
${milesParts((f, mc) => `  ${f}: ${MILES_KINDS[mc.kind].rowType(f)};`)}
}

/** An empty \`MilesRow\` for \`milesAt\` (callers reuse one). */
${exp} function emptyMilesRow(): MilesRow {
  return {
${milesParts((f, mc) => `    ${f}: ${MILES_KINDS[mc.kind].empty},`)}
  };
}

/** The record fields kept beside the columns, for the rows that have any. */
${exp} type Extras = Pick<SampleRecord, ${extras.map((f) => `'${f}'`).join(' | ') || 'never'}>;

/** One chunk of the store's rows: typed arrays of CHUNK rows, a column or a few for each record field. */
${exp} class Chunk {
${lines((f, col) => KINDS[col.kind].chunk(f, col))}
  /** store/rowFlags.ts: the rows' booleans and where their miles fields are. */
  readonly flags = new Uint16Array(CHUNK);

  copy(): Chunk {
    const c = new Chunk();
${lines((f, col) => KINDS[col.kind].copy(f, col))}
    c.flags.set(this.flags);
    return c;
  }
}
`,
    'fieldColumns.ts': `${generated(`// The store's columns of the record fields: the row's writer and each field's reader
// (store/sampleStore.ts and sampleColumns.ts hold the rest: the miles columns, the key tables' other
// ways in, slices).`)}
import type { MilesSampleFields, SampleRecord, SampleStatus } from '../vocabulary/types';
import { brokenCount, CHUNK, CHUNK_BITS, MASK, NULL, STATUS_CODE, STATUS_OF_CODE, withLabelCode } from './chunk';
import { takeChunk } from './chunkPool';
import { type Chunk, emptyMilesRow, emptyRow, type Extras, type MilesRow, type StoreRow } from './fieldRows';
import { IntOverflow } from './intOverflow';
import * as Flag from './rowFlags';
import { LastKeyId, StringTable } from './stringTable';

/**
 * The columns of a file's samples, one per record field (a few for some), in chunks of typed
 * arrays: rows are appended (\`push\`, \`pushRow\`), never changed, and read by field (\`<field>At\`)
 * or whole (\`at\`).
 */
${exp} abstract class FieldColumns {
  protected chunks: Chunk[] = [];
  protected count = 0;
  /** Group keys by first appearance. */
  groupKeys: StringTable;
  /** Prompt keys. */
  strings: StringTable;
  /** The label columns' values (few: their columns hold a byte while ids stay below 255). */
  labels: StringTable;
  /** Values an Int32 column cannot hold (null, fractions, beyond int32), by row. */
  protected overflow = new IntOverflow();
  /** Distinct lists of the miles list columns (rows mostly share one), by id. */
  protected lists: (string | number)[][] = [];
${verdicts.map((f) => `  /** miles \`${f}\` verdicts other than true and false, by row: rare. */\n  protected ${f}Other = new Map<number, Exclude<MilesSampleFields['${f}'], boolean>>();`).join('\n')}
  /** The fields kept beside the columns, of the rows that have any, as given. */
  protected vars = new Map<number, Extras>();
  /** The row \`push\` fills from a record before \`pushRow\` (rows are copied into the columns). */
  #pushed = emptyRow();
${memoed.map((f) => `  #${f}Ids = new LastKeyId();`).join('\n')}

  constructor(groupKeys = new StringTable(), strings = new StringTable(), labels = new StringTable()) {
    this.groupKeys = groupKeys;
    this.strings = strings;
    this.labels = labels;
  }

  get length(): number {
    return this.count;
  }

  /** The id of \`list\` in \`lists\` (one for each JSON text). */
  protected abstract listId(list: (string | number)[]): number;
  /** Keeps the fields beside the columns of row \`row\`. */
  protected abstract keepExtras(row: number, extras: Extras): void;

  push(s: SampleRecord): void {
    const r = this.#pushed;
${lines((f, col) => KINDS[col.kind].fromRecord(f, col))}
    const row = this.count;
    this.pushRow(r);
${pushExtras}
  }

  /**
   * Appends a row whose keys are ids already (\`groupKeys\`, \`strings\`): the per-line path of miles
   * samples (formats/milesSample/line.ts) writes its lines so, without a record or key strings. \`push\`
   * of the row's record stores the same columns.
   */
  pushRow(r: StoreRow): void {
    const row = this.count;
    const k = row >>> CHUNK_BITS;
    if (k === this.chunks.length) this.chunks.push(takeChunk());
    const c = this.chunks[k];
    const j = row & MASK;
${lines((f, col) => KINDS[col.kind].write(f, col))}
    let flags = ${flagParts.join(' | ') || '0'};
${milesWrite}
    c.flags[j] = flags;
    this.count = row + 1;
  }

  /** Forgets the last keys and labels given and their ids (the tables are new). */
  protected forgetLastIds(): void {
${memoed.map((f) => `    this.#${f}Ids = new LastKeyId();`).join('\n')}
  }

  /** Writes the miles fields \`m\` of row \`row\` (at \`j\` of \`c\`, the row \`r\`); returns its flags. */
  private putMiles(c: Chunk, j: number, row: number, m: MilesSampleFields, r: StoreRow): number {
    let flags = Flag.MILES;
${milesParts((f, mc) => MILES_KINDS[mc.kind].put(f, mc))}
    return flags;
  }

  /**
   * Row \`i\`'s miles fields into \`out\` (no record built); false when the row has none. Values
   * beyond int32 come from the overflow maps.
   */
  milesAt(i: number, out: MilesRow): boolean {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    const flags = c.flags[j];
    if ((flags & Flag.MILES) === 0) return false;
${milesParts((f, mc) => MILES_KINDS[mc.kind].read(f, mc, sameRead(mc)))}
    return true;
  }

  /** Row \`i\`'s miles fields as a record holds them (\`SampleRecord.${milesField}\`); undefined: none. */
  milesFieldsAt(i: number): MilesSampleFields | undefined {
    const m = emptyMilesRow();
    if (!this.milesAt(i, m)) return undefined;
    return {
${milesParts((f, mc) => `      ${f}: ${MILES_KINDS[mc.kind].field(f)},`)}
    };
  }

${offsetPutters}

${readers}

${hasReaders}

  /** Row \`i\`'s fields kept beside the columns, as given; undefined: none. */
  extrasAt(i: number): Extras | undefined {
    return this.vars.size === 0 ? undefined : this.vars.get(i);
  }

  /** Row \`i\` as a fresh record (equal to the one pushed). */
  at(i: number): SampleRecord {
    if (i < 0 || i >= this.count) throw new RangeError(\`sample \${i} of \${this.count}\`);
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    const flags = c.flags[j];
    const out: SampleRecord = {
${atRequired}
    };
${atOptional}
    return out;
  }
}
`,
    'fieldRowView.ts': `${generated(`// A row of the store read as a record, field by field.`)}
import type { SampleRecord } from '../vocabulary/types';
import type { FieldColumns } from './fieldColumns';

/**
 * Row \`row\` of \`store\` as a \`SampleRecord\` whose fields are read from the columns on each access:
 * an object of two fields, not a built record. Made where an analysis needs a record of a row (a
 * sample a finding names, verl's analyses, a spread prompt's entries); a check that reads many
 * rows reads them by position instead (\`sampleList.ts\`).
 * A view is not a copy: it is read while the store is, and never kept past the analysis.
 */
${exp} class RowView implements SampleRecord {
  constructor(
    private readonly store: FieldColumns,
    readonly row: number,
  ) {}

${viewGetters}
}
`,
  };
}
