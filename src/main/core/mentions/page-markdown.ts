import type { BrowserSessions } from '../browser/browser-sessions'
import type { PageFetcher } from './mention-kinds'

const NAVIGATION_TIMEOUT_MS = 15_000

/**
 * Runs in the page: its visible text as Markdown (headings, paragraphs, lists, links, code, tables
 * as rows). A string, not a function, so the bundler's helpers never end up in the page.
 */
const DOM_TO_MARKDOWN = `(() => {
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'CANVAS', 'IFRAME', 'HEAD'])
  const BLOCK = new Set(['P', 'DIV', 'SECTION', 'ARTICLE', 'MAIN', 'HEADER', 'FOOTER', 'NAV', 'ASIDE', 'FORM', 'TABLE', 'TR', 'BLOCKQUOTE', 'FIGURE', 'DL', 'DT', 'DD'])
  const inline = (text) => text.replace(/\\s+/g, ' ')
  const walk = (node, depth) => {
    if (node.nodeType === 3) return inline(node.textContent || '')
    if (node.nodeType !== 1) return ''
    const el = node
    const tag = el.tagName
    if (SKIP.has(tag) || el.hidden || el.getAttribute('aria-hidden') === 'true') return ''
    const inner = () => Array.from(el.childNodes).map((c) => walk(c, depth)).join('')
    if (/^H[1-6]$/.test(tag)) return '\\n\\n' + '#'.repeat(Number(tag[1])) + ' ' + inner().trim() + '\\n\\n'
    if (tag === 'BR') return '\\n'
    if (tag === 'HR') return '\\n\\n---\\n\\n'
    if (tag === 'PRE') return '\\n\\n\`\`\`\\n' + (el.textContent || '').replace(/\\n$/, '') + '\\n\`\`\`\\n\\n'
    if (tag === 'CODE') return '\`' + (el.textContent || '') + '\`'
    if (tag === 'STRONG' || tag === 'B') return '**' + inner().trim() + '**'
    if (tag === 'EM' || tag === 'I') return '*' + inner().trim() + '*'
    if (tag === 'A') {
      const text = inner().trim()
      const href = el.getAttribute('href')
      return href && text ? '[' + text + '](' + el.href + ')' : text
    }
    if (tag === 'IMG') return el.alt ? '![' + el.alt + ']' : ''
    if (tag === 'UL' || tag === 'OL') {
      const items = Array.from(el.children).filter((c) => c.tagName === 'LI')
      return '\\n' + items.map((li, i) => '  '.repeat(depth) + (tag === 'OL' ? (i + 1) + '. ' : '- ') + Array.from(li.childNodes).map((c) => walk(c, depth + 1)).join('').trim()).join('\\n') + '\\n'
    }
    if (tag === 'TD' || tag === 'TH') return ' | ' + inner().trim()
    if (tag === 'TR') return '\\n' + inner().trim() + ' |'
    if (BLOCK.has(tag)) return '\\n\\n' + inner() + '\\n\\n'
    return inner()
  }
  const title = document.title ? '# ' + document.title.trim() + '\\n\\n' : ''
  const body = walk(document.body || document.documentElement, 0)
  return (title + body).replace(/[ \\t]+\\n/g, '\\n').replace(/\\n{3,}/g, '\\n\\n').trim()
})()`

/** Opens the approved page in the task's browser (the browser tool's session and guard) and reads it. */
export function createPageFetcher(sessions: BrowserSessions): PageFetcher {
  return async (taskId, url, checkPage) => {
    const session = await sessions.open(taskId)
    // Redirects and the page's own navigations pass the mode's check, as for browser_action.
    session.checkPagesWith(
      checkPage ?? (async () => ({ allowed: false, reason: 'no policy is available to approve it' }))
    )
    session.approve(url)
    const response = await session.page.goto(url, { waitUntil: 'load', timeout: NAVIGATION_TIMEOUT_MS })
    const markdown = await session.page.evaluate<string>(DOM_TO_MARKDOWN)
    session.drainLogs()
    return { markdown, finalUrl: session.page.url(), status: response ? response.status() : null }
  }
}
