// A same-run A/B of the code index's full build: `node bench/build-ab.mjs <base checkout> [files] [rounds]`
// copies `files` node_modules JavaScript files (as bench/code-index.bench.ts picks them) into a temp
// workspace, then builds its index with the base checkout's indexer and this one's in turn, vectors
// on and off, each build in a fresh process with a fresh embeddings endpoint process (whose CPU is
// printed too). The base checkout needs its own node_modules (a symlink to this one's will do).
import { spawn, execFileSync } from 'node:child_process'
import { once } from 'node:events'
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'

const here = resolve(import.meta.dirname, '..')
const [base, files = '3000', rounds = '3'] = process.argv.slice(2)
if (!base) throw new Error('usage: node bench/build-ab.mjs <base checkout> [files] [rounds]')

const source = realpathSync(join(here, 'node_modules'))
const picked = []
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (picked.length >= Number(files)) return
    const abs = join(dir, entry.name)
    if (entry.isDirectory()) walk(abs)
    else if (/\.(c|m)?js$/.test(entry.name) && statSync(abs).size < 1024 * 1024) picked.push(abs)
  }
}
walk(source)
const root = mkdtempSync(join(tmpdir(), 'modus-build-ab-'))
for (const file of picked) {
  const target = join(root, 'src', relative(source, file).replace(/[\\/]/g, '__'))
  mkdirSync(dirname(target), { recursive: true })
  copyFileSync(file, target)
}

/** CPU seconds a process has used (Linux). */
const cpuOf = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

async function build(tree, vectors) {
  const endpoint = spawn(process.execPath, [join(here, 'bench', 'support', 'embeddings-server.mjs')], {
    stdio: ['pipe', 'pipe', 'inherit']
  })
  const [port] = await once(endpoint.stdout, 'data')
  const jiti = join(here, 'node_modules', 'jiti', 'lib', 'jiti-cli.mjs')
  const script = join(here, 'bench', 'support', 'build-once.ts')
  const out = execFileSync(
    process.execPath,
    [jiti, script, tree, root, `http://127.0.0.1:${String(port).trim()}/v1`, vectors],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore']
    }
  )
  const endpointCpu = cpuOf(endpoint.pid)
  endpoint.stdin.end()
  await once(endpoint, 'exit')
  return { ...JSON.parse(out.trim().split('\n').pop()), endpointCpu }
}

const builds = [
  [base, 'on'],
  [here, 'on'],
  [here, 'off'],
  [base, 'off']
]
for (let round = 0; round < Number(rounds); round++) {
  // Each round starts with another build: whatever follows a loaded moment is not always the same one.
  for (let k = 0; k < builds.length; k++) {
    const [tree, vectors] = builds[(k + round) % builds.length]
    const r = await build(tree, vectors)
    const cpu = Object.values(r.threads).reduce((sum, ms) => sum + ms, 0)
    console.log(
      `${tree === here ? 'this' : 'base'} vectors ${vectors}: ${r.ms} ms, ${Math.round((r.files / r.ms) * 1000)} files/s, ${Math.round((r.chunks / r.ms) * 1000)} chunks/s; CPU ${cpu} ms (indexing thread ${r.threads.main}), endpoint ${r.endpointCpu.toFixed(2)} s; load ${r.load.toFixed(1)}`
    )
  }
}
rmSync(root, { recursive: true, force: true })
