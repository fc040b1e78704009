/**
 * Tools whose global options may come before the subcommand (`git -C dir push`): the options that
 * take a separate value. A deny or ask rule `git push` is also matched with them removed.
 */
import { lookupTable } from '../../lookup-table'

const GLOBAL_ARG_OPTIONS: Readonly<Record<string, readonly string[]>> = lookupTable({
  git: [
    '-C',
    '-c',
    '--git-dir',
    '--work-tree',
    '--namespace',
    '--exec-path',
    '--super-prefix',
    '--config-env',
    '--list-cmds',
    '--attr-source'
  ],
  npm: [
    '--prefix',
    '-C',
    '-w',
    '--workspace',
    '--userconfig',
    '--globalconfig',
    '--cache',
    '--registry',
    '--loglevel',
    '--location',
    '--otp',
    '--scope'
  ],
  pnpm: ['-C', '--dir', '--filter', '-F', '--workspace-dir', '--loglevel', '--reporter'],
  yarn: ['--cwd', '--modules-folder', '--cache-folder', '--registry', '--mutex'],
  npx: ['-p', '--package', '-c', '--call', '--prefix', '-w', '--workspace'],
  bun: ['--cwd', '-c', '--config', '--env-file'],
  docker: ['-H', '--host', '-c', '--context', '--config', '-l', '--log-level', '--tlscacert', '--tlscert', '--tlskey'],
  podman: [
    '--connection',
    '-c',
    '--url',
    '--root',
    '--runroot',
    '--storage-driver',
    '--log-level',
    '--cgroup-manager',
    '--config'
  ],
  kubectl: [
    '-n',
    '--namespace',
    '--context',
    '--kubeconfig',
    '-s',
    '--server',
    '--cluster',
    '--user',
    '--token',
    '-v',
    '--as',
    '--as-group',
    '--certificate-authority',
    '--client-certificate',
    '--client-key',
    '--request-timeout',
    '--cache-dir',
    '-l'
  ],
  helm: [
    '-n',
    '--namespace',
    '--kube-context',
    '--kubeconfig',
    '--registry-config',
    '--repository-config',
    '--repository-cache'
  ],
  cargo: ['-C', '--config', '-Z', '--color', '--manifest-path', '--target-dir'],
  go: ['-C'],
  make: ['-C', '--directory', '-f', '--file', '--makefile', '-I', '--include-dir', '-j', '--jobs', '-l', '-o', '-W'],
  terraform: [],
  gh: ['-R', '--repo', '--hostname'],
  aws: [
    '--profile',
    '--region',
    '--output',
    '--endpoint-url',
    '--query',
    '--cli-read-timeout',
    '--cli-connect-timeout',
    '--ca-bundle'
  ],
  gcloud: ['--project', '--account', '--configuration', '--verbosity', '--impersonate-service-account', '--format'],
  az: ['--subscription', '--output', '-o', '--query'],
  poetry: ['-C', '--directory', '-P', '--project'],
  uv: ['--directory', '--project', '--config-file', '--cache-dir', '-p', '--python'],
  pip: [
    '--log',
    '--proxy',
    '--retries',
    '--timeout',
    '--exists-action',
    '--trusted-host',
    '--cert',
    '--client-cert',
    '--cache-dir'
  ],
  systemctl: ['-H', '--host', '-M', '--machine', '-t', '--type', '-p', '--property', '-s', '--signal'],
  composer: ['-d', '--working-dir'],
  dotnet: [],
  mvn: ['-f', '--file', '-s', '--settings', '-P', '-pl', '-D'],
  gradle: ['-p', '--project-dir', '-b', '--build-file', '-c', '--settings-file', '-D', '-P', '-x'],
  svn: ['--username', '--password', '--config-dir', '--config-option'],
  hg: ['-R', '--repository', '--cwd', '--config']
})

/** `cargo +nightly publish`: a toolchain before the subcommand. */
const PLUS_OPTIONS = new Set(['cargo', 'rustup', 'rustc'])

/**
 * The words with the global options before the subcommand removed, one form per place the
 * subcommand may start (none when nothing changes). A known option takes its listed value; an
 * unknown `--opt` may or may not take the next word (`npm --tag beta publish`), so both readings
 * are kept: deny and ask rules see every command the line may be.
 */
export function withoutGlobalOptions(program: string, args: readonly string[]): string[][] {
  const argOptions = GLOBAL_ARG_OPTIONS[program]
  if (!argOptions) return []
  const isOption = (word: string): boolean =>
    (word.startsWith('-') && word !== '-') || (PLUS_OPTIONS.has(program) && word.startsWith('+'))
  const starts = new Set<number>()
  const seen = new Set<number>()
  const queue = [0]
  while (queue.length > 0) {
    const i = queue.pop() as number
    if (seen.has(i) || i >= args.length) continue
    seen.add(i)
    const word = args[i]
    if (word === '--') starts.add(i + 1)
    else if (!isOption(word)) starts.add(i)
    // `terraform -chdir=x`, `-C.`, `--git-dir=x`: values glued on take no extra word.
    else if (argOptions.includes(word)) queue.push(i + 2)
    else if (word.includes('=') || !word.startsWith('-')) queue.push(i + 1)
    else queue.push(i + 1, i + 2)
  }
  return [...starts].filter((i) => i > 0 && i < args.length).map((i) => [program, ...args.slice(i)])
}
