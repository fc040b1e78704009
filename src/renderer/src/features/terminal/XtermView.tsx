import { FitAddon } from '@xterm/addon-fit'
import { Terminal, type ITheme } from '@xterm/xterm'
import '@xterm/xterm/css/xterm.css'
import { useEffect, useRef, type ReactNode } from 'react'
import { useClient } from '../../client/client-context'
import { useTerminalStore } from './terminal-store'
import type { RegisterXterm } from './xterm-api'
import { viewShortcutIndex } from '../../app-shortcuts'

/**
 * One terminal's screen: xterm.js fitted to its box. Loaded lazily (xterm is not in the first
 * bundle). On mount it replays the core's buffered output, then appends live `terminal:data` (the
 * event router hands it over through the terminal slice); keystrokes go back as `terminal:write`,
 * size changes as `terminal:resize`.
 */
export interface XtermViewProps {
  terminalId: string
  active: boolean
  exited: boolean
  register: RegisterXterm
}

const cssVar = (name: string, fallback: string): string =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback

const themeFromPage = (): ITheme => ({
  background: cssVar('--terminal-bg', cssVar('--panel', '#1e1e1e')),
  foreground: cssVar('--terminal-fg', cssVar('--fg', '#e6e8eb')),
  cursor: cssVar('--accent', '#748ffc'),
  selectionBackground: cssVar('--terminal-selection', 'rgba(116, 143, 252, 0.35)')
})

export default function XtermView(props: XtermViewProps): ReactNode {
  const { terminalId, register } = props
  const client = useClient()
  const box = useRef<HTMLDivElement>(null)
  const termRef = useRef<Terminal | null>(null)
  const refit = useRef<() => void>(() => undefined)

  useEffect(() => {
    const element = box.current
    if (!element) return
    const term = new Terminal({
      scrollback: 10_000,
      cursorBlink: true,
      fontSize: 13,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
      theme: themeFromPage(),
      // Programs pick colours for a dark screen (yellow, bright green…); xterm shifts any that would
      // fall under 4.5:1 on the app's background, light or dark, as WCAG asks of text.
      minimumContrastRatio: 4.5
    })
    const fit = new FitAddon()
    term.loadAddon(fit)
    term.open(element)
    termRef.current = term

    // Data that arrives before the buffered output is already inside it (the core flushes first).
    let replayed = false
    const terminals = useTerminalStore.getState()
    const unsubscribe = terminals.onOutput(terminalId, (data) => {
      if (replayed) term.write(data)
    })
    void terminals.readOutput(client, terminalId).then((output) => {
      if (output !== null) term.write(output)
      replayed = true
    })

    const input = term.onData((data) => terminals.write(client, terminalId, data))

    let lastSize = ''
    let frame = 0
    refit.current = () => {
      cancelAnimationFrame(frame)
      frame = requestAnimationFrame(() => {
        if (element.offsetWidth === 0 || element.offsetHeight === 0) return
        try {
          fit.fit()
        } catch {
          return // not laid out yet
        }
        const size = `${term.cols}x${term.rows}`
        if (size === lastSize) return
        lastSize = size
        terminals.resize(client, terminalId, term.cols, term.rows)
      })
    }
    const observer = new ResizeObserver(() => refit.current())
    observer.observe(element)
    refit.current()

    const copySelection = async (): Promise<boolean> => {
      const text = term.getSelection()
      if (!text) return false
      await navigator.clipboard.writeText(text)
      return true
    }
    // Ctrl+Shift+C copies (Ctrl+C stays the interrupt); Ctrl+Shift+V pastes through the browser.
    term.attachCustomKeyEventHandler((event) => {
      // The app's shortcuts (Alt+1 … switch views) pass through to the app instead of the shell.
      if (viewShortcutIndex(event) !== null) return false
      if (event.type === 'keydown' && event.ctrlKey && event.shiftKey && event.code === 'KeyC') {
        void copySelection()
        return false
      }
      return true
    })
    register(terminalId, { copySelection, clear: () => term.clear(), focus: () => term.focus() })

    // Follow the app theme (the settings set attributes on <html>) and the OS light/dark switch.
    const retheme = (): void => {
      term.options.theme = themeFromPage()
    }
    const themeObserver = new MutationObserver(retheme)
    themeObserver.observe(document.documentElement, { attributes: true })
    const scheme = window.matchMedia?.('(prefers-color-scheme: dark)')
    scheme?.addEventListener('change', retheme)

    return () => {
      register(terminalId, null)
      themeObserver.disconnect()
      scheme?.removeEventListener('change', retheme)
      cancelAnimationFrame(frame)
      observer.disconnect()
      input.dispose()
      unsubscribe()
      term.dispose()
      termRef.current = null
    }
  }, [client, terminalId, register])

  useEffect(() => {
    if (termRef.current) termRef.current.options.disableStdin = props.exited
  }, [props.exited])

  useEffect(() => {
    if (!props.active) return
    refit.current()
    termRef.current?.focus()
  }, [props.active])

  return <div className="xterm-box" ref={box} hidden={!props.active} data-terminal-id={terminalId} />
}
