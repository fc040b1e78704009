/**
 * The two scripts of a warm sandbox (warm-sandbox.ts), both bash.
 *
 * The server runs inside the long-lived bubblewrap. It reads `run <id> <identity>` lines from the
 * FIFO `req`, and runs each command in a fresh bash with an empty environment that the command's
 * own dump then fills (the task shell's exports, options, aliases, functions, umask and cwd), on
 * the task shell's terminal (`/dev/modus-tty`, bound in), in a process group of its own. That bash
 * is started ahead, once the previous command has ended (a coprocess waiting for its text on a
 * pipe), so starting a program is not on a command's path. Meanwhile a watcher reads the FIFO
 * `life`, which the client holds open: `int` interrupts the command's group, end of file (the
 * task shell was killed) kills it. When the command has ended, every process the sandbox did not
 * have when the server started is killed (what a per-command sandbox's pid namespace did), then
 * `<id> <code>` goes to the FIFO `res` and `done <id> <code>` to stdout, which Modus reads.
 * Requests are taken in order: one handed over before the last one's `done` waits in `req`.
 *
 * The client is what the task shell runs instead of the command: builtins only (no process starts
 * on the host side), inside `__modus_exec`, so its `return` is the command's exit status and the
 * shell's markers behave as for any command. Ctrl-C in the terminal reaches the task shell (its
 * foreground group): the client's trap forwards it as `int`.
 */

/** Where the task shell's terminal is bound inside the sandbox. */
export const WARM_TTY = '/dev/modus-tty'

/** Arguments: the request dir, the template's proxy identity (or `-`), the names bubblewrap set (space-separated). */
export const WARM_SERVER = `# Modus warm sandbox server. Generated; do not edit.
D=$1 OLD=$2 NAMES=$3
exec 4<>"$D/req" </dev/null
SBENV=
if [[ -n $NAMES ]]; then SBENV=$(builtin declare -p $NAMES 2>/dev/null); fi
BASE=' '
for p in /proc/[0-9]*; do BASE+="\${p#/proc/} "; done
exec 2>/dev/null
# The next command's bash: it reads its text from the pipe on fd 3 (to its end), then evals it,
# as bash -c would run it; the text closes fd 3 and opens the terminal first.
spare() {
  set -m
  coproc NEXT { exec 3<&0 4<&- </dev/null >/dev/null && exec -c "$BASH" -c '. /dev/fd/3; eval "$__modus_text"'; }
  set +m
  pid=$NEXT_PID to=\${NEXT[1]}
  local from=\${NEXT[0]}
  exec {from}<&-
}
spare
printf 'ready\\n'
while read -r kind id identity <&4; do
  [[ $kind == run && $id =~ ^[A-Za-z0-9_-]+$ && -r $D/$id.cmd ]] || continue
  exec 5<"$D/life"
  env=$SBENV
  if [[ $OLD != - && -n $identity ]]; then
    env=\${env//"$OLD"/"$identity"}
    env=\${env//"\${OLD//=/%3D}"/"\${identity//=/%3D}"}
  fi
  IFS= read -r -d '' cmd <"$D/$id.cmd"
  printf -v load '. %q 2>/dev/null' "$D/$id.env"
  printf -v text '%q' "unset __modus_text; $load"$'\\n'"$env"$'\\n'"$cmd"
  kill -0 "$pid" || spare
  printf 'exec 3<&- <${WARM_TTY} >${WARM_TTY} 2>&1; __modus_text=%s\\n' "$text" >&"$to"
  exec {to}>&-
  { while read -r m; do [[ $m == int ]] && kill -INT -- "-$pid"; done; kill -KILL -- "-$pid"; } <&5 &
  watcher=$!
  wait "$pid"
  code=$?
  kill -KILL "$watcher"
  exec 5<&-
  for round in 1 2 3 4 5 6 7 8 9 10; do
    left=
    for p in /proc/[0-9]*; do
      p=\${p#/proc/}
      [[ $BASE == *" $p "* || $p == "$watcher" ]] && continue
      read -r stat <"/proc/$p/stat" || continue
      stat=\${stat##*) }
      [[ \${stat%% *} != Z ]] && left+=" $p"
    done
    [[ -z $left ]] && break
    kill -KILL $left
  done
  exec 6<>"$D/res"
  printf '%s %s\\n' "$id" "$code" >&6
  exec 6<&-
  printf 'done %s %s\\n' "$id" "$code"
  wait "$watcher"
  spare
done
`

/**
 * A bash -c line that closes every descriptor above `keep`, then runs `then`: a warm sandbox is
 * started through it. Node does not close what its children inherit, and node-pty's masters of
 * the task terminals are not close-on-exec: a sandboxed command holding one could type into a
 * task shell, outside the sandbox.
 */
export const closingInherited = (keep: number, then: string): string =>
  `for fd in /proc/self/fd/*; do fd=\${fd##*/}; (( fd > ${keep} )) && exec {fd}>&-; done; ${then}`

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`

/** The text the task shell runs for one command (`id` names the request's files in `dir`). */
export function warmClient(dir: string, id: string, identity: string): string {
  const file = (name: string): string => quote(`${dir}/${name}`)
  return [
    // The command's shell starts from this, as a per-command sandbox's inner shell inherited it.
    `{ builtin export -p; builtin shopt -p; builtin alias -p; builtin declare -f; builtin umask -p; builtin printf 'builtin cd -- %q || builtin exit 1\\n' "$PWD"; } >| ${file(`${id}.env`)} 2>/dev/null`,
    `builtin trap -p INT >| ${file(`${id}.trap`)}`,
    'builtin local __modus_q __modus_r __modus_l __modus_reply=',
    `exec {__modus_q}<>${file('req')} {__modus_r}<>${file('res')} {__modus_l}<>${file('life')}`,
    `builtin trap 'builtin printf "int\\n" >&$__modus_l' INT`,
    `builtin printf 'run %s %s\\n' ${quote(id)} ${quote(identity)} >&$__modus_q`,
    // A trapped Ctrl-C ends the read early (status > 128): read again until this command's answer.
    `while [[ $__modus_reply != ${quote(id)}' '* ]]; do builtin read -r __modus_reply <&$__modus_r || (( $? > 128 )) || break; done`,
    `builtin trap - INT; builtin . ${file(`${id}.trap`)}`,
    `[[ $__modus_reply == ${quote(id)}' '* ]] || __modus_reply=${quote(`${id} 125`)}`,
    'exec {__modus_q}>&- {__modus_r}>&- {__modus_l}>&-',
    `builtin return "\${__modus_reply#${id} }"`
  ].join('\n')
}
