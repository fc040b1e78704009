import { grantsNeedTrust, type AutoApprove, type ResolvedMode } from '../modes/schema'
import type { PathFacts } from './paths'

type Verdict = { decision: 'allow' | 'ask'; rule: string; reason: string }

const originOf = (url: URL): string => `${url.protocol}//${url.host}`

/** The http(s) origin of a page URL, as a browser URL allow rule names it; undefined for anything else. */
export function webOriginOf(url: string | undefined): string | undefined {
  if (!url) return undefined
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? originOf(parsed) : undefined
  } catch {
    return undefined
  }
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * An http(s) origin on this machine (`http://localhost:3000`): which server answers there depends
 * on the task (each isolated task has its own ports), so an "always" for it holds in that task only.
 */
export function isLoopbackOrigin(origin: string | undefined): boolean {
  if (!origin) return false
  try {
    const url = new URL(origin)
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOCAL_HOSTS.has(url.hostname)
  } catch {
    return false
  }
}

/** What the page is, for the reason and the rules: an origin, or the file it opens. */
function describe(url: URL): string {
  return url.protocol === 'file:' ? `the file ${decodeURIComponent(url.pathname)}` : `the origin ${originOf(url)}`
}

/** The same origin as the page's (`http://127.0.0.1:A`): scheme, host and port, or the same file. */
function sameOrigin(url: URL, pageUrl: string): boolean {
  try {
    const page = new URL(pageUrl)
    return url.protocol === 'file:'
      ? page.protocol === 'file:' && page.pathname === url.pathname
      : originOf(page) === originOf(url)
  } catch {
    return false
  }
}

/** A per-mode allow rule: an origin (`https://docs.example.com`) or a URL prefix (`https://example.com/app/`). */
const matchesRule = (url: URL, rule: string): boolean => {
  let ruleUrl: URL
  try {
    ruleUrl = new URL(rule)
  } catch {
    return false
  }
  // Same origin always; a path in the rule narrows it to that prefix (never a longer host name).
  return originOf(url) === originOf(ruleUrl) && url.href.startsWith(ruleUrl.href)
}

/**
 * Browser calls: opening a page asks by default, since a page can exfiltrate what the model types
 * into it. The mode's browser toggle approves localhost / 127.0.0.1 / the workspace's own files;
 * any other origin asks unless one of the mode's URL allow rules names it. Actions on the page
 * already open run unasked. `openedFrom`: the page that starts a navigation or request by itself;
 * the toggle covers only its own origin.
 */
export function decideBrowser(
  url: string | undefined,
  ctx: { mode: ResolvedMode; trusted: boolean; facts: (path: string) => PathFacts; openedFrom?: string },
  auto: AutoApprove
): Verdict {
  if (url === undefined)
    return { decision: 'allow', rule: 'browser-session', reason: 'Acts on the page already opened in this task' }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { decision: 'ask', rule: 'default-ask', reason: `Opening ${url} (not a valid URL) needs approval` }
  }
  const what = describe(parsed)
  const local =
    ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && LOCAL_HOSTS.has(parsed.hostname)) ||
    (parsed.protocol === 'file:' && !ctx.facts(decodeURIComponent(parsed.pathname)).outsideWorkspace)
  // Origins are exact: a page reaching another origin (127.0.0.1:A → 127.0.0.1:B, another local
  // service) is not what the toggle approved; only a URL rule, or a launch the user sees, opens it.
  const crossOrigin = ctx.openedFrom !== undefined && !sameOrigin(parsed, ctx.openedFrom)
  if (local && !crossOrigin) {
    return auto.browser
      ? {
          decision: 'allow',
          rule: 'auto-approve.browser',
          reason: `Local pages are auto-approved in this mode (${what})`
        }
      : { decision: 'ask', rule: 'default-ask', reason: `Opening ${what} needs approval in this mode` }
  }
  // A project file's rules count only in a trusted workspace, as for command rules.
  const rules = grantsNeedTrust(ctx.mode) && !ctx.trusted ? [] : (ctx.mode.browserRules?.allow ?? [])
  const rule = rules.find((candidate) => matchesRule(parsed, candidate))
  if (rule)
    return {
      decision: 'allow',
      rule: `browser-allow:${rule}`,
      reason: `The mode's URL allow rule ${rule} matches ${what}`
    }
  if (local)
    return {
      decision: 'ask',
      rule: 'foreign-origin',
      reason: `The page on ${ctx.openedFrom} reaching ${what}, another origin, always needs approval: no URL allow rule of this mode matches`
    }
  return {
    decision: 'ask',
    rule: 'foreign-origin',
    reason: `Opening ${what} always needs approval: it is not local and no URL allow rule of this mode matches`
  }
}
