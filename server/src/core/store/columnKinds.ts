// Each kind of column of the sample store (store/recordColumns.ts `Column`) as code: what a field of
// that kind is in each part of the store's generated files (fieldRows.ts, fieldColumns.ts,
// fieldRowView.ts), which store/columnSource.ts assembles: the encodings of each kind, with the
// field's name in them.
import type { Column, MilesColumn } from './recordColumns';

/** What one field of a kind is in each part of the generated files (`f`: the field's name). */
export interface KindCode {
  /** The row's field and its type; null: not in the row. */
  row(f: string, col: Column): [string, string] | null;
  /** The row's field's value in `emptyRow`. */
  empty: string;
  /** `Chunk`'s declarations. */
  chunk(f: string, col: Column): string;
  /** `Chunk.copy`'s lines (the copy `c`). */
  copy(f: string, col: Column): string;
  /** `push`: the row `r`'s field from the record `s`. */
  fromRecord(f: string, col: Column): string;
  /** `pushRow`: writes `r`'s field into chunk `c` at `j` (row `row`). */
  write(f: string, col: Column): string;
  /** The field's part of the row's flags. */
  flag?(f: string, col: Column): string;
  /** The reader `<f>At(i)`'s type; null: no reader. */
  type: string | null;
  /** The value of row `i` (at `j` of chunk `c`, its flags `flags`). */
  read(f: string, col: Column, flags: string): string;
  /** The field is set on a record only when it has a value (`at` adds it after the others). */
  optional(col: Column): boolean;
}

export const cap = (f: string): string => f[0].toUpperCase() + f.slice(1);
const nothing = (): string => '';
const always = (): boolean => false;
const copyArray = (f: string): string => `c.${f}.set(this.${f});`;
const copyRef = (f: string): string => `c.${f} = this.${f}.slice();`;
const copyCounted = (f: string): string => `c.${f}First = this.${f}First;\nc.${f} = this.${f} && this.${f}.slice();`;
const plain = (f: string): string => `r.${f} = s.${f};`;
const bitOf = (col: Column): string => (col as { bit: string }).bit;
const intCode = (f: string, v: string): string => `this.overflow.code(row, '${f}', ${v})`;
const intValue = (f: string, code: string): string => `this.overflow.value(${code}, i, '${f}')`;
/** Writes `v` into the counting column `f` (its array's type `array`). */
const countOn = (f: string, v: string, array: string): string =>
  `if (j === 0) c.${f}First = ${v};
if (c.${f} !== null) c.${f}[j] = ${v};
else if (${v} !== c.${f}First + j) c.${f} = brokenCount(${array}, c.${f}First, j, ${v});`;

