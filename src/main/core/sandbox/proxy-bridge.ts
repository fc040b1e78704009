/**
 * The network of a sandboxed command that may ask (Linux), on Modus's own bubblewrap line: the
 * command keeps bubblewrap's empty network namespace, where only a relay listens, on
 * 127.0.0.1:3128; the relay passes each connection to the runtime's proxy (its unix socket on the
 * host), which lets a listed host through and asks about the others. HTTP_PROXY and the other
 * proxy variables point there, with the command's identity as the proxy user name (how the
 * proxy knows whose allow list applies).
 *
 * The relay (socat) is not in the sandbox: a small Perl helper, started beside bubblewrap,
 * reads the sandbox's pid from bubblewrap's `--info-fd`, joins only its network namespace (and
 * the user namespace that owns it) and runs socat there. So the relay stays outside the
 * sandbox's pid namespace and mounts and outside its seccomp filter (which refuses every new unix
 * socket to the command), and the command cannot see it. Bubblewrap waits on `--block-fd` until
 * the helper has read socat's "listening" line: the command starts with the relay listening, and
 * nothing sleeps or polls. Both die with bubblewrap (PR_SET_PDEATHSIG).
 */
import { shellWord } from './bwrap-args'

/** Where the relay listens inside the sandbox's network namespace. */
export const RELAY_PORT = 3128
const INFO_FD = 5
const BLOCK_FD = 6

interface Syscalls {
  setns: number
  prctl: number
}
const SYSCALLS: Partial<Record<NodeJS.Architecture, Syscalls>> = {
  x64: { setns: 308, prctl: 157 },
  arm64: { setns: 268, prctl: 167 }
}

export interface ProxyBridgeTools {
  perl: string
  socat: string
}

export interface ProxyEndpoint {
  /** The runtime's unix socket that reaches its proxy (HTTP and SOCKS on one port). */
  socket: string
  /** The proxy's password (the runtime's token). */
  token: string
}

/**
 * The helper, as `perl -e` text. Arguments: the fd it reads bubblewrap's info from, setns and
 * prctl numbers, then socat's argv. Every way out closes its stdout (bubblewrap's block fd), so
 * the command always starts; without the relay it reaches nothing.
 */
const HELPER = [
  'my ($info, $setns, $prctl, @socat) = @ARGV;',
  // PR_SET_PDEATHSIG (1) with SIGKILL: gone when bubblewrap, its parent, is.
  'syscall($prctl, 1, 9);',
  // Its copy of bubblewrap's info fd would keep the pipe open after bubblewrap has gone.
  `open(my $spare, ">&=", ${INFO_FD}) and close($spare);`,
  'open(my $in, "<&=", $info) or exit 1;',
  'my $json = do { local $/ = "}"; <$in> };',
  'close($in);',
  'my ($pid) = ($json // "") =~ /"child-pid"\\s*:\\s*(\\d+)/ or exit 1;',
  'pipe(my $log, my $logw) or exit 1;',
  'my $relay = fork() // exit 1;',
  'if ($relay == 0) {',
  '  close($log); close(STDOUT);',
  '  open(my $net, "<", "/proc/$pid/ns/net") or exit 1;',
  // NS_GET_USERNS: the user namespace that owns the network one (bubblewrap's first, where this uid has the capability to join it).
  '  my $owner = ioctl($net, 0xb701, 0) // exit 1;',
  '  syscall($setns, $owner + 0, 0x10000000) == 0 or exit 1;',
  '  syscall($setns, fileno($net), 0x40000000) == 0 or exit 1;',
  '  syscall($prctl, 1, 9);',
  '  open(STDIN, "<", "/dev/null"); open(STDOUT, ">", "/dev/null"); open(STDERR, ">&", $logw);',
  '  exec { $socat[0] } @socat; exit 1;',
  '}',
  'close($logw);',
  'while (my $line = <$log>) { last if $line =~ / listening on / }',
  'close(STDOUT);',
  // socat logs each connection: read on, so it never blocks on a full pipe.
  '1 while sysread($log, my $drop, 65536);'
].join(' ')

