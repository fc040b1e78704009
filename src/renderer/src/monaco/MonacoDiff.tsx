import './setup'
import { DiffEditor, type DiffOnMount } from '@monaco-editor/react'
import { useEffect, useRef, type ReactNode } from 'react'
import type { editor } from 'monaco-editor/editor'
import { languageForPath } from './language'

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
  /** Modified-side line ranges to mark as rejected. */
  rejectedRanges?: Array<{ start: number; end: number }>
  height?: number
}

/** Monaco's DiffEditor with the local bundle; lazily imported by the review. */
export default function MonacoDiff(props: MonacoDiffProps): ReactNode {
  const diffEditor = useRef<editor.IStandaloneDiffEditor | null>(null)
  const decorations = useRef<editor.IEditorDecorationsCollection | null>(null)
  const onChange = useRef(props.onModifiedChange)
  onChange.current = props.onModifiedChange
  const dark = isDarkTheme()

  const onMount: DiffOnMount = (instance) => {
    diffEditor.current = instance
    const modifiedEditor = instance.getModifiedEditor()
    decorations.current = modifiedEditor.createDecorationsCollection()
    modifiedEditor.onDidChangeModelContent(() => onChange.current?.(modifiedEditor.getValue()))
  }

  useEffect(() => {
    if (props.revealLine && diffEditor.current) {
      diffEditor.current.getModifiedEditor().revealLineInCenter(props.revealLine)
    }
  }, [props.revealLine])

  useEffect(() => {
    decorations.current?.set(
      (props.rejectedRanges ?? []).map((range) => ({
        range: { startLineNumber: range.start, startColumn: 1, endLineNumber: range.end, endColumn: 1 },
        options: { isWholeLine: true, className: 'hunk-rejected-line', linesDecorationsClassName: 'hunk-rejected-gutter' }
      }))
    )
  }, [props.rejectedRanges])

  return (
    <DiffEditor
      height={props.height ?? 420}
      original={props.original}
      modified={props.modified}
      language={languageForPath(props.path)}
      theme={dark ? 'vs-dark' : 'vs'}
      onMount={onMount}
      options={{
        renderSideBySide: props.sideBySide,
        originalEditable: false,
        readOnly: props.readOnly ?? false,
        automaticLayout: true,
        minimap: { enabled: false },
        scrollBeyondLastLine: false,
        renderOverviewRuler: true,
        useInlineViewWhenSpaceIsLimited: false,
        fontSize: 12
      }}
    />
  )
}

/** The app's theme: the Settings override (`data-theme` on the root) or else the OS preference. */
function isDarkTheme(): boolean {
  const chosen = document.documentElement.dataset.theme
  if (chosen === 'dark' || chosen === 'light') return chosen === 'dark'
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches
}
