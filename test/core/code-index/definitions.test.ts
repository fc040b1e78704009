import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { languageFor } from '../../../src/main/core/code-index/languages'
import { createWorkerCodeParser } from '../../../src/main/core/code-index/parse-worker'
import { createCodeParser } from '../../../src/main/core/code-index/parser'

const fixtures = join(__dirname, 'fixtures')
// The same expectations in this thread and in the parse worker the index's build uses.
const parsers = [
  ['in this thread', createCodeParser()],
  ['in a worker thread', createWorkerCodeParser()]
] as const
/** TypeScript fixtures carry a .txt suffix so the project's typecheck leaves them alone. */
const readFixture = (file: string): string =>
  readFileSync(join(fixtures, /\.tsx?$/.test(file) ? `${file}.txt` : file), 'utf8')
afterAll(() => parsers.forEach(([, parser]) => parser.dispose()))

/** Per fixture: `kind name start-end`, indented by nesting depth, as a reader of the file would list them. */
const expected: Record<string, string[]> = {
  'sample.ts': [
    'interface Shape 3-5',
    '  method area 4-4',
    'type Id 7-7',
    'enum Color 9-12',
    'class Base 14-16',
    '  method describe 15-15',
    'class Circle 18-28',
    '  method constructor 19-21',
    '  method area 23-25',
    '  method describe 27-27',
    'function makeCircle 30-32',
    'function double 34-34',
    'module Geometry 36-40',
    '  function origin 37-39'
  ],
  'sample.tsx': ['interface Props 3-5', 'function Button 7-9', 'function Card 11-15'],
  'sample.js': [
    'class Reader 3-11',
    '  method constructor 4-6',
    '  method read 8-10',
    'function parse 13-15',
    'function count 17-17'
  ],
  'sample.py': [
    'class Store 4-11',
    '  method __init__ 7-8',
    '  method get 10-11',
    'function main 14-16',
    'function helper 20-21'
  ],
  'sample.go': [
    'struct Point 3-5',
    'interface Shape 7-9',
    'type Meters 11-11',
    'method Sum 13-15',
    'function New 17-19'
  ],
  'sample.rs': [
    'struct Stack 3-5',
    'enum Op 7-10',
    'trait Describe 12-14',
    '  method describe 13-13',
    'impl Stack<T> 16-20',
    '  method new 17-19',
    'function run 22-24',
    'type Result2 26-26'
  ],
  'Sample.java': [
    'class Sample 3-13',
    '  method Sample 6-8',
    '  method next 10-12',
    'interface Greeter 15-17',
    '  method greet 16-16',
    'enum Level 19-22'
  ],
  'sample.c': [
    'struct point 3-6',
    'type color_t 8-11',
    '  enum color 8-11',
    'function add 13-15',
    'function name 17-19'
  ],
  'sample.cpp': [
    'module geo 3-27',
    '  class Shape 5-11',
    '    method ~Shape 7-7',
    '    method area 8-10',
    '  struct Point 13-16',
    '  enum Kind 18-21',
    '  function total 23-25'
  ],
  'sample.cs': [
    'module Sample 3-32',
    '  interface IGreeter 5-8',
    '    method Greet 7-7',
    '  class Greeter 10-20',
    '    method Greeter 12-14',
    '    method Greet 16-19',
    '  enum Mood 22-26',
    '  struct Pair 28-31'
  ],
  'sample.rb': [
    'module Shapes 3-17',
    '  class Square 4-16',
    '    method initialize 5-7',
    '    method area 9-11',
    '    method unit 13-15',
    'function greet 19-21'
  ],
  'sample.php': [
    'module App 3-3',
    'interface Repository 5-8',
    '  method find 7-7',
    'class UserRepository 10-16',
    '  method find 12-15',
    'trait Loggable 18-24',
    '  method log 20-23',
    'function helper 26-29'
  ],
  'sample.css': [
    'rule body 1-3',
    'rule .card, 5-8',
    'rule spin 10-13',
    'rule @media (max-width: 600px) 15-19',
    '  rule .card 16-18'
  ],
  'sample.sh': ['function build 4-6', 'function deploy 8-11']
}

for (const [where, parser] of parsers)
  describe(`definitions through tree-sitter (one fixture per language), ${where}`, () => {
    for (const [file, rows] of Object.entries(expected)) {
      it(`lists the definitions of ${file}`, async () => {
        const language = languageFor(file)
        expect(language, file).toBeDefined()
        const definitions = await parser.definitions(readFixture(file), language!)
        expect(
          definitions.map((d) => `${'  '.repeat(d.depth)}${d.kind} ${d.name} ${d.startLine}-${d.endLine}`)
        ).toEqual(rows)
      })
    }

    it('knows no grammar for other files', () => {
      expect(languageFor('README.md')).toBeUndefined()
      expect(languageFor('Makefile')).toBeUndefined()
      expect(languageFor('.bashrc')).toBeUndefined()
      expect(languageFor('src/A.TS')?.id).toBe('typescript')
    })

    it('survives broken source: definitions before the error are still found', async () => {
      const definitions = await parser.definitions(
        'function ok() {\n  return 1\n}\n\nclass {{{ broken\n',
        languageFor('x.js')!
      )
      expect(definitions[0]).toMatchObject({ kind: 'function', name: 'ok', startLine: 1, endLine: 3 })
    })
  })
