import { z } from 'zod'
import { defineTool } from './define'

/** `x,y` in CSS pixels of the viewport, as Roo's browser_action takes it. */
const coordinate = z
  .string()
  .trim()
  .regex(/^\d+\s*,\s*\d+$/, 'coordinate must be "x,y" in viewport pixels, e.g. "450,300"')
  .transform((text) => {
    const [x, y] = text.split(',').map((part) => Number(part.trim()))
    return { x, y }
  })

/** `WIDTHxHEIGHT` (also `W,H`), within what a screenshot can sensibly carry. */
const size = z
  .string()
  .trim()
  .regex(/^\d+\s*[x,]\s*\d+$/i, 'size must be "WIDTHxHEIGHT", e.g. "1280x800"')
  .transform((text) => {
    const [width, height] = text.split(/[x,]/i).map((part) => Number(part.trim()))
    return { width, height }
  })
  .refine(
    (s) => s.width >= 200 && s.height >= 200 && s.width <= 3840 && s.height <= 2160,
    'size must be between 200x200 and 3840x2160'
  )

export const BROWSER_ACTIONS = [
  'launch',
  'click',
  'hover',
  'type',
  'press',
  'scroll_down',
  'scroll_up',
  'resize',
  'screenshot',
  'close'
] as const

/** The field each action needs; the others must be absent so a confused call is refused, not guessed. */
const NEEDS: Record<(typeof BROWSER_ACTIONS)[number], 'url' | 'coordinate' | 'text' | 'key' | 'size' | null> = {
  launch: 'url',
  click: 'coordinate',
  hover: 'coordinate',
  type: 'text',
  press: 'key',
  scroll_down: null,
  scroll_up: null,
  resize: 'size',
  screenshot: null,
  close: null
}

// One flat object (not a union): providers want an object schema at the top of a tool's input.
const browserActionParams = z
  .object({
    action: z.enum(BROWSER_ACTIONS),
    url: z.string().trim().min(1).optional().describe('launch: the page to open (http://, https:// or file://)'),
    coordinate: coordinate.optional().describe('click, hover: "x,y" in viewport pixels'),
    text: z.string().optional().describe('type: the text to type into the focused element'),
    key: z.string().trim().min(1).optional().describe('press: a key such as "Enter" or "Control+A"'),
    size: size.optional().describe('resize: "WIDTHxHEIGHT"')
  })
  .strict()
  .superRefine((p, ctx) => {
    const needed = NEEDS[p.action]
    for (const field of ['url', 'coordinate', 'text', 'key', 'size'] as const) {
      if (field === needed && p[field] === undefined)
        ctx.addIssue({ code: 'custom', path: [field], message: `${p.action} needs ${field}` })
      if (field !== needed && p[field] !== undefined)
        ctx.addIssue({ code: 'custom', path: [field], message: `${p.action} takes no ${field}` })
    }
  })

export const browserActionTool = defineTool({
  name: 'browser_action',
  group: 'browser',
  description:
    'Drive a Chromium page to check a web app: launch it first, close it when done. Each field says which action takes it. ' +
    'Every action returns a screenshot, the current URL, and console messages and page errors since the previous action.',
  params: browserActionParams,
  effect: 'browser',
  /** The page a launch opens; the other actions stay on the page already approved. */
  browserUrl: (p) => (p.action === 'launch' ? p.url : undefined),
  summarize: (p) => {
    switch (p.action) {
      case 'launch':
        return `Open ${p.url ?? ''} in the browser`
      case 'click':
      case 'hover':
        return `Browser: ${p.action} at ${p.coordinate?.x},${p.coordinate?.y}`
      case 'type': {
        const text = p.text ?? ''
        return `Browser: type ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)}`
      }
      case 'press':
        return `Browser: press ${p.key ?? ''}`
      case 'resize':
        return `Browser: resize to ${p.size?.width}x${p.size?.height}`
      default:
        return `Browser: ${p.action.replace('_', ' ')}`
    }
  }
})

export type BrowserActionParams = z.output<typeof browserActionParams>