export const KINDS: Record<Column['kind'], KindCode> = {
  count: {
    row: (f) => [f, 'number'],
    empty: '0',
    chunk: (f) => `/** \`${f}First\` + the row's position, until a row breaks the count (then an array). */\n${f}First = 0;\n${f}: Uint32Array | null = null;`,
    copy: copyCounted,
    fromRecord: plain,
    write: (f) => countOn(f, `r.${f}`, 'Uint32Array'),
    type: 'number',
    read: (f) => `c.${f} === null ? c.${f}First + j : c.${f}[j]`,
    optional: always,
  },
  intCount: {
    row: (f) => [f, 'number | null'],
    empty: 'null',
    chunk: (f) =>
      `/** Int32 codes (store/intOverflow.ts): \`${f}First\` + the row's position, until a row breaks the count. */\n${f}First = 0;\n${f}: Int32Array | null = null;`,
    copy: copyCounted,
    fromRecord: plain,
    write: (f) => `const ${f}Code = ${intCode(f, `r.${f}`)};\n${countOn(f, `${f}Code`, 'Int32Array')}`,
    type: 'number | null',
    read: (f) => intValue(f, `c.${f} === null ? c.${f}First + j : c.${f}[j]`),
    optional: always,
  },
  offset: {
    row: (f) => [f, 'number'],
    empty: '0',
    chunk: (f) =>
      `/** The chunk's first row's ${f} + a Uint32 delta (counting from 0), or all in \`wide${cap(f)}\` once one does not fit. */
${f}Base = 0;
${f}Delta: Uint32Array | null = null;
wide${cap(f)}: Float64Array | null = null;`,
    copy: (f) =>
      `c.${f}Base = this.${f}Base;\nc.${f}Delta = this.${f}Delta && this.${f}Delta.slice();\nc.wide${cap(f)} = this.wide${cap(f)} && this.wide${cap(f)}.slice();`,
    fromRecord: plain,
    write: (f) => `this.put${cap(f)}(c, j, r.${f});`,
    type: 'number',
    read: (f) => `c.wide${cap(f)} !== null ? c.wide${cap(f)}[j] : c.${f}Base + (c.${f}Delta === null ? j : c.${f}Delta[j])`,
    optional: always,
  },
  uint32: {
    row: (f) => [f, 'number'],
    empty: '0',
    chunk: (f) => `readonly ${f} = new Uint32Array(CHUNK);`,
    copy: copyArray,
    fromRecord: plain,
    write: (f) => `c.${f}[j] = r.${f};`,
    type: 'number',
    read: (f) => `c.${f}[j]`,
    optional: always,
  },
  key: {
    row: (_f, col) => [(col as { row: string }).row, 'number'],
    empty: '-1',
    chunk: (f) => `readonly ${f} = new Int32Array(CHUNK);`,
    copy: copyArray,
    fromRecord: (f, col) => {
      const { table, row } = col as { table: string; row: string };
      return `r.${row} = this.#${f}Ids.of(this.${table}, s.${f});`;
    },
    write: (f, col) => `c.${f}[j] = r.${(col as { row: string }).row};`,
    type: 'string | null',
    read: (f, col) => `this.${(col as { table: string }).table}.value(c.${f}[j])`,
    optional: always,
  },
  label: {
    row: (f) => [f, 'string | null'],
    empty: 'null',
    chunk: (f) => `/** Label ids + 1 (0: null): a byte each until an id needs more. */\n${f}: Uint8Array | Int32Array = new Uint8Array(CHUNK);`,
    copy: copyRef,
    fromRecord: plain,
    write: (f) => `c.${f} = withLabelCode(c.${f}, j, this.#${f}Ids.of(this.labels, r.${f}) + 1);`,
    type: 'string | null',
    read: (f) => `this.labels.value(c.${f}[j] - 1)`,
    optional: always,
  },
  int: {
    row: (f) => [f, 'number | null'],
    empty: 'null',
    chunk: (f) => `/** Int32 codes (store/intOverflow.ts). */\nreadonly ${f} = new Int32Array(CHUNK);`,
    copy: copyArray,
    fromRecord: plain,
    write: (f) => `c.${f}[j] = ${intCode(f, `r.${f}`)};`,
    type: 'number | null',
    read: (f) => intValue(f, `c.${f}[j]`),
    optional: always,
  },
  chunkConstant: {
    row: (f) => [f, 'number | null'],
    empty: 'null',
    chunk: (f) => `/** Int32 codes: the chunk's first row's in \`${f}First\` until a row differs. */\n${f}First = 0;\n${f}: Int32Array | null = null;`,
    copy: copyCounted,
    fromRecord: plain,
    write: (f) => `const ${f}Code = ${intCode(f, `r.${f}`)};
if (j === 0) c.${f}First = ${f}Code;
if (c.${f} !== null) c.${f}[j] = ${f}Code;
else if (${f}Code !== c.${f}First) {
  c.${f} = new Int32Array(CHUNK).fill(c.${f}First, 0, j);
  c.${f}[j] = ${f}Code;
}`,
    type: 'number | null',
    read: (f) => intValue(f, `c.${f} !== null ? c.${f}[j] : c.${f}First`),
    optional: always,
  },
  optionalInt: {
    row: (f) => [f, 'number | null'],
    empty: 'null',
    chunk: (f) =>
      `/** Int32 codes, made when a row first has one (NULL for the rows before it). */
${f}: Int32Array | null = null;
/** Whether a row of this chunk has a ${f} (a reused chunk may hold an earlier file's array). */
has${cap(f)} = false;`,
    copy: (f) => `c.${f} = this.${f} && this.${f}.slice();\nc.has${cap(f)} = this.has${cap(f)};`,
    fromRecord: (f) => `r.${f} = s.${f} ?? null;`,
    write: (f) => `if (j === 0) c.has${cap(f)} = false;
if (r.${f} !== null || c.${f} !== null) {
  c.${f} ??= new Int32Array(CHUNK).fill(NULL);
  c.${f}[j] = ${intCode(f, `r.${f}`)};
  if (r.${f} !== null) c.has${cap(f)} = true;
}`,
    type: 'number | null',
    read: (f) => `c.${f} === null ? null : ${intValue(f, `c.${f}[j]`)}`,
    optional: () => true,
  },
  status: {
    row: (f) => [f, 'number'],
    empty: '0',
    chunk: (f) => `/** Codes (store/chunk.ts STATUS_CODE). */\nreadonly ${f} = new Uint8Array(CHUNK);`,
    copy: copyArray,
    fromRecord: (f) => `r.${f} = STATUS_CODE.get(s.${f}) ?? 0;`,
    write: (f) => `c.${f}[j] = r.${f};`,
    type: 'SampleStatus | null',
    read: (f) => `STATUS_OF_CODE[c.${f}[j]]`,
    optional: always,
  },
  flag: {
    row: (f) => [f, 'boolean'],
    empty: 'false',
    chunk: nothing,
    copy: nothing,
    fromRecord: (f, col) => ((col as { optional?: true }).optional ? `r.${f} = s.${f} === true;` : plain(f)),
    write: nothing,
    flag: (f, col) => `(r.${f} ? Flag.${bitOf(col)} : 0)`,
    type: 'boolean',
    read: (_f, col, flags) => `(${flags} & Flag.${bitOf(col)}) !== 0`,
    optional: (col) => (col as { optional?: true }).optional === true,
  },
  reward: {
    row: (f) => [f, 'number | null'],
    empty: 'null',
    chunk: (f) => `/** Single precision until a value is not exactly a float32. */\n${f}: Float32Array | Float64Array = new Float32Array(CHUNK);`,
    copy: copyRef,
    fromRecord: plain,
    write: (f) => `const ${f} = r.${f} ?? 0;
if (c.${f}.BYTES_PER_ELEMENT === 4 && Math.fround(${f}) !== ${f} && ${f} === ${f}) c.${f} = Float64Array.from(c.${f});
c.${f}[j] = ${f};`,
    flag: (f, col) => `(r.${f} !== null ? Flag.${bitOf(col)} : 0)`,
    type: 'number | null',
    read: (f, col, flags) => `(${flags} & Flag.${bitOf(col)}) !== 0 ? c.${f}[j] : null`,
    optional: always,
  },
  extra: {
    row: () => null,
    empty: '',
    chunk: nothing,
    copy: nothing,
    fromRecord: nothing,
    write: nothing,
    type: null,
    read: () => '',
    optional: () => true,
  },
  miles: {
    row: (f) => [f, 'MilesSampleFields | undefined'],
    empty: 'undefined',
    chunk: (_f, col) =>
      `/** miles columns (store/recordColumns.ts MILES_COLUMNS), made when a row first needs one: files without these fields pay nothing for them. */\n${milesLines(col, (m, mc) => MILES_KINDS[mc.kind].chunk(m))}`,
    copy: (_f, col) => milesLines(col, (m, mc) => MILES_KINDS[mc.kind].copy(m)),
    fromRecord: plain,
    write: nothing,
    type: null,
    read: () => '',
    optional: () => true,
  },
};

