import { spawn } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import * as pty from 'node-pty'
import { it } from 'vitest'
import { createTerminalService, type TerminalServiceDeps } from '../src/main/core/terminal'

/**
 * Terminal capture throughput and loss (perf-anchors §6). One command printing 50 MB, three
 * ways in the same run, rounds interleaved:
 *  - Modus: execute_command's path — task shell in node-pty → marker parser → model capture
 *    (ANSI strip, file, head/tail) → coalesced `terminal:data` events (the UI bridge). Timed until
 *    the call returned AND the bridge received every byte.
 *  - raw pty: persistent `bash --norc --noprofile -i` in node-pty, ended on an echoed marker.
 *  - child_process: `bash -c` on pipes, ended on `close`.
 * Payloads: `cat` of a 50 MB base64 file, and `head -c 37500000 /dev/urandom | base64` (≈50 MB).
 * Loss: 100 quick commands of 40,527 bytes through Modus, beside the anchor's lossy baseline
 * (`pty.spawn('bash', ['-c', cmd])` ended on onExit).
 */
const ROUNDS = 5
const FILE_BYTES = 50_000_000
const LINE = 77 // 76 base64 chars + LF

interface Sample {
  seconds: number
  bytes: number
}

const mbps = (s: Sample): number => s.bytes / 1e6 / s.seconds
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

async function makePayload(path: string): Promise<void> {
  const out = createWriteStream(path)
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
  let seed = 12345
  const lines: string[] = []
  for (let i = 0; i < 1000; i++) {
    let line = ''
    for (let j = 0; j < LINE - 1; j++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff
      line += alphabet[seed % 64]
    }
    lines.push(line + '\n')
  }
  const block = lines.join('')
  let written = 0
  while (written < FILE_BYTES) {
    const piece = block.slice(0, Math.min(block.length, FILE_BYTES - written))
    if (!out.write(piece)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
    written += piece.length
  }
  await new Promise<void>((resolve) => out.end(() => resolve()))
}

function rawPty(command: string, cwd: string): Promise<Sample> {
  return new Promise((resolve) => {
    const shell = pty.spawn('bash', ['--norc', '--noprofile', '-i'], {
      cols: 120,
      rows: 40,
      cwd,
      env: { ...process.env, PS1: '$ ' }
    })
    let bytes = 0
    let started = 0
    let tail = ''
    let sent = false
    shell.onData((chunk) => {
      if (!sent) {
        sent = true
        setTimeout(() => {
          started = performance.now()
          shell.write(`${command}; echo __PERF_$((1+1))_DONE__\r`)
        }, 100)
        return
      }
      bytes += chunk.length
      tail = (tail + chunk).slice(-64)
      if (tail.includes('__PERF_2_DONE__')) {
        const seconds = (performance.now() - started) / 1000
        shell.kill()
        resolve({ seconds, bytes })
      }
    })
  })
}

function childProcess(command: string, cwd: string): Promise<Sample> {
  return new Promise((resolve) => {
    const started = performance.now()
    const child = spawn('bash', ['-c', command], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let bytes = 0
    child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length))
    child.on('close', () => resolve({ seconds: (performance.now() - started) / 1000, bytes }))
  })
}

function rawPtyOnExit(command: string, cwd: string): Promise<number> {
  return new Promise((resolve) => {
    const child = pty.spawn('bash', ['-c', command], { cols: 120, rows: 40, cwd, env: process.env })
    let text = ''
    child.onData((chunk) => (text += chunk))
    child.onExit(() => setTimeout(() => resolve(text.replace(/\r\n/g, '\n').length), 300))
  })
}

