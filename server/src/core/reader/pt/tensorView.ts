// A torch tensor as a pickle names it (docs/pt.md#tensors): a storage (`data/<key>` in the zip,
// `('storage', torch.FloatStorage, key, location, numel)` by BINPERSID) and a view of it
// (`_rebuild_tensor_v2(storage, offset, size, stride, …)`). Nothing is read here: the view is
// checked against what the storage claims and what the zip holds, so that a tensor whose values
// cannot be what torch.load gives is a finding, and its values are never read.

/** Bytes per element of the dtypes whose values are decoded (tensorValues.ts). */
export const ITEM_SIZES: Readonly<Record<string, number>> = {
  float32: 4,
  float64: 8,
  float16: 2,
  bfloat16: 2,
  int64: 8,
  int32: 4,
  int16: 2,
  int8: 1,
  uint8: 1,
  bool: 1,
};

/** Elements a view may span before its shape is absurd (2^48: a 256 TiB tensor of bytes). */
export const MAX_TENSOR_ELEMENTS = 2 ** 48;

/** Dimensions a tensor may have before its shape is absurd. */
export const MAX_DIMENSIONS = 64;

/** A storage named by BINPERSID. */
export class StoragePlaceholder {
  constructor(
    readonly dtype: string,
    /** Its record is `<stem>/data/<key>`; null when the persistent id named none. */
    readonly key: string | null = null,
    /** Where it was saved from (`cpu`, `cuda:0`, …): its bytes are the same whatever it says. */
    readonly location: string | null = null,
    /** Elements it claims (bytes for an untyped storage), or -1 when not stated. */
    readonly numel = -1,
  ) {}
}

/** `{"$tensor": {dtype, shape}}`, and where its values are when the view is sound. */
export class TensorPlaceholder {
  constructor(
    readonly dtype: string,
    readonly shape: number[],
    /** The storage and view to decode values from; null when there is none or it is unsound. */
    readonly view: TensorView | null = null,
  ) {}
}

export interface TensorView {
  /** The zip record's name under the stem: `data/<key>`. */
  record: string;
  dtype: string;
  /** In elements of `dtype`. */
  offset: number;
  stride: number[];
}

/** The sizes of a file's storage records, by key, for checking views as they are rebuilt. */
export type StorageSizes = ReadonlyMap<string, number>;

function isCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
}

function list(xs: readonly unknown[]): string {
  return `[${xs.map((x) => (typeof x === 'number' || typeof x === 'bigint' ? String(x) : '?')).join(', ')}]`;
}

/**
 * The tensor `_rebuild_tensor*` makes of `storage` with `offset`, `size`, `stride`, and the
 * finding its view gives (null when sound). A tensor with a finding keeps its dtype and shape but
 * no view. `storages` is undefined when the zip's records are not known (the pickle alone).
 */
export function rebuildTensor(
  storage: unknown,
  offset: unknown,
  size: readonly unknown[],
  stride: readonly unknown[] | null,
  dtypeArg: string | null,
  storages: StorageSizes | undefined,
): { tensor: TensorPlaceholder; problem: string | null } {
  const s = storage instanceof StoragePlaceholder ? storage : new StoragePlaceholder('unknown');
  const untyped = s.dtype === 'UntypedStorage';
  const dtype = dtypeArg ?? (untyped ? 'unknown' : s.dtype);
  const shape = size.map(Number);
  const bare = (problem: string | null) => ({
    tensor: new TensorPlaceholder(dtype, shape),
    problem: problem === null ? null : `${problem}; its values are not read`,
  });
  // Only a finding names it: made then, not for every tensor.
  const what = () => `a ${dtype} tensor of shape ${list(size)}`;
  if (!size.every(isCount)) return bare(`${what()} has a size that is not a count: its shape is absurd`);
  if (size.length > MAX_DIMENSIONS) return bare(`a ${dtype} tensor of ${size.length} dimensions (more than ${MAX_DIMENSIONS}): its shape is absurd`);
  let numel = 1;
  // What tolist() writes: elements, or the empty lists of a shape with a zero.
  let listed = 1;
  for (const n of shape) {
    numel *= n;
    listed *= Math.max(n, 1);
  }
  if (listed > MAX_TENSOR_ELEMENTS) return bare(`${what()} claims ${listed} elements (more than 2^48): its shape is absurd`);
  const item = ITEM_SIZES[dtype];
  if (item === undefined || s.key === null || storages === undefined) return bare(null);
  const record = `data/${s.key}`;
  const strides = stride ?? contiguousStrides(shape);
  if (strides.length !== shape.length || !strides.every(isCount))
    return bare(`${what()} has strides ${list(strides)} that do not fit it: a stride must be a count for each dimension`);
  if (!isCount(offset)) return bare(`${what()} starts at storage offset ${String(offset)}, which is not a count`);
  const bytes = storages.get(s.key);
  if (bytes === undefined) return bare(`${what()} reads storage ${record}, which the file does not hold`);
  const claimed = s.numel < 0 ? -1 : untyped ? s.numel : s.numel * item;
  if (claimed > bytes)
    return bare(`${what()} reads storage ${record}, which claims ${claimed} bytes but holds ${bytes}: the storage is shorter than it claims`);
  const elements = Math.floor((claimed < 0 ? bytes : claimed) / item);
  if (numel > 0) {
    let last = offset;
    for (let d = 0; d < shape.length; d++) last += (shape[d] - 1) * strides[d];
    if (!Number.isSafeInteger(last) || last >= elements)
      return bare(
        `${what()} with storage offset ${offset} and strides ${list(strides)} reads element ${last} of storage ${record}, which holds ${elements}: the view is out of range`,
      );
  }
  const tensor = new TensorPlaceholder(dtype, shape, { record, dtype, offset, stride: strides.map(Number) });
  const overlap = numel > 1 && overlaps(shape, strides);
  return {
    tensor,
    problem: overlap
      ? `${what()} with strides ${list(strides)} is an overlapping view: several of its elements are the same element of storage ${record} (its values are read as torch.load gives them)`
      : null,
  };
}

function contiguousStrides(shape: readonly number[]): number[] {
  const out = new Array<number>(shape.length);
  let s = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    out[d] = s;
    s *= shape[d];
  }
  return out;
}

/**
 * True unless the view is sure to give each element a storage element of its own: sorted by
 * stride, each dimension's stride passes the span of the smaller ones (torch's own test for a
 * non-overlapping view; expanded tensors, with stride 0, overlap).
 */
function overlaps(shape: readonly number[], strides: readonly number[]): boolean {
  // One dimension (of more than one element, as the caller asks only then): the test below in short.
  if (shape.length === 1) return strides[0] <= 0;
  const dims = shape.map((n, d) => [n, strides[d]]).filter(([n]) => n > 1);
  dims.sort((a, b) => a[1] - b[1]);
  let span = 0;
  for (const [n, st] of dims) {
    if (st <= span) return true;
    span += (n - 1) * st;
  }
  return false;
}
