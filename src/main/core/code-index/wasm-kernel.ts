/**
 * What the in-memory scan's WebAssembly kernels (`simd-dot.ts`, `int8-dot.ts`) share: the bytes of a
 * module with one function `(i32 × 5) → ()` reading an imported memory, its lazy compilation, and its
 * memory. Each kernel assembles only its function's body.
 */

/** The part of the WebAssembly global used here (the main process's TypeScript lib has no WebAssembly types). */
interface WasmModule {
  readonly kind: 'wasm module'
}
export interface WasmMemory {
  readonly buffer: ArrayBuffer
  grow(pages: number): number
}
declare const WebAssembly: {
  validate(bytes: Uint8Array): boolean
  Module: new (bytes: Uint8Array) => WasmModule
  Memory: new (descriptor: { initial: number }) => WasmMemory
  Instance: new (module: WasmModule, imports: object) => { exports: Record<string, unknown> }
}

const PAGE_BYTES = 65_536
export const I32 = 0x7f
export const V128 = 0x7b
export const SIMD = 0xfd

export const leb = (value: number): number[] => {
  const out: number[] = []
  do {
    let byte = value & 0x7f
    value >>>= 7
    if (value !== 0) byte |= 0x80
    out.push(byte)
  } while (value !== 0)
  return out
}
const name = (text: string) => [text.length, ...[...text].map((c) => c.charCodeAt(0))]
const section = (id: number, content: number[]) => [id, ...leb(content.length), ...content]

export const get = (local: number) => [0x20, local]
export const set = (local: number) => [0x21, local]
export const addTo = (local: number, bytes: number) => [...get(local), 0x41, bytes, 0x6a, ...set(local)]

/** The kernel's function: five i32 parameters (addresses and counts), the memory imported as `env.memory`. */
export type KernelFunction = (a: number, b: number, c: number, d: number, e: number) => void

export interface Kernel {
  readonly memory: WasmMemory
  readonly run: KernelFunction
  /** Grows the memory to at least `bytes` (the views over it must then be made again). */
  reserveBytes(bytes: number): void
}

/**
 * A kernel exporting `exportName`, whose function has `code` (its locals, then its body): a factory
 * of instances, each with its own memory, or null where WebAssembly SIMD is missing. Compiled once.
 */
export function wasmKernel(exportName: string, code: number[]): () => Kernel | null {
  const moduleBytes = new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 5, I32, I32, I32, I32, I32, 0]),
    ...section(2, [1, ...name('env'), ...name('memory'), 0x02, 0x00, 0x01]),
    ...section(3, [1, 0]),
    ...section(7, [1, ...name(exportName), 0x00, 0]),
    ...section(10, [1, ...leb(code.length), ...code])
  ])
  let compiled: WasmModule | null | undefined
  return () => {
    if (compiled === undefined) {
      try {
        compiled = WebAssembly.validate(moduleBytes) ? new WebAssembly.Module(moduleBytes) : null
      } catch {
        compiled = null
      }
    }
    if (!compiled) return null
    const memory = new WebAssembly.Memory({ initial: 1 })
    const instance = new WebAssembly.Instance(compiled, { env: { memory } })
    return {
      memory,
      run: instance.exports[exportName] as KernelFunction,
      reserveBytes(bytes) {
        const pages = Math.ceil(bytes / PAGE_BYTES) - memory.buffer.byteLength / PAGE_BYTES
        if (pages > 0) memory.grow(pages)
      }
    }
  }
}
