import { describe, expect, it } from 'vitest'
import { requiredLiteral } from '../../../src/main/core/workspace/required-literal'

const lit = (source: string, flags = ''): ReturnType<typeof requiredLiteral> =>
  requiredLiteral(new RegExp(source, flags).source, flags)

describe('requiredLiteral', () => {
  it('takes a plain pattern whole, escapes read as their character', () => {
    expect(lit('createElement')).toEqual({ text: 'createElement', whole: true })
    expect(lit('foo\\(bar\\.baz\\)')).toEqual({ text: 'foo(bar.baz)', whole: true })
    expect(lit('a/b')).toEqual({ text: 'a/b', whole: true })
  })

  it('keeps the longest run every match must hold, not a whole pattern', () => {
    expect(lit('function\\s+\\w+')).toEqual({ text: 'function', whole: false })
    expect(lit('^export const')).toEqual({ text: 'export const', whole: false })
    expect(lit('(?:get|set)Value\\(')).toEqual({ text: 'Value(', whole: false })
    expect(lit('ab[cd]efgh')).toEqual({ text: 'efgh', whole: false })
  })

  it('drops a character a quantifier makes optional, keeps one that + repeats', () => {
    expect(lit('colou?r')).toEqual({ text: 'colo', whole: false })
    expect(lit('abcx*yz')).toEqual({ text: 'abc', whole: false })
    expect(lit('abcde{0,2}f')).toEqual({ text: 'abcd', whole: false })
    expect(lit('hello+ wo')).toEqual({ text: 'hello', whole: false })
    expect(lit('abc+?d')).toEqual({ text: 'abc', whole: false })
  })

  it('gives up when unsure', () => {
    expect(lit('foo|bar')).toBeNull()
    expect(lit('Hello', 'i')).toBeNull()
    expect(lit('\\x41bcdef')).toBeNull()
    expect(lit('(a)\\1bcdef')).toBeNull()
    expect(lit('a.b')).toBeNull()
    expect(lit('[0-9]+')).toBeNull()
  })
})