/** Null where this machine's syscall numbers are not known (the runtime's wrap is used there). */
export function bridgeSupported(arch: NodeJS.Architecture = process.arch): boolean {
  return SYSCALLS[arch] !== undefined
}

/** The proxy user name the runtime reads a command's identity from (`srt.` + base64 of its id). */
const proxyUser = (commandId: string): string => `srt.${Buffer.from(commandId).toString('base64')}`

/** The variables that send a command's connections to the relay, as the runtime sets them (127.0.0.1, not localhost: the relay listens on IPv4). */
export function proxyEnvironment(endpoint: ProxyEndpoint, commandId: string): [string, string][] {
  const user = proxyUser(commandId)
  const local = `127.0.0.1:${RELAY_PORT}`
  const http = `http://${encodeURIComponent(user)}:${endpoint.token}@${local}`
  const socks = `socks5h://${encodeURIComponent(user)}:${endpoint.token}@${local}`
  return [
    ['SANDBOX_RUNTIME', '1'],
    // Loopback is network like any other host: through the proxy, where it asks (NO_PROXY cleared).
    ['NO_PROXY', ''],
    ['no_proxy', ''],
    ...[
      'HTTP_PROXY',
      'HTTPS_PROXY',
      'http_proxy',
      'https_proxy',
      'ALL_PROXY',
      'all_proxy',
      'GRPC_PROXY',
      'grpc_proxy'
    ].map((name): [string, string] => [name, http]),
    ['GIT_CONFIG_PARAMETERS', "'http.proxyAuthMethod=basic'"],
    [
      'GIT_SSH_COMMAND',
      `ssh -o ControlMaster=no -o ControlPath=none -o ProxyCommand='socat - PROXY:127.0.0.1:%h:%p,proxyport=${RELAY_PORT},proxyauth=${user}:${endpoint.token}'`
    ],
    ['FTP_PROXY', socks],
    ['ftp_proxy', socks],
    ['RSYNC_PROXY', local],
    ['DOCKER_HTTP_PROXY', http],
    ['DOCKER_HTTPS_PROXY', http]
  ]
}

/** bubblewrap's arguments for the bridge, before `--`: the variables and the two fds. */
export function bridgeArgs(endpoint: ProxyEndpoint, commandId: string): string[] {
  return [
    ...proxyEnvironment(endpoint, commandId).flatMap(([name, value]) => ['--setenv', name, value]),
    '--info-fd',
    String(INFO_FD),
    '--block-fd',
    String(BLOCK_FD)
  ]
}

/**
 * The text the task shell runs: a subshell that opens the info pipe, then becomes bubblewrap
 * with the helper on the block fd. `line` is bubblewrap's whole line with its own redirections
 * (the seccomp filter's fd); the subshell's exit status is bubblewrap's.
 */
export function bridgedLine(line: string, endpoint: ProxyEndpoint, tools: ProxyBridgeTools): string {
  const calls = SYSCALLS[process.arch]
  if (!calls) throw new Error(`no syscall numbers for ${process.arch}`)
  const socat = [
    tools.socat,
    '-d',
    '-d',
    `TCP4-LISTEN:${RELAY_PORT},bind=127.0.0.1,fork,reuseaddr,backlog=4096`,
    `UNIX-CONNECT:${endpoint.socket}`
  ]
  const helper = [tools.perl, '-e', HELPER, '"$__modus_info"', String(calls.setns), String(calls.prctl), ...socat]
    .map((word, index) => (index === 3 ? word : shellWord(word)))
    .join(' ')
  // `:` ends at once; the pipe stays, read by the helper, written by bubblewrap through /proc.
  return `( exec {__modus_info}< <(:) && exec ${line} ${INFO_FD}>/proc/self/fd/"$__modus_info" ${BLOCK_FD}< <(exec ${helper}) {__modus_info}<&- )`
}
