/**
 * The local Monaco setup. Imported only by lazily loaded modules, so Monaco is fetched the first time
 * a diff is shown and never from a CDN (the loader would otherwise default to jsdelivr).
 */
import * as monaco from 'monaco-editor/editor'
import 'monaco-editor/features/register.all'
import 'monaco-editor/languages/definitions/register.all'
import { loader } from '@monaco-editor/react'
import EditorWorker from 'monaco-editor/editor/editor.worker?worker'
import { defineThemes } from './themes'

self.MonacoEnvironment = { getWorker: (): Worker => new EditorWorker() }
loader.config({ monaco })
defineThemes((name, data) => monaco.editor.defineTheme(name, data))

export { monaco }
