import type { Page } from '@playwright/test'

/**
 * Reads a view as it is drawn and lists where it leaves the design system in styles.css: spacing
 * (padding, gaps, vertical margins) off the --space-* scale, text off the --text-* scale, a view title
 * that is not --text-xl, and buttons that are none of primary / secondary / ghost / danger by their
 * computed colours. Monaco and xterm draw their own insides and are skipped.
 */
export function designProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const root = getComputedStyle(document.documentElement)
    const tokens = (prefix: string) =>
      Array.from(document.styleSheets)
        .flatMap((sheet) => Array.from(sheet.cssRules))
        .flatMap((rule) =>
          rule instanceof CSSStyleRule && rule.selectorText === ':root' ? Array.from(rule.style) : []
        )
        .filter((name) => name.startsWith(prefix))
        .map((name) => root.getPropertyValue(name).trim())
    const space = new Set(['0px', ...tokens('--space-')])
    const text = new Set(tokens('--text-'))
    const probe = document.createElement('span')
    document.body.append(probe)
    const colour = (token: string) => {
      probe.style.color = `var(${token})`
      return getComputedStyle(probe).color
    }
    const c = Object.fromEntries(
      ['--bg', '--fg', '--panel', '--border', '--accent', '--on-accent', '--danger', '--on-danger', '--ok'].map((t) => [
        t,
        colour(t)
      ])
    )
    probe.remove()
    const clear = 'rgba(0, 0, 0, 0)'

    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''}${el.textContent?.trim() ? ` "${el.textContent.trim().slice(0, 30)}"` : ''}`

    const variant = (button: HTMLElement, s: CSSStyleDeclaration): string | null => {
      const [bg, fg, edge] = [s.backgroundColor, s.color, s.borderTopColor]
      const current = ['aria-current', 'aria-selected', 'aria-checked'].some(
        (name) => !['false', null].includes(button.getAttribute(name))
      )
      if (bg === c['--accent'] && fg === c['--on-accent']) return 'primary'
      if (fg === c['--danger'] && edge === c['--danger'] && [c['--panel'], c['--bg']].includes(bg)) return 'danger'
      if (bg === c['--danger'] && fg === c['--on-danger']) return 'danger'
      if (bg === c['--panel'] && edge === c['--border'] && fg === c['--fg']) return 'secondary'
      if (bg === clear && (edge === clear || s.borderTopWidth === '0px')) return 'ghost'
      if (current && [c['--bg'], c['--panel']].includes(bg) && [c['--border'], c['--accent']].includes(edge))
        return 'ghost'
      // A pressed decision toggle (Accept / Reject a hunk) fills with what it decided.
      if (button.getAttribute('aria-pressed') === 'true' && [c['--ok'], c['--danger'], c['--accent']].includes(bg))
        return 'toggle'
      return null
    }

    const problems: string[] = []
    const scope = document.querySelector('.app')!
    for (const el of Array.from(scope.querySelectorAll<HTMLElement>('*'))) {
      if (el.closest('.monaco-editor, .monaco-diff-editor, .xterm, svg')) continue
      if (el.getClientRects().length === 0) continue
      const s = getComputedStyle(el)
      const what = describe(el)
      for (const side of [
        'paddingTop',
        'paddingRight',
        'paddingBottom',
        'paddingLeft',
        'marginTop',
        'marginBottom'
      ] as const)
        if (!space.has(s[side])) problems.push(`${what}: ${side} ${s[side]} is off the spacing scale`)
      if (/flex|grid/.test(s.display))
        for (const gap of ['rowGap', 'columnGap'] as const)
          if (s[gap] !== 'normal' && !space.has(s[gap]))
            problems.push(`${what}: ${gap} ${s[gap]} is off the spacing scale`)
      const ownText = Array.from(el.childNodes).some(
        (node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim()
      )
      if (ownText && !text.has(s.fontSize)) problems.push(`${what}: font-size ${s.fontSize} is off the type scale`)
      if (
        el.tagName === 'H1' &&
        !el.classList.contains('task-title') &&
        s.fontSize !== root.getPropertyValue('--text-xl').trim()
      )
        problems.push(`${what}: a view title at ${s.fontSize}`)
      if (el.tagName === 'BUTTON' && !variant(el, s))
        problems.push(
          `${what}: a button outside the hierarchy (bg ${s.backgroundColor}, border ${s.borderTopColor}, text ${s.color})`
        )
    }
    return problems
  })
}
