// The callables a pickle may name, and the inert values their calls give (docs/pt.md). GLOBAL /
// STACK_GLOBAL give a name, never a function; a call (REDUCE, INST, OBJ), a NEWOBJ and a BUILD of a
// name give a value only through this allow-list: numpy arrays and torch tensors as dtype and shape,
// `_codecs.encode` as bytes, OrderedDict as a dict, NEWOBJ + BUILD instances as class name and
// state, PIL images as mode and size. Any other callable is never resolved: the caller records it
// (`block`) and gets a `Blocked` value. Nothing here runs anything.
import { numpyScalar } from './pickleLiterals';
import {
  Blocked,
  depthOf,
  dictKey,
  ImagePlaceholder,
  NdArrayPlaceholder,
  NpDtype,
  PyBytes,
  PyDict,
  PyGlobal,
  PyList,
  PyObject,
  PySet,
  PyTuple,
  StoragePlaceholder,
  textOf,
} from './values';
import { rebuildTensor, type StorageSizes } from './tensorView';

/** What the pickle machine lends the allow-list. */
export interface CallSite {
  /** Records a callable outside the allow-list (it is not run) and gives its stand-in. */
  block(callable: string): Blocked;
  /** A nesting depth, checked against the machine's limit. */
  deeper(depth: number): number;
  /** Records a tensor whose view does not fit its storage (tensorView.ts). */
  tensorProblem(message: string): void;
  /** The sizes of the zip's storage records, when known. */
  readonly storages: StorageSizes | undefined;
}

/** Python 2 module names protocol 0-2 pickles use for builtins (fix_imports). */
const MODULE_ALIASES: Record<string, string> = { __builtin__: 'builtins', copy_reg: 'copyreg' };

const STORAGE_DTYPES: Record<string, string> = {
  FloatStorage: 'float32',
  DoubleStorage: 'float64',
  HalfStorage: 'float16',
  BFloat16Storage: 'bfloat16',
  LongStorage: 'int64',
  IntStorage: 'int32',
  ShortStorage: 'int16',
  CharStorage: 'int8',
  ByteStorage: 'uint8',
  BoolStorage: 'bool',
  ComplexFloatStorage: 'complex64',
  ComplexDoubleStorage: 'complex128',
};

/** GLOBAL / STACK_GLOBAL: a name, never resolved. */
export function globalName(module: string, name: string): PyGlobal {
  return new PyGlobal(MODULE_ALIASES[module] ?? module, name);
}

/** REDUCE / INST / OBJ: a call. Only allow-listed callables give a value; nothing is ever run. */
export function callAllowed(site: CallSite, f: unknown, a: unknown[]): unknown {
  if (f instanceof Blocked) return f;
  if (!(f instanceof PyGlobal)) return site.block('a value that is not a named callable');
  switch (f.qualified) {
    case 'collections.OrderedDict': {
      const d = new PyDict();
      d.byCall = true;
      const init = a[0];
      if (init instanceof PyList)
        for (const pair of init.items) if (pair instanceof PyTuple && pair.items.length === 2) d.map.set(dictKey(pair.items[0]), pair.items[1]);
      return d;
    }
    case '_codecs.encode': {
      const text = textOf(a[0]) ?? '';
      const enc = textOf(a[1])?.toLowerCase().replace('-', '') ?? 'utf8';
      if (enc === 'latin1' || enc === 'iso88591') {
        const out = new Uint8Array(text.length);
        for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
        return new PyBytes(out);
      }
      return new PyBytes(new TextEncoder().encode(text));
    }
    case 'builtins.bytes':
    case 'builtins.bytearray': {
      if (a.length === 0) return new PyBytes(new Uint8Array(0));
      if (a[0] instanceof PyList) return new PyBytes(Uint8Array.from(a[0].items.map((x) => Number(x) & 0xff)));
      if (textOf(a[0]) !== undefined) return callAllowed(site, new PyGlobal('_codecs', 'encode'), a);
      if (a[0] instanceof PyBytes) return a[0];
      return new PyBytes(new Uint8Array(0));
    }
    case 'builtins.set':
    case 'builtins.frozenset': {
      const s = new PySet(f.name === 'frozenset');
      const init = a[0];
      if (init instanceof PyList) s.items.push(...init.items);
      else if (init instanceof PyTuple) s.items.push(...init.items);
      return s;
    }
    case 'copyreg._reconstructor':
    case 'copyreg.__newobj__':
      return newInstance(site, a[0]);
    case 'numpy.core.multiarray._reconstruct':
    case 'numpy._core.multiarray._reconstruct':
      return new NdArrayPlaceholder();
    case 'numpy.dtype':
      return new NpDtype(textOf(a[0]) ?? '?');
    case 'numpy.core.multiarray.scalar':
    case 'numpy._core.multiarray.scalar':
      return numpyScalar(a[0], a[1]);
    case 'torch._utils._rebuild_tensor':
    case 'torch._utils._rebuild_tensor_v2':
    case 'torch._utils._rebuild_tensor_v3': {
      // (storage, storage_offset, size, stride, …); v3 names the dtype (its storage is untyped).
      const size = a[2] instanceof PyTuple ? a[2].items : [];
      const stride = a[3] instanceof PyTuple ? a[3].items : null;
      const dtype = f.name === '_rebuild_tensor_v3' && a[6] instanceof PyGlobal && a[6].module === 'torch' ? a[6].name : null;
      const r = rebuildTensor(a[0], a[1], size, stride, dtype, site.storages);
      if (r.problem !== null) site.tensorProblem(r.problem);
      return r.tensor;
    }
    case 'torch._utils._rebuild_parameter':
      return a[0];
  }
  return site.block(f.qualified);
}