/** The lines `part` gives for each miles field of `col` (a `miles` column). */
function milesLines(col: Column, part: (f: string, mc: MilesColumn) => string): string {
  return Object.entries((col as { columns: Record<string, MilesColumn> }).columns)
    .map(([f, mc]) => part(f, mc))
    .filter((s) => s !== '')
    .join('\n');
}

/** What one miles field of a kind is in each part of the generated files (`f`: the field's name in `MilesSampleFields`). */
export interface MilesKindCode {
  /** `Chunk`'s declarations. */
  chunk(f: string): string;
  /** `Chunk.copy`'s lines. */
  copy(f: string): string;
  /** `putMiles`: writes `m`'s field (row `row`, at `j` of `c`, the row `r`), or its bits into `flags`. */
  put(f: string, col: MilesColumn): string;
  /** The field's type and empty value in `MilesRow`. */
  rowType(f: string): string;
  empty: string;
  /** `milesAt`: the row's value into `out` (`sameRead`: the value of the column `sameOrInt` names). */
  read(f: string, col: MilesColumn, sameRead: string): string;
  /** `milesFieldsAt`: the record's value from the `MilesRow` `m`. */
  field(f: string): string;
}

const lazyColumn = (f: string): string => `${f}: Int32Array | null = null;`;
const lazyCopy = (f: string): string => `c.${f} = this.${f} && this.${f}.slice();`;
const bits = (col: MilesColumn) => col as unknown as Record<string, string>;

