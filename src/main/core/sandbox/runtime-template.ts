/**
 * A kept wrap of the runtime, for Linux commands with network. The runtime builds each wrap anew
 * (a ripgrep scan, `which` on the shell, mount bookkeeping) though only two things in it change
 * from one command to the next: the command, and the command's proxy identity (the base64 of its
 * id, in the proxy URLs and user names). So the runtime wraps a fixed inner script once, which
 * runs the command it finds in the environment, and each command gets that text with its own
 * identity put in and its text in `MODUS_SANDBOX_COMMAND`.
 */
import { randomBytes } from 'node:crypto'
import { shellWord } from './bwrap-args'

/** Runs the prelude (definitions), then the command: two evals, so aliases the prelude defines apply to the command. */
export const TEMPLATE_INNER =
  'eval "$MODUS_SANDBOX_PRELUDE"; _modus_command=$MODUS_SANDBOX_COMMAND; unset MODUS_SANDBOX_PRELUDE MODUS_SANDBOX_COMMAND; eval "$_modus_command"'

/** The runtime's attribution key for a command id (sandbox-utils attributionKeyFor + encodeSandboxedCommand). */
export const identityOf = (commandId: string): string => Buffer.from(commandId).toString('base64')

/**
 * A new command id (128 random bits) whose identity is letters and digits, with `==` padding,
 * so it reads the same inside and outside URLs and quotes, and one replace finds every copy.
 */
export function templateCommandId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url')
    if (/^[A-Za-z0-9]+=*$/.test(identityOf(id))) return id
  }
}

export interface KeptWrap {
  /** The runtime's wrap of TEMPLATE_INNER, made under `id`. */
  text: string
  id: string
}

/** Whether a wrap can be kept: a plain bwrap line (not the form that passes its mounts through an open file). */
export const keepable = (text: string, bwrap: string): boolean =>
  text.startsWith(`${shellWord(bwrap)} `) && !text.includes('--args')

/** The kept wrap for one command: its identity, its prelude and its text. */
export function fromKeptWrap(kept: KeptWrap, commandId: string, prelude: string, command: string): string {
  const identity = identityOf(commandId)
  const old = identityOf(kept.id)
  const text = kept.text.replaceAll(encodeURIComponent(old), encodeURIComponent(identity)).replaceAll(old, identity)
  return `MODUS_SANDBOX_PRELUDE=${shellWord(prelude)} MODUS_SANDBOX_COMMAND=${shellWord(command)} ${text}`
}