/** NEWOBJ / NEWOBJ_EX (and copyreg's reconstructors): an instance of `cls`, its state to follow. */
export function newInstance(site: CallSite, cls: unknown): unknown {
  if (cls instanceof Blocked) return cls;
  if (!(cls instanceof PyGlobal)) return site.block('a value that is not a class');
  switch (cls.qualified) {
    case 'PIL.Image.Image':
      return new ImagePlaceholder();
    case 'collections.OrderedDict':
    case 'builtins.dict': {
      const d = new PyDict();
      d.byCall = true;
      return d;
    }
    case 'builtins.list':
      return new PyList();
    case 'builtins.object':
      return new PyObject('builtins.object');
  }
  return new PyObject(cls.qualified);
}

/** BUILD: `state` given to the instance on top of the stack. */
export function buildState(site: CallSite, inst: unknown, state: unknown): void {
  if (inst instanceof ImagePlaceholder) {
    const items = state instanceof PyList ? state.items : state instanceof PyTuple ? state.items : [];
    const mode = textOf(items[1]);
    if (mode !== undefined) inst.mode = mode;
    if (items[2] instanceof PyTuple) inst.size = items[2].items.map(Number);
  } else if (inst instanceof NdArrayPlaceholder) {
    const items = state instanceof PyTuple ? state.items : [];
    if (items[1] instanceof PyTuple) inst.shape = items[1].items.map(Number);
    if (items[2] instanceof NpDtype) inst.dtype = items[2].str;
  } else if (inst instanceof NpDtype) {
    const items = state instanceof PyTuple ? state.items : [];
    const order = textOf(items[1]);
    if (order !== undefined) inst.order = order;
  } else if (inst instanceof PyObject) {
    // `(state, slotstate)` from classes with __slots__: both end up as attributes.
    if (
      state instanceof PyTuple &&
      state.items.length === 2 &&
      (state.items[0] instanceof PyDict || state.items[0] === null) &&
      state.items[1] instanceof PyDict
    ) {
      const merged = new PyDict();
      for (const part of state.items) if (part instanceof PyDict) for (const [k, v] of part.map) merged.map.set(k, v);
      state = merged;
    }
    if (inst.state instanceof PyDict && state instanceof PyDict) for (const [k, v] of state.map) inst.state.map.set(k, v);
    else inst.state = state;
    inst.depth = site.deeper(Math.max(inst.depth, depthOf(state) + 1));
  } else if (inst instanceof PyDict && state instanceof PyDict) {
    for (const [k, v] of state.map) inst.map.set(k, v);
  }
}

/** BINPERSID / PERSID: torch.save's `('storage', torch.FloatStorage, key, location, numel)`. */
export function persistentValue(pid: unknown): StoragePlaceholder {
  const items = pid instanceof PyTuple ? pid.items : [];
  if (textOf(items[0]) !== 'storage' || !(items[1] instanceof PyGlobal)) return new StoragePlaceholder('unknown');
  const key = textOf(items[2]) ?? (typeof items[2] === 'number' ? String(items[2]) : null);
  const numel = typeof items[4] === 'number' && Number.isSafeInteger(items[4]) && items[4] >= 0 ? items[4] : -1;
  return new StoragePlaceholder(STORAGE_DTYPES[items[1].name] ?? items[1].name, key, textOf(items[3]) ?? null, numel);
}
