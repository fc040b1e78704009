/**
 * Light syntax colouring for code blocks in chat: comments, strings, numbers and keywords for the
 * language families models write most. Tokens are plain data; the renderer turns them into spans.
 */

export type TokenKind = 'plain' | 'comment' | 'string' | 'number' | 'keyword' | 'literal'
export interface Token {
  kind: TokenKind
  text: string
}

interface Grammar {
  comment: RegExp[]
  string: RegExp[]
  keywords: Set<string>
  literals: Set<string>
}

const words = (list: string): Set<string> => new Set(list.split(/\s+/).filter(Boolean))

const C_COMMENTS = [/\/\/[^\n]*/y, /\/\*[\s\S]*?(?:\*\/|$)/y]
const HASH_COMMENT = [/#[^\n]*/y]
const QUOTED = [/"(?:[^"\\\n]|\\.)*"?/y, /'(?:[^'\\\n]|\\.)*'?/y]

const JS: Grammar = {
  comment: C_COMMENTS,
  string: [...QUOTED, /`(?:[^`\\]|\\[\s\S])*`?/y],
  keywords: words(`break case catch class const continue debugger default delete do else export extends finally for
    from function if import in instanceof let new return super switch this throw try typeof var void while with yield
    async await of static get set interface type enum implements private protected public readonly declare namespace
    abstract as keyof satisfies`),
  literals: words('true false null undefined NaN Infinity')
}

const GRAMMARS: Record<string, Grammar> = {
  js: JS,
  python: {
    comment: HASH_COMMENT,
    string: [/"""[\s\S]*?(?:"""|$)/y, /'''[\s\S]*?(?:'''|$)/y, ...QUOTED],
    keywords: words(`and as assert async await break class continue def del elif else except finally for from global if
      import in is lambda nonlocal not or pass raise return try while with yield match case`),
    literals: words('True False None self')
  },
  shell: {
    comment: HASH_COMMENT,
    string: QUOTED,
    keywords: words(
      'if then else elif fi for while do done case esac function in return export local set unset echo cd'
    ),
    literals: words('true false')
  },
  json: { comment: [], string: [/"(?:[^"\\\n]|\\.)*"?/y], keywords: new Set(), literals: words('true false null') },
  c: {
    comment: C_COMMENTS,
    string: QUOTED,
    keywords: words(`auto break case char const continue default do double else enum extern float for goto if int long
      register return short signed sizeof static struct switch typedef union unsigned void volatile while class public
      private protected virtual template typename namespace using new delete fn let mut impl trait pub use mod match
      crate self Self where loop move ref func package import type var go defer chan map range select interface struct
      val fun when object override lateinit`),
    literals: words('true false null nullptr nil None')
  },
  css: {
    comment: [/\/\*[\s\S]*?(?:\*\/|$)/y],
    string: QUOTED,
    keywords: words('important media import supports keyframes font-face'),
    literals: words('none auto inherit initial')
  }
}

const ALIASES: Record<string, string> = {
  javascript: 'js',
  jsx: 'js',
  ts: 'js',
  tsx: 'js',
  typescript: 'js',
  mjs: 'js',
  cjs: 'js',
  py: 'python',
  python3: 'python',
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  console: 'shell',
  shellscript: 'shell',
  jsonc: 'json',
  json5: 'json',
  cpp: 'c',
  'c++': 'c',
  h: 'c',
  hpp: 'c',
  java: 'c',
  cs: 'c',
  csharp: 'c',
  rust: 'c',
  rs: 'c',
  go: 'c',
  kotlin: 'c',
  kt: 'c',
  swift: 'c',
  scss: 'css',
  less: 'css'
}

export const grammarFor = (lang: string): Grammar | null => GRAMMARS[ALIASES[lang] ?? lang] ?? null

const NUMBER = /(?:0[xX][\da-fA-F_]+|\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?)\b/y
const WORD = /[A-Za-z_$][\w$]*/y

/** Tokens whose texts concatenate back to `code` exactly; unknown languages give one plain token. */
export function highlight(code: string, lang: string): Token[] {
  const grammar = grammarFor(lang)
  if (!grammar) return [{ kind: 'plain', text: code }]
  const tokens: Token[] = []
  let plain = ''
  const push = (kind: TokenKind, text: string): void => {
    if (plain) tokens.push({ kind: 'plain', text: plain })
    plain = ''
    tokens.push({ kind, text })
  }
  let i = 0
  outer: while (i < code.length) {
    for (const [kind, patterns] of [
      ['comment', grammar.comment],
      ['string', grammar.string]
    ] as const) {
      for (const pattern of patterns) {
        pattern.lastIndex = i
        const match = pattern.exec(code)
        if (match && match[0].length > 0) {
          push(kind, match[0])
          i += match[0].length
          continue outer
        }
      }
    }
    const char = code[i]
    if (/\d/.test(char) && (i === 0 || !/[\w$]/.test(code[i - 1]))) {
      NUMBER.lastIndex = i
      const match = NUMBER.exec(code)
      if (match) {
        push('number', match[0])
        i += match[0].length
        continue
      }
    }
    if (/[A-Za-z_$]/.test(char)) {
      WORD.lastIndex = i
      const word = WORD.exec(code)![0]
      if (grammar.keywords.has(word)) push('keyword', word)
      else if (grammar.literals.has(word)) push('literal', word)
      else plain += word
      i += word.length
      continue
    }
    plain += char
    i++
  }
  if (plain) tokens.push({ kind: 'plain', text: plain })
  return tokens
}