it('terminal capture throughput and loss', async () => {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'modus-term-bench-')))
  const root = join(base, 'workspace')
  await mkdir(root)
  await mkdir(join(base, 'home'))
  await writeFile(join(base, 'home', '.bashrc'), '')
  const payload = join(base, 'payload.txt')
  await makePayload(payload)

  let uiBytes = 0
  let uiEvents = 0
  const service = createTerminalService({
    dataDir: join(base, 'data'),
    shell: '/bin/bash',
    resolveEnv: async () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(base, 'home'), LANG: 'C.UTF-8' }),
    defaultTimeoutMs: 600_000,
    emit: ((name: string, body: { data?: string }) => {
      if (name === 'terminal:data') {
        uiBytes += body.data!.length
        uiEvents++
      }
    }) as TerminalServiceDeps['emit']
  })
  const task = service.forTask('bench', root)
  await task.execute({ command: 'true' }) // start the task shell outside the timings

  let peakRetained = 0
  const modus = async (command: string, expectLines: number): Promise<Sample & { complete: boolean }> => {
    uiBytes = 0
    const sampler = setInterval(() => (peakRetained = Math.max(peakRetained, service.retainedChars())), 20)
    const started = performance.now()
    const result = await task.execute({ command })
    // The bridge gets the pty's CRLF form: every line is one byte longer than on disk.
    const wanted = result.output.totalBytes + expectLines
    while (uiBytes < wanted) await new Promise((resolve) => setImmediate(resolve))
    const seconds = (performance.now() - started) / 1000
    clearInterval(sampler)
    return { seconds, bytes: result.output.totalBytes, complete: result.exitCode === 0 }
  }

  const variants = [
    { name: 'cat 50 MB file', command: `cat ${payload}`, lines: FILE_BYTES / LINE },
    {
      name: 'head|base64 ≈50 MB',
      command: 'head -c 37500000 /dev/urandom | base64',
      lines: Math.ceil((37_500_000 * 4) / 3 / 76)
    }
  ]
  const rows: string[] = []
  for (const variant of variants) {
    const results = { modus: [] as Sample[], pty: [] as Sample[], child: [] as Sample[] }
    const expected = variant.name.startsWith('cat') ? FILE_BYTES : 50_000_000 + variant.lines
    let modusComplete = true
    for (let round = 0; round < ROUNDS; round++) {
      const m = await modus(variant.command, Math.floor(variant.lines))
      modusComplete &&= m.complete && m.bytes === expected
      results.modus.push(m)
      results.pty.push(await rawPty(variant.command, root))
      results.child.push(await childProcess(variant.command, root))
    }
    for (const [path, samples] of Object.entries(results)) {
      const rates = samples.map(mbps)
      rows.push(
        `| ${variant.name} | ${path} | ${median(rates).toFixed(1)} (${Math.min(...rates).toFixed(1)}–${Math.max(...rates).toFixed(1)}) | ${median(samples.map((s) => s.seconds)).toFixed(2)} | ${samples[0].bytes.toLocaleString('en-US')} |`
      )
    }
    rows.push(`| ${variant.name} | modus bytes exact in every round | ${modusComplete ? 'yes' : 'NO'} | | |`)
  }

  const LOSS_RUNS = 100
  const quick = 'head -c 30000 /dev/zero | base64'
  let modusShort = 0
  let ptyExitShort = 0
  for (let i = 0; i < LOSS_RUNS; i++) {
    const result = await task.execute({ command: quick })
    if (result.output.totalBytes !== 40_527) modusShort++
  }
  for (let i = 0; i < LOSS_RUNS; i++) if ((await rawPtyOnExit(quick, root)) !== 40_527) ptyExitShort++

  console.log(
    [
      '',
      '## terminal.bench: 50 MB through the pty (MB/s = bytes of output / wall time; median (min–max) of ' +
        ROUNDS +
        ' rounds)',
      '| payload | path | MB/s | seconds | bytes |',
      '|---|---|---|---|---|',
      ...rows,
      '',
      `Machine: ${cpus().length} cores, load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' / ')} at the end (other work on the machine skews the pty figures).`,
      `UI bridge: ${uiEvents.toLocaleString('en-US')} terminal:data events in all; peak chars held in memory by captures + scrollback: ${peakRetained.toLocaleString('en-US')}`,
      `Loss over ${LOSS_RUNS} runs of \`${quick}\` (40,527 bytes): Modus ${modusShort}/${LOSS_RUNS} short; raw pty \`bash -c\` ended on onExit (+300 ms) ${ptyExitShort}/${LOSS_RUNS} short`,
      ''
    ].join('\n')
  )
  await service.dispose()
  await rm(base, { recursive: true, force: true })
}, 600_000)
