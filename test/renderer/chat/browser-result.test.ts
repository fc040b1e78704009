import { describe, expect, it } from 'vitest'
import { browserFacts } from '../../../src/renderer/src/features/chat/browser-result'

describe('browserFacts', () => {
  it('reads the URL, console lines and page errors of a browser_action result; (none) is empty', () => {
    const quiet = [
      'Opened http://localhost:3000/ (HTTP 200).',
      'Current URL: http://localhost:3000/',
      'Viewport: 900x600',
      'Console since the previous action: (none)',
      'Page errors since the previous action: (none)',
      '(A screenshot was taken but not sent: this model does not take images. Rely on the URL and console.)'
    ].join('\n')
    expect(browserFacts(quiet)).toEqual({ url: 'http://localhost:3000/', console: [], errors: [] })
    const noisy = [
      'Pressed Enter.',
      'Current URL: http://localhost:3000/done',
      'Viewport: 900x600',
      'Console since the previous action:\n[log] saved\n[error] multi\nline',
      'Page errors since the previous action:\nboom',
      '(A screenshot was taken but not sent: this model does not take images. Rely on the URL and console.)'
    ].join('\n')
    expect(browserFacts(noisy)).toEqual({
      url: 'http://localhost:3000/done',
      console: ['[log] saved', '[error] multi', 'line'],
      errors: ['boom']
    })
    expect(browserFacts('No browser is open: start with browser_action launch (url) before click.')).toEqual({
      url: null,
      console: [],
      errors: []
    })
  })
})
