// The opcodes that name callables and call them (docs/pt.md): GLOBAL / STACK_GLOBAL / INST give
// names, never functions; REDUCE, NEWOBJ(_EX), BUILD, INST and OBJ give values only through the
// allow-list (allowedCallables.ts); BINPERSID / PERSID name torch storages; the extension registry
// and out-of-band buffers are refused.
import { buildState, callAllowed, type CallSite, globalName, newInstance, persistentValue } from './allowedCallables';
import { lineEnd, lineNeed } from './lineOpcodes';
import { latin1, PickleError } from './pickleLiterals';
import { CONTINUE } from './pickleStack';
import type { SampleHandOn } from './sampleHandOn';
import { PyTuple, textOf } from './values';

const utf8 = new TextDecoder('utf-8');

/** One of these opcodes at `p`: CONTINUE, or how many bytes its text lines need. */
export function callOpcode(m: SampleHandOn & CallSite, op: number, p: number): number {
  const input = m.input;
  const b = input.buf;
  switch (op) {
    case 0x63: {
      // GLOBAL module\nname\n
      const e1 = lineEnd(m, p + 1);
      if (e1 < 0) return lineNeed(m, p + 1);
      const e2 = lineEnd(m, e1 + 1);
      if (e2 < 0) return lineNeed(m, e1 + 1);
      input.pos = e2 + 1;
      m.push(globalName(utf8.decode(b.subarray(p + 1, e1)), utf8.decode(b.subarray(e1 + 1, e2))));
      return CONTINUE;
    }
    case 0x93: {
      // STACK_GLOBAL
      input.pos = p + 1;
      const name = m.pop();
      const module = m.pop();
      const n = textOf(name);
      const mod = textOf(module);
      if (n === undefined || mod === undefined) throw new PickleError(`STACK_GLOBAL of values that are not names at byte ${m.offset}`);
      m.push(globalName(mod, n));
      return CONTINUE;
    }
    case 0x52: {
      // REDUCE
      input.pos = p + 1;
      const args = m.pop();
      const f = m.pop();
      m.push(callAllowed(m, f, args instanceof PyTuple ? args.items : []));
      return CONTINUE;
    }
    case 0x81: {
      // NEWOBJ
      input.pos = p + 1;
      m.pop(); // the arguments: an inert instance needs none
      const cls = m.pop();
      m.push(newInstance(m, cls));
      return CONTINUE;
    }
    case 0x92: {
      // NEWOBJ_EX
      input.pos = p + 1;
      m.pop(); // keyword and positional arguments
      m.pop();
      const cls = m.pop();
      m.push(newInstance(m, cls));
      return CONTINUE;
    }
    case 0x62: {
      // BUILD
      input.pos = p + 1;
      const state = m.pop();
      const inst = m.top();
      m.unchanged(inst);
      buildState(m, inst, state);
      return CONTINUE;
    }
    case 0x69: {
      // INST module\nname\n: a call of module.name with the marked values
      const e1 = lineEnd(m, p + 1);
      if (e1 < 0) return lineNeed(m, p + 1);
      const e2 = lineEnd(m, e1 + 1);
      if (e2 < 0) return lineNeed(m, e1 + 1);
      input.pos = e2 + 1;
      const g = globalName(utf8.decode(b.subarray(p + 1, e1)), utf8.decode(b.subarray(e1 + 1, e2)));
      m.push(callAllowed(m, g, m.popMark()));
      return CONTINUE;
    }
    case 0x6f: {
      // OBJ: a call of the first marked value with the rest
      input.pos = p + 1;
      const items = m.popMark();
      if (items.length === 0) throw new PickleError(`OBJ without a class at byte ${m.offset}`);
      m.push(callAllowed(m, items[0], items.slice(1)));
      return CONTINUE;
    }
    case 0x51: // BINPERSID
      input.pos = p + 1;
      m.push(persistentValue(m.pop()));
      return CONTINUE;
    case 0x50: {
      // PERSID id\n
      const e = lineEnd(m, p + 1);
      if (e < 0) return lineNeed(m, p + 1);
      input.pos = e + 1;
      m.push(persistentValue(latin1.decode(b.subarray(p + 1, e))));
      return CONTINUE;
    }
    case 0x82: // EXT1
    case 0x83: // EXT2
    case 0x84: // EXT4
      throw new PickleError(`the pickle uses the copyreg extension registry (EXT opcode at byte ${m.offset}), which names callables by number: not supported`);
    case 0x97: // NEXT_BUFFER
      throw new PickleError(`the pickle refers to an out-of-band buffer (NEXT_BUFFER at byte ${m.offset}) that is not in the file`);
    default:
      // READONLY_BUFFER: nothing to do for a buffer already in the pickle.
      input.pos = p + 1;
      return CONTINUE;
  }
}
