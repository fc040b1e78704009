/**
 * Tools whose global options may come before the subcommand (`git -C dir push`): the options that
 * take a separate value. A deny or ask rule `git push` is also matched with them removed.
 */
const GLOBAL_ARG_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  git: ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--super-prefix', '--config-env', '--list-cmds', '--attr-source'],
  npm: ['--prefix', '-C', '-w', '--workspace', '--userconfig', '--globalconfig', '--cache', '--registry', '--loglevel', '--location', '--otp', '--scope'],
  pnpm: ['-C', '--dir', '--filter', '-F', '--workspace-dir', '--loglevel', '--reporter'],
  yarn: ['--cwd', '--modules-folder', '--cache-folder', '--registry', '--mutex'],
  npx: ['-p', '--package', '-c', '--call', '--prefix', '-w', '--workspace'],
  bun: ['--cwd', '-c', '--config', '--env-file'],
  docker: ['-H', '--host', '-c', '--context', '--config', '-l', '--log-level', '--tlscacert', '--tlscert', '--tlskey'],
  podman: ['--connection', '-c', '--url', '--root', '--runroot', '--storage-driver', '--log-level', '--cgroup-manager', '--config'],
  kubectl: ['-n', '--namespace', '--context', '--kubeconfig', '-s', '--server', '--cluster', '--user', '--token', '-v', '--as', '--as-group', '--certificate-authority', '--client-certificate', '--client-key', '--request-timeout', '--cache-dir', '-l'],
  helm: ['-n', '--namespace', '--kube-context', '--kubeconfig', '--registry-config', '--repository-config', '--repository-cache'],
  cargo: ['-C', '--config', '-Z', '--color', '--manifest-path', '--target-dir'],
  go: ['-C'],
  make: ['-C', '--directory', '-f', '--file', '--makefile', '-I', '--include-dir', '-j', '--jobs', '-l', '-o', '-W'],
  terraform: [],
  gh: ['-R', '--repo', '--hostname'],
  aws: ['--profile', '--region', '--output', '--endpoint-url', '--query', '--cli-read-timeout', '--cli-connect-timeout', '--ca-bundle'],
  gcloud: ['--project', '--account', '--configuration', '--verbosity', '--impersonate-service-account', '--format'],
  az: ['--subscription', '--output', '-o', '--query'],
  poetry: ['-C', '--directory', '-P', '--project'],
  uv: ['--directory', '--project', '--config-file', '--cache-dir', '-p', '--python'],
  pip: ['--log', '--proxy', '--retries', '--timeout', '--exists-action', '--trusted-host', '--cert', '--client-cert', '--cache-dir'],
  systemctl: ['-H', '--host', '-M', '--machine', '-t', '--type', '-p', '--property', '-s', '--signal'],
  composer: ['-d', '--working-dir'],
  dotnet: [],
  mvn: ['-f', '--file', '-s', '--settings', '-P', '-pl', '-D'],
  gradle: ['-p', '--project-dir', '-b', '--build-file', '-c', '--settings-file', '-D', '-P', '-x'],
  svn: ['--username', '--password', '--config-dir', '--config-option'],
  hg: ['-R', '--repository', '--cwd', '--config']
}

/** The words with the global options before the subcommand removed, or undefined when nothing changes. */
export function withoutGlobalOptions(program: string, args: readonly string[]): string[] | undefined {
  const argOptions = GLOBAL_ARG_OPTIONS[program]
  if (!argOptions) return undefined
  let i = 0
  while (i < args.length && args[i].startsWith('-') && args[i] !== '--') {
    const word = args[i]
    // `terraform -chdir=x`, `-C.`, `--git-dir=x`: values glued on take no extra word.
    i += argOptions.includes(word) ? 2 : 1
  }
  if (args[i] === '--') i++
  if (i === 0) return undefined
  return [program, ...args.slice(i)]
}
