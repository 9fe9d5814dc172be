// WebAssembly as the engine reaches it: through the global object, typed here, since the engine's
// libraries have no platform types. Undefined where there is none; callers then take a JS path.

export interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number; maximum?: number }) => { buffer: ArrayBuffer };
}

export const Wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

/**
 * A module from its base64 bytes (a generated `*Wasm.ts`). Throws where WebAssembly, or a
 * proposal the module uses (SIMD), is missing.
 */
export function compileWasm(base64: string): object {
  if (!Wasm) throw new Error('no WebAssembly here');
  return new Wasm.Module(Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0)));
}
