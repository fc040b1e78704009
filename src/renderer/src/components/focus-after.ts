/**
 * Focus after an action (WCAG 2.4.3): the control the user pressed often leaves the page with the
 * action (an answered approval, a closed form), and the browser then drops focus to `<body>`.
 * These helpers give it to the next thing to act on, or back to where the user came from.
 */

const MAX_FRAMES = 120

/**
 * Focuses what `find` returns once it is on screen (it may render a few frames later, after the
 * core answered). It leaves the focus alone if the user has put it somewhere else meanwhile.
 * `from` is where the user acted: called after an await, pass the focus as it was before it, since
 * by then the user may already be at work elsewhere (a menu they opened would lose the keyboard).
 */
export function focusWhenReady(
  find: () => HTMLElement | null | undefined,
  from: Element | null = document.activeElement
): void {
  let frames = 0
  const attempt = (): void => {
    if (!focusIsFree(from)) return
    const target = find()
    if (target && target.isConnected && !isDisabled(target)) {
      target.focus()
      return
    }
    if (++frames < MAX_FRAMES) requestAnimationFrame(attempt)
  }
  requestAnimationFrame(attempt)
}

/** The focus is still where the action left it (or lost): moving it does not take it from the user. */
function focusIsFree(from: Element | null): boolean {
  const active = document.activeElement
  return !active || active === document.body || active === from || !active.isConnected || isDisabled(active)
}

const isDisabled = (element: Element): boolean => element instanceof HTMLButtonElement && element.disabled

/** The chat's message field, the next place to act once a task needs nothing else from the user. */
export const composerField = (): HTMLElement | null => document.querySelector<HTMLElement>('.composer textarea')

/** The first control inside `root` a keyboard user can reach. */
export const firstFocusable = (root: ParentNode | null | undefined): HTMLElement | null =>
  root?.querySelector<HTMLElement>(
    'input:not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled])'
  ) ?? null

/**
 * A ref that focuses its element once it is mounted, in place of `autoFocus`: Preact's compat layer
 * (the renderer's React) only sets the attribute, which the browser honours for a page's first
 * autofocus element alone, where React focused each element itself.
 */
export const focusOnMount = (element: HTMLElement | null): void => element?.focus()
