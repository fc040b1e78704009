/**
 * The logger handed to both SDKs. On a malformed server-sent event they print the raw message and
 * chunk to stderr ("Could not parse message into JSON", "From chunk") and then throw; the thrown
 * error already reaches the user once, in words (classify-error). Those two lines are dropped here;
 * anything else the SDKs report still goes to the console.
 */
const SAID_BY_US = ['Could not parse message into JSON', 'From chunk']

const saidByUs = (args: unknown[]): boolean =>
  typeof args[0] === 'string' && SAID_BY_US.some((prefix) => (args[0] as string).startsWith(prefix))

export const sdkLogger = {
  error: (...args: unknown[]): void => {
    if (!saidByUs(args)) console.error(...args)
  },
  warn: (...args: unknown[]): void => console.warn(...args),
  info: (): void => undefined,
  debug: (): void => undefined
}
