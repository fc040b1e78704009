import { readFile } from 'node:fs/promises'
import { Language, Parser, Query } from 'web-tree-sitter'
import type { DefinitionKind, LanguageSpec } from './languages'
import { grammarWasm, treeSitterRuntimeWasm } from './wasm-files'

/** A definition found in a file: 1-based inclusive line range. */
export interface Definition {
  kind: DefinitionKind
  name: string
  startLine: number
  endLine: number
  /** Nesting depth among definitions (0 = top level). */
  depth: number
}

interface LoadedLanguage {
  parser: Parser
  query: Query
}

export interface CodeParser {
  /** Definitions in source order (outer before inner). Throws when the grammar or query fails to load. */
  definitions(text: string, language: LanguageSpec): Promise<Definition[]>
  /**
   * Loads a language ahead of the files that will need it, and with a text parses it ahead: the
   * parse that then asks for the same text gets that answer (a parser may do nothing here).
   */
  warm?(language: LanguageSpec, text?: string): void
  dispose(): void
}

let runtimeReady: Promise<void> | null = null

/** The wasm runtime is process-wide in web-tree-sitter; initialise it once, from the file on disk. */
function initRuntime(): Promise<void> {
  runtimeReady ??= readFile(treeSitterRuntimeWasm()).then((wasmBinary) => Parser.init({ wasmBinary }))
  runtimeReady.catch(() => (runtimeReady = null))
  return runtimeReady
}

/** Parses with the grammars of @vscode/tree-sitter-wasm; each language is loaded on first use. */
export function createCodeParser(): CodeParser {
  const loaded = new Map<string, Promise<LoadedLanguage>>()

  const load = (spec: LanguageSpec): Promise<LoadedLanguage> => {
    let pending = loaded.get(spec.id)
    if (!pending) {
      pending = (async () => {
        await initRuntime()
        const language = await Language.load(await readFile(grammarWasm(spec.grammar)))
        const parser = new Parser()
        parser.setLanguage(language)
        return { parser, query: new Query(language, spec.query) }
      })()
      pending.catch(() => loaded.delete(spec.id))
      loaded.set(spec.id, pending)
    }
    return pending
  }

  return {
    async definitions(text, spec) {
      const { parser, query } = await load(spec)
      const tree = parser.parse(text)
      if (!tree) return []
      try {
        return collectDefinitions(query, tree.rootNode, spec)
      } finally {
        tree.delete()
      }
    },
    dispose() {
      for (const pending of loaded.values()) {
        pending.then(({ parser, query }) => (parser.delete(), query.delete())).catch(() => undefined)
      }
      loaded.clear()
    }
  }
}

type SyntaxNode = Parameters<Query['matches']>[0]

/** One query match that names a definition, as plain data (what a parse worker sends back too). */
export interface DefinitionMatch {
  pattern: number
  /** The capture's name after `definition.`. */
  kind: string
  start: number
  end: number
  startRow: number
  endRow: number
  endColumn: number
  /** The `@name` capture's text ('' when none). */
  name: string
}

/** The query's matches that name a definition (parse-worker.ts reads them the same way in its thread). */
function definitionMatches(query: Query, root: SyntaxNode): DefinitionMatch[] {
  const found: DefinitionMatch[] = []
  for (const match of query.matches(root)) {
    const definition = match.captures.find((c) => c.name.startsWith('definition.'))
    if (!definition) continue
    const name = match.captures.find((c) => c.name === 'name')
    const node = definition.node
    found.push({
      pattern: match.patternIndex,
      kind: definition.name.slice('definition.'.length),
      start: node.startIndex,
      end: node.endIndex,
      startRow: node.startPosition.row,
      endRow: node.endPosition.row,
      endColumn: node.endPosition.column,
      name: name?.node.text ?? ''
    })
  }
  return found
}

function collectDefinitions(query: Query, root: SyntaxNode, spec: LanguageSpec): Definition[] {
  return definitionsFrom(definitionMatches(query, root), spec)
}

/** Definitions from a file's matches: one per node (the first pattern that names it wins), nested. */
export function definitionsFrom(matches: readonly DefinitionMatch[], spec: LanguageSpec): Definition[] {
  const seen = new Set<string>()
  const found: Array<{
    kind: DefinitionKind
    name: string
    start: number
    end: number
    startLine: number
    endLine: number
  }> = []
  // Matches come in pattern order per node; the first pattern that names a node wins (specific first).
  const ordered = [...matches].sort((a, b) => a.pattern - b.pattern)
  for (const match of ordered) {
    const key = `${match.start}:${match.end}`
    if (seen.has(key)) continue
    seen.add(key)
    found.push({
      kind: match.kind as DefinitionKind,
      name: firstLine(match.name),
      start: match.start,
      end: match.end,
      startLine: match.startRow + 1,
      endLine: match.endRow + (match.endColumn === 0 && match.endRow > match.startRow ? 0 : 1)
    })
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end)
  return nest(found, spec)
}

const firstLine = (text: string): string =>
  text
    .split('\n', 1)[0]
    .replace(/\s*\{\s*$/, '')
    .trim()

/** Depth from containment; a function directly inside a method container becomes a method. */
function nest(
  found: Array<{ kind: DefinitionKind; name: string; start: number; end: number; startLine: number; endLine: number }>,
  spec: LanguageSpec
): Definition[] {
  const stack: Array<{ end: number; kind: DefinitionKind }> = []
  return found.map((d) => {
    while (stack.length && stack[stack.length - 1].end <= d.start) stack.pop()
    const parent = stack[stack.length - 1]
    const kind = d.kind === 'function' && parent && spec.methodContainers.has(parent.kind) ? 'method' : d.kind
    stack.push({ end: d.end, kind })
    return { kind, name: d.name, startLine: d.startLine, endLine: d.endLine, depth: stack.length - 1 }
  })
}
