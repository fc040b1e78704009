import { bashQuery } from './queries/bash'
import { cQuery } from './queries/c'
import { cppQuery } from './queries/cpp'
import { csharpQuery } from './queries/csharp'
import { cssQuery } from './queries/css'
import { goQuery } from './queries/go'
import { javaQuery } from './queries/java'
import { javascriptQuery } from './queries/javascript'
import { phpQuery } from './queries/php'
import { pythonQuery } from './queries/python'
import { rubyQuery } from './queries/ruby'
import { rustQuery } from './queries/rust'
import { typescriptQuery } from './queries/typescript'

export type DefinitionKind =
  | 'class'
  | 'struct'
  | 'interface'
  | 'trait'
  | 'type'
  | 'enum'
  | 'module'
  | 'impl'
  | 'function'
  | 'method'
  | 'macro'
  | 'rule'

export interface LanguageSpec {
  id: string
  /** File name in @vscode/tree-sitter-wasm: tree-sitter-<grammar>.wasm. */
  grammar: string
  query: string
  /** A function defined directly inside one of these is a method. */
  methodContainers: ReadonlySet<DefinitionKind>
}

const classLike: ReadonlySet<DefinitionKind> = new Set(['class', 'struct', 'interface', 'trait', 'impl'])
const rubyContainers: ReadonlySet<DefinitionKind> = new Set(['class', 'module'])
const none: ReadonlySet<DefinitionKind> = new Set()

const spec = (id: string, grammar: string, query: string, methodContainers = classLike): LanguageSpec => ({
  id,
  grammar,
  query,
  methodContainers
})

const typescript = spec('typescript', 'typescript', typescriptQuery)
const tsx = spec('tsx', 'tsx', typescriptQuery)
const javascript = spec('javascript', 'javascript', javascriptQuery)
const python = spec('python', 'python', pythonQuery)
const go = spec('go', 'go', goQuery, none)
const rust = spec('rust', 'rust', rustQuery)
const java = spec('java', 'java', javaQuery)
const c = spec('c', 'cpp', cQuery, none)
const cpp = spec('cpp', 'cpp', cppQuery)
const csharp = spec('csharp', 'c-sharp', csharpQuery)
const ruby = spec('ruby', 'ruby', rubyQuery, rubyContainers)
const php = spec('php', 'php', phpQuery)
const css = spec('css', 'css', cssQuery, none)
const bash = spec('bash', 'bash', bashQuery, none)

const byExtension: Readonly<Record<string, LanguageSpec>> = {
  ts: typescript,
  mts: typescript,
  cts: typescript,
  tsx,
  js: javascript,
  mjs: javascript,
  cjs: javascript,
  jsx: javascript,
  py: python,
  pyi: python,
  go,
  rs: rust,
  java,
  c,
  h: c,
  cc: cpp,
  cpp,
  cxx: cpp,
  hh: cpp,
  hpp: cpp,
  hxx: cpp,
  cs: csharp,
  rb: ruby,
  php,
  css,
  sh: bash,
  bash
}

/** The language of a file by its extension (case-insensitive), or undefined when none is parsed. */
export function languageFor(path: string): LanguageSpec | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1)
  const dot = name.lastIndexOf('.')
  if (dot <= 0) return undefined
  const ext = name.slice(dot + 1).toLowerCase()
  return Object.hasOwn(byExtension, ext) ? byExtension[ext] : undefined
}