export const MILES_KINDS: Record<MilesColumn['kind'], MilesKindCode> = {
  sameOrInt: {
    chunk: lazyColumn,
    copy: lazyCopy,
    put: (f, col) => `if (Object.is(m.${f}, r.${bits(col).same})) flags |= Flag.${bits(col).sameBit};
else if (m.${f} === null) flags |= Flag.${bits(col).nullBit};
else (c.${f} ??= new Int32Array(CHUNK))[j] = ${intCode(f, `m.${f}`)};`,
    rowType: () => 'number | null',
    empty: 'null',
    read: (f, col, sameRead) =>
      `out.${f} = flags & Flag.${bits(col).sameBit} ? ${sameRead} : flags & Flag.${bits(col).nullBit} ? null : ${intValue(f, `(c.${f} as Int32Array)[j]`)};`,
    field: (f) => `m.${f}`,
  },
  listId: {
    chunk: (f) => `/** List ids + 1 (0: null). */\n${lazyColumn(f)}`,
    copy: lazyCopy,
    put: (f) => `const ${f}Id = m.${f} === null ? 0 : this.listId(m.${f}) + 1;
if (${f}Id !== 0 || c.${f}) (c.${f} ??= new Int32Array(CHUNK))[j] = ${f}Id;`,
    rowType: () => 'number',
    empty: '-1',
    read: (f) => `out.${f} = c.${f} ? c.${f}[j] - 1 : -1;`,
    field: (f) => `m.${f} < 0 ? null : this.lists[m.${f}]`,
  },
  lazyInt: {
    chunk: lazyColumn,
    copy: lazyCopy,
    put: (f) => `if (m.${f} !== 0 || Object.is(m.${f}, -0) || c.${f}) (c.${f} ??= new Int32Array(CHUNK))[j] = ${intCode(f, `m.${f}`)};`,
    rowType: () => 'number',
    empty: '0',
    read: (f) => `out.${f} = c.${f} ? (${intValue(f, `c.${f}[j]`)} as number) : 0;`,
    field: (f) => `m.${f}`,
  },
  verdict: {
    chunk: () => '',
    copy: () => '',
    put: (f, col) => `if (m.${f} === true) flags |= Flag.${bits(col).trueBit};
else if (m.${f} !== false) {
  flags |= Flag.${bits(col).otherBit};
  this.${f}Other.set(row, m.${f});
}`,
    rowType: (f) => `MilesSampleFields['${f}']`,
    empty: 'false',
    read: (f, col) =>
      `out.${f} = flags & Flag.${bits(col).trueBit} ? true : flags & Flag.${bits(col).otherBit} ? (this.${f}Other.get(i) as Exclude<MilesSampleFields['${f}'], boolean>) : false;`,
    field: (f) => `m.${f}`,
  },
};
