/**
 * The seccomp filter bubblewrap loads (`--seccomp FD`) for a sandboxed command without network:
 * no new AF_UNIX socket (the host's sockets under / — Docker's, the session bus, ssh-agent — are
 * visible in the read-only file system, and a connection to one is a way out of the sandbox), no
 * io_uring (it can create sockets without the socket() call). The runtime's own helper does the
 * same with a process of its own and a nested namespace; loading the filter in bubblewrap costs none.
 *
 * Classic BPF over `struct seccomp_data` { int nr; u32 arch; u64 ip; u64 args[6] }, little-endian.
 */

const LD_W_ABS = 0x20
const JEQ_K = 0x15
const JGE_K = 0x35
const RET_K = 0x06

const RET_ALLOW = 0x7fff0000
const retErrno = (errno: number): number => 0x00050000 | errno
const EPERM = 1
const ENOSYS = 38
const AF_UNIX = 1

const OFFSET_NR = 0
const OFFSET_ARCH = 4
/** The low 32 bits of args[0]: socket()'s domain is an int, so the high half does not count. */
const OFFSET_ARG0 = 16

interface ArchTable {
  audit: number
  socket: number
  ioUringSetup: number
  /** A 32-bit ABI the kernel also runs on this machine (ia32 on x86_64): its socket calls refused outright. */
  compat?: { audit: number; refused: number[] }
  /** Syscall numbers at or above it are another ABI (x32 on x86_64): refused. */
  foreignAbove?: number
}

const ARCHES: Partial<Record<NodeJS.Architecture, ArchTable>> = {
  // ia32: socketcall (102) multiplexes socket(), and its argument cannot be read, so it goes too.
  x64: {
    audit: 0xc000003e,
    socket: 41,
    ioUringSetup: 425,
    compat: { audit: 0x40000003, refused: [102, 359, 425] },
    foreignAbove: 0x40000000
  },
  arm64: { audit: 0xc00000b7, socket: 198, ioUringSetup: 425 }
}

type Insn = [code: number, jt: number, jf: number, k: number]

/** The filter's program for this machine's architecture, or null where Modus has no table for it. */
export function unixSocketFilter(arch: NodeJS.Architecture = process.arch): Buffer | null {
  const table = ARCHES[arch]
  if (!table) return null
  const program: Insn[] = []
  const push = (...insns: Insn[]): void => void program.push(...insns)
  const refuse = retErrno(EPERM)

  push([LD_W_ABS, 0, 0, OFFSET_ARCH])
  if (table.compat) {
    // native → skip the compat block; compat → its refused calls; any other arch → refused.
    const compat = table.compat
    const block = compat.refused.length * 2 + 4
    push([JEQ_K, block, 0, table.audit])
    push([JEQ_K, 0, compat.refused.length * 2 + 2, compat.audit])
    push([LD_W_ABS, 0, 0, OFFSET_NR])
    for (const nr of compat.refused) push([JEQ_K, 0, 1, nr], [RET_K, 0, 0, refuse])
    push([RET_K, 0, 0, RET_ALLOW])
    push([RET_K, 0, 0, refuse])
  } else {
    push([JEQ_K, 1, 0, table.audit])
    push([RET_K, 0, 0, refuse])
  }
  push([LD_W_ABS, 0, 0, OFFSET_NR])
  if (table.foreignAbove !== undefined) push([JGE_K, 0, 1, table.foreignAbove], [RET_K, 0, 0, refuse])
  push([JEQ_K, 0, 1, table.ioUringSetup], [RET_K, 0, 0, retErrno(ENOSYS)])
  push([JEQ_K, 0, 3, table.socket])
  push([LD_W_ABS, 0, 0, OFFSET_ARG0])
  push([JEQ_K, 0, 1, AF_UNIX])
  push([RET_K, 0, 0, refuse])
  push([RET_K, 0, 0, RET_ALLOW])

  const bytes = Buffer.alloc(program.length * 8)
  program.forEach(([code, jt, jf, k], i) => {
    bytes.writeUInt16LE(code, i * 8)
    bytes.writeUInt8(jt, i * 8 + 2)
    bytes.writeUInt8(jf, i * 8 + 3)
    bytes.writeUInt32LE(k >>> 0, i * 8 + 4)
  })
  return bytes
}
