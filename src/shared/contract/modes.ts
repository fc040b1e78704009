import { z } from 'zod'
import { request } from './define'
import { ModeConfig, ModeSource } from '../modes/schema'

export const ModeScope = z.enum(['project', 'global'])
export const ModesFileFormat = z.enum(['modus', 'roo'])

export const ModeView = z.object({
  ...ModeConfig.shape,
  origin: ModeSource,
  overridesBuiltIn: z.boolean(),
  /** A project mode the user saved in the app, unchanged since: their own grant (see ResolvedMode). */
  savedByUser: z.boolean().optional(),
  /** A built-in mode: rules the user added to it ("always allow"), kept apart from the definition. */
  additions: z
    .object({
      commandAllow: z.array(z.string()).optional(),
      sandboxDomains: z.array(z.string()).optional(),
      browserAllow: z.array(z.string()).optional()
    })
    .optional()
})
export type ModeView = z.infer<typeof ModeView>

export const ModesView = z.object({
  modes: z.array(ModeView),
  defaultSlug: z.string(),
  /** Files that failed to parse, with the line; they are kept untouched until fixed. */
  problems: z.array(z.object({ file: z.string(), message: z.string(), line: z.number().optional() })),
  warnings: z.array(z.string()),
  files: z.object({ project: z.string().optional(), global: z.string(), roomodes: z.string().optional() })
})
export type ModesView = z.infer<typeof ModesView>

export const modesRequests = {
  'modes:list': request(z.object({}).strict(), ModesView),
  /** The mode is validated by the core (precise messages); the input shape is left open here. */
  'modes:save': request(
    z
      .object({ mode: z.record(z.string(), z.unknown()), scope: ModeScope, previousSlug: z.string().optional() })
      .strict(),
    ModesView
  ),
  'modes:delete': request(z.object({ slug: z.string().min(1), scope: ModeScope }).strict(), ModesView),
  'modes:resetBuiltIn': request(z.object({ slug: z.string().min(1), scope: ModeScope.optional() }).strict(), ModesView),
  /** Without `format` the core tells Modus's files from Roo's by their content. */
  'modes:import': request(
    z.object({ text: z.string().max(1_000_000), scope: ModeScope, format: ModesFileFormat.optional() }).strict(),
    z.object({ view: ModesView, imported: z.array(z.string()), warnings: z.array(z.string()) })
  ),
  /** One mode, or without `slug` every mode the user made or changed (built-ins as shipped are left out). */
  'modes:export': request(
    z.object({ slug: z.string().min(1).optional(), format: ModesFileFormat.default('modus') }).strict(),
    z.object({ yaml: z.string(), fileName: z.string() })
  ),
  'modes:testRegex': request(
    z.object({ fileRegex: z.string(), limit: z.number().int().min(1).max(2000).optional() }).strict(),
    z.object({ matches: z.array(z.string()), scanned: z.number(), truncated: z.boolean() })
  )
}

export const modesEvents = {
  'modes:changed': ModesView
}
