import './setup'
import { DiffEditor, type DiffOnMount } from '@monaco-editor/react'
import { useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react'
import type { editor } from 'monaco-editor/editor'
import { languageForPath } from './language'
import { DARK_THEME, LIGHT_THEME } from './themes'

export interface MonacoDiffProps {
  path: string
  original: string
  modified: string
  sideBySide: boolean
  /** The proposed side can be edited; every edit is reported. */
  onModifiedChange?: (text: string) => void
  readOnly?: boolean
  /** Scrolls the modified side to this 1-based line when it changes. */
  revealLine?: number | null
  /** Bumped to reveal `revealLine` again (the same hunk chosen twice). */
  revealRequest?: number
  /** Modified-side line ranges to mark as rejected. */
  rejectedRanges?: Array<{ start: number; end: number }>
  height?: number
}

/** Monaco's DiffEditor with the local bundle; lazily imported by the review. */
export default function MonacoDiff(props: MonacoDiffProps): ReactNode {
  const diffEditor = useRef<editor.IStandaloneDiffEditor | null>(null)
  const decorations = useRef<editor.IEditorDecorationsCollection | null>(null)
  // Tab walks the page's controls, so a review never gains tab characters by accident; typing
  // starts editing (Tab indents) until Esc. A ref: the wrapper re-applies `options` on every render.
  const tabMovesFocus = useRef(true)
  const onChange = useRef(props.onModifiedChange)
  onChange.current = props.onModifiedChange
  const modified = useModifiedText(props.modified)
  const dark = useDarkTheme()

  const onMount: DiffOnMount = (instance, monaco) => {
    diffEditor.current = instance
    const modifiedEditor = instance.getModifiedEditor()
    decorations.current = modifiedEditor.createDecorationsCollection()
    // Open at the first change, not at line 1 (a change at line 251 of 300 would be off screen).
    const firstDiff = instance.onDidUpdateDiff(() => {
      if ((instance.getLineChanges() ?? []).length === 0) return
      firstDiff.dispose()
      instance.revealFirstDiff()
    })
    modifiedEditor.onDidChangeModelContent(() => {
      if (modifiedEditor.hasTextFocus() && tabMovesFocus.current) {
        tabMovesFocus.current = false
        modifiedEditor.updateOptions({ tabFocusMode: false })
      }
      const text = modifiedEditor.getValue()
      modified.reported(text)
      onChange.current?.(text)
    })
    nameEditInputs(instance.getOriginalEditor().getDomNode(), `Original ${props.path}`)
    nameEditInputs(modifiedEditor.getDomNode(), `Proposed ${props.path}${props.readOnly ? '' : ' (editable)'}`)
    for (const side of [instance.getOriginalEditor(), modifiedEditor]) {
      side.addAction({
        id: 'modus.leaveEditor',
        label: 'Leave the editor',
        // eslint-disable-next-line @typescript-eslint/no-unsafe-member-access -- typed under TypeScript 7; the lint's TypeScript 6 cannot resolve monaco's types
        keybindings: [monaco.KeyCode.Escape],
        precondition: ESCAPE_IS_FREE,
        run: () => {
          tabMovesFocus.current = true
          side.updateOptions({ tabFocusMode: true })
          focusAfter(instance.getContainerDomNode())
        }
      })
    }
  }

  // The wrapper disposes the models before the editor ("TextModel got disposed before
  // DiffEditorWidget model got reset"): detach them first, then dispose them here.
  useEffect(
    () => () => {
      const instance = diffEditor.current
      const models = instance?.getModel()
      instance?.setModel(null)
      models?.original.dispose()
      models?.modified.dispose()
    },
    []
  )

  useEffect(() => {
    if (props.revealLine && diffEditor.current) {
      diffEditor.current.getModifiedEditor().revealLineInCenter(props.revealLine)
    }
  }, [props.revealLine, props.revealRequest])

  useEffect(() => {
    decorations.current?.set(
      (props.rejectedRanges ?? []).map((range) => ({
        range: { startLineNumber: range.start, startColumn: 1, endLineNumber: range.end, endColumn: 1 },
        // The CSS takes Monaco's own "inserted" colours off these lines: a rejected hunk is not applied.
        options: {
          isWholeLine: true,
          className: 'hunk-rejected-line',
          linesDecorationsClassName: 'hunk-rejected-gutter',
          hoverMessage: { value: 'Rejected: this line will not be written' }
        }
      }))
    )
  }, [props.rejectedRanges])

  return (
    <DiffEditor
      height={props.height ?? 420}
      original={props.original}
      modified={modified.shown}
      language={languageForPath(props.path)}
      theme={dark ? DARK_THEME : LIGHT_THEME}
      onMount={onMount}
      keepCurrentOriginalModel
      keepCurrentModifiedModel
      options={{
        renderSideBySide: props.sideBySide,
        // Screen readers (and axe) need a name for each side's text box.
        originalAriaLabel: `Original ${props.path}`,
        modifiedAriaLabel: `Proposed ${props.path}${props.readOnly ? '' : ' (editable)'}`,
        originalEditable: false,
        readOnly: props.readOnly ?? false,
        automaticLayout: true,
        minimap: { enabled: false },
        scrollBeyondLastLine: false,
        renderOverviewRuler: true,
        useInlineViewWhenSpaceIsLimited: false,
        // Unchanged code folds away (a click on the fold shows it); the changes stay in view.
        hideUnchangedRegions: { enabled: true, contextLineCount: 3, minimumLineCount: 3, revealLineCount: 20 },
        // The review's hunk buttons are the one way to reject: no competing revert arrows or gutter menu.
        renderMarginRevertIcon: false,
        renderGutterMenu: false,
        tabFocusMode: tabMovesFocus.current,
        fontSize: 12
      }}
    />
  )
}

/**
 * The text handed to the wrapper for the modified side. The wrapper writes its `modified` prop into
 * the model whenever they differ, in an effect that can run after the user's next keystroke; feeding
 * it back the texts the editor itself reported would overwrite that keystroke. So only a text the
 * editor did not report (a genuinely new proposal) reaches the wrapper.
 */
function useModifiedText(fromProps: string): { shown: string; reported: (text: string) => void } {
  const shown = useRef(fromProps)
  const ownTexts = useRef(new Set<string>())
  if (fromProps !== shown.current && !ownTexts.current.has(fromProps)) {
    shown.current = fromProps
    ownTexts.current.clear()
  }
  return {
    shown: shown.current,
    reported: (text) => {
      if (ownTexts.current.size >= MAX_REMEMBERED_TEXTS) ownTexts.current.clear()
      ownTexts.current.add(text)
    }
  }
}

const MAX_REMEMBERED_TEXTS = 200

/** Esc leaves the editor only when no widget of the editor's own (suggest, find…) wants it. */
const ESCAPE_IS_FREE =
  '!suggestWidgetVisible && !findWidgetVisible && !parameterHintsVisible && !renameInputVisible && !inSnippetMode && !editorHasMultipleSelections'

const TABBABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

/** Moves focus to the first control after `container` in the page order (or blurs when there is none). */
function focusAfter(container: HTMLElement): void {
  const next = Array.from(document.querySelectorAll<HTMLElement>(TABBABLE)).find(
    (element) =>
      !container.contains(element) &&
      Boolean(container.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING) &&
      element.offsetParent !== null
  )
  if (next) next.focus()
  else (document.activeElement as HTMLElement | null)?.blur()
}

/**
 * Follows the theme while the diff is open: the OS switching to dark, or a theme chosen in Settings
 * (`data-theme` on the root), repaints Monaco too instead of leaving a light editor in a dark app.
 */
function useDarkTheme(): boolean {
  return useSyncExternalStore(subscribeToTheme, isDarkTheme)
}

function subscribeToTheme(onChange: () => void): () => void {
  const media = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null
  media?.addEventListener('change', onChange)
  const observer = new MutationObserver(onChange)
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] })
  return () => {
    media?.removeEventListener('change', onChange)
    observer.disconnect()
  }
}

/** The app's theme: the Settings override (`data-theme` on the root) or else the OS preference. */
function isDarkTheme(): boolean {
  const chosen = document.documentElement.dataset.theme
  if (chosen === 'dark' || chosen === 'light') return chosen === 'dark'
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches
}

/**
 * Monaco names its textarea from `originalAriaLabel`/`modifiedAriaLabel`, but where the browser has
 * the EditContext API it types into a `.native-edit-context` element that gets no name (axe:
 * aria-input-field-name). Name it, now and whenever Monaco makes a new one.
 */
function nameEditInputs(root: HTMLElement | null, label: string): void {
  if (!root) return
  const name = (): void => {
    for (const input of root.querySelectorAll('.native-edit-context, textarea.inputarea')) {
      if (!input.getAttribute('aria-label')) input.setAttribute('aria-label', label)
    }
  }
  name()
  new MutationObserver(name).observe(root, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['aria-label']
  })
}
